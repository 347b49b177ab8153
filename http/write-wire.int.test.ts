import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HttpResponse, us_listen_socket } from 'uWebSockets.js';
import { statusLine } from './errors.js';
import { CORS_HEADERS, writeWire, type WireReply } from './pipeline.js';
import { rawExchange } from './testing/raw-exchange.js';
import { loadUws } from './uws.js';

// writeWire hands uWS every header in one call; the bytes must be those of one call per header.
const uWS = loadUws();
const app = uWS.App();
let listen: us_listen_socket;
let port = 0;

/** The answers compared, by name. */
const WIRES: Record<string, WireReply> = {
  ok: {
    kind: 'reply',
    status: 200,
    headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '599', 'x-ratelimit-reset': '1795565820' },
    body: '{"token":"SOL"}',
  },
  limited: {
    kind: 'reply',
    status: 429,
    headers: { 'content-type': 'application/json', 'x-ratelimit-remaining': '0', 'retry-after': '7' },
    body: Buffer.from('{"error":"Rate limit exceeded"}'),
  },
  single: { kind: 'reply', status: 404, headers: { 'content-type': 'text/plain' }, body: 'no' },
  none: { kind: 'reply', status: 204, headers: {}, body: '' },
};

/** The reference: a status line always, then one writeHeader call per header. */
function writeOneByOne(res: HttpResponse, w: WireReply): void {
  res.writeStatus(statusLine(w.status));
  for (const k in w.headers) res.writeHeader(k, w.headers[k]!);
  for (const k in CORS_HEADERS) res.writeHeader(k, CORS_HEADERS[k]!);
  res.end(w.body);
}

before(async () => {
  for (const name of Object.keys(WIRES)) {
    app.get(`/wire/${name}`, (res) => writeWire(res, WIRES[name]!));
    app.get(`/ref/${name}`, (res) => writeOneByOne(res, WIRES[name]!));
  }
  listen = await new Promise<us_listen_socket>((resolve, reject) => app.listen('127.0.0.1', 0, (ls) => (ls ? resolve(ls) : reject(new Error('listen')))));
  port = uWS.us_socket_local_port(listen as unknown as Parameters<typeof uWS.us_socket_local_port>[0]);
});

after(() => {
  uWS.us_listen_socket_close(listen);
});

async function bytesOf(path: string): Promise<string> {
  const ex = await rawExchange(port, `GET ${path} HTTP/1.1\r\nHost: t\r\n\r\n`, { until: (t) => /\r\n\r\n/.test(t) && /Content-Length: (\d+)\r\n\r\n/.test(t) && t.length >= t.indexOf('\r\n\r\n') + 4 + Number(/Content-Length: (\d+)/.exec(t)![1]) });
  // The Date header is the only part that may differ between two answers.
  return ex.text.replace(/\r\nDate: [^\r]*/, '');
}

for (const name of Object.keys(WIRES)) {
  test(`writeWire puts the bytes of one writeHeader call per header on the wire (${name})`, async () => {
    const got = await bytesOf(`/wire/${name}`);
    assert.equal(got, await bytesOf(`/ref/${name}`));
    assert.match(got, new RegExp(`^HTTP/1.1 ${WIRES[name]!.status} `));
    for (const [k, v] of Object.entries({ ...WIRES[name]!.headers, ...CORS_HEADERS })) assert.ok(got.includes(`\r\n${k}: ${v}\r\n`), k);
  });
}
