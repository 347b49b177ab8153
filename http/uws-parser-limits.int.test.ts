/**
 * What this uWebSockets.js build (v20.30) does alone with the forms its HTTP parser refuses, on a bare App: it
 * answers nothing. A refused head is kept as "incomplete" until the fixed 10 s idle timeout (~12 s measured)
 * closes the connection; a head over 4 KB that is not whole in one read is dropped at once without a byte; a
 * request pipelined behind an unfinished response (an SSE stream) closes the connection. No JS callback runs
 * for any of them, so the service cannot answer them itself: the deployment puts nginx in front
 * (`http/nginx-front.conf`, tested by `hostile-request.int.test.ts`).
 *
 * This test pins that behaviour. If it fails, the uWS build changed: re-measure, and update http/README.md
 * ("Hostile and unusual requests") and the front configuration.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { rawExchange } from './testing/raw-exchange.js';
import { loadUws } from './uws.js';

const uWS = loadUws();
/** Long enough to show "no answer" (the bound is one second), far below the ~12 s idle timeout. */
const SILENT_MS = 1200;

let app: TemplatedApp;
let listen: us_listen_socket;
let port = 0;
/** Paths the handlers saw. */
const handled = new Set<string>();

before(async () => {
  app = uWS.App();
  app.get('/stream', (res, req) => {
    handled.add(req.getUrl());
    // Why: a response left open needs an abort handler, or uWS terminates the process.
    res.onAborted(() => undefined);
    res.writeStatus('200 OK').writeHeader('content-type', 'text/event-stream');
    res.write(': open\n\n');
  });
  app.any('/*', (res, req) => {
    handled.add(req.getUrl());
    res.end('ok');
  });
  listen = await new Promise<us_listen_socket>((resolve, reject) =>
    app.listen('127.0.0.1', 0, (ls) => (ls ? resolve(ls) : reject(new Error('listen failed')))),
  );
  port = uWS.us_socket_local_port(listen as unknown as Parameters<typeof uWS.us_socket_local_port>[0]);
});
after(() => {
  uWS.us_listen_socket_close(listen);
  (app as unknown as { close?: () => void }).close?.();
});

const hdrs = (n: number): string => Array.from({ length: n }, (_, i) => `x-h${i}: v\r\n`).join('');

/** Forms the parser takes for an unfinished head: no byte, no close, no handler call. `/x` is each one's own path. */
const SILENT: readonly (readonly [string, string])[] = [
  ['HTTP/1.0', 'GET /x HTTP/1.0\r\nHost: a\r\n\r\n'],
  ['NUL in the path', 'GET /x\0y HTTP/1.1\r\nHost: a\r\n\r\n'],
  ['space in the path', 'GET /x y HTTP/1.1\r\nHost: a\r\n\r\n'],
  ['tab in the path', 'GET /x\ty HTTP/1.1\r\nHost: a\r\n\r\n'],
  ['NUL in a header value', 'GET /x HTTP/1.1\r\nHost: a\r\nx: a\0b\r\n\r\n'],
  ['0x01 in a header value', 'GET /x HTTP/1.1\r\nHost: a\r\nx: a\x01b\r\n\r\n'],
  ['a header line without a colon', 'GET /x HTTP/1.1\r\nHost: a\r\nbogus\r\n\r\n'],
  ['49 headers', 'GET /x HTTP/1.1\r\nHost: a\r\n' + hdrs(48) + '\r\n'],
  ['HTTP/2.0', 'GET /x HTTP/2.0\r\nHost: a\r\n\r\n'],
  ['HTTP/1.2', 'GET /x HTTP/1.2\r\nHost: a\r\n\r\n'],
];

describe('uWS v20.30 alone', { concurrency: true }, () => {
  test('a well-formed request with 48 headers is answered (the control)', async () => {
    const ex = await rawExchange(port, 'GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n' + hdrs(46) + '\r\n');
    assert.equal(ex.status, 200);
    assert.ok(ex.closedMs !== null);
  });

  SILENT.forEach(([name, bytes], i) => {
    test(`${name}: no answer and the connection left open`, async () => {
      const path = `/silent-${i}`;
      const ex = await rawExchange(port, bytes.replace('GET /x', `GET ${path}`), { waitMs: SILENT_MS });
      assert.equal(ex.text, '');
      assert.equal(ex.closedMs, null);
      assert.ok(![...handled].some((p) => p.startsWith(path)), 'no handler ran');
    });
  });

  test('a 6 KB head in two reads: closed at once without a byte', async () => {
    const head = 'GET /x HTTP/1.1\r\nHost: a\r\nx: ' + 'a'.repeat(6000) + '\r\n\r\n';
    const ex = await rawExchange(port, [head.slice(0, 3000), head.slice(3000)], { waitMs: SILENT_MS });
    assert.equal(ex.text, '');
    assert.ok(ex.closedMs !== null && ex.closedMs < SILENT_MS);
  });

  test('the same 6 KB head in one read: answered', async () => {
    const ex = await rawExchange(port, 'GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\nx: ' + 'a'.repeat(6000) + '\r\n\r\n');
    assert.equal(ex.status, 200);
  });

  test('a request pipelined behind an open stream: the connection is closed', async () => {
    const ex = await rawExchange(port, ['GET /stream HTTP/1.1\r\nHost: a\r\n\r\n', 'GET /x HTTP/1.1\r\nHost: a\r\n\r\n'], { waitMs: SILENT_MS });
    assert.equal(ex.status, 200);
    assert.ok(ex.closedMs !== null && ex.closedMs < SILENT_MS, 'closed');
    assert.doesNotMatch(ex.text, /\r\nok$/, 'the pipelined request was not answered');
  });
});
