/**
 * Hostile and unusual requests on raw sockets, through the recommended deployment: Debian's nginx with
 * `http/nginx-front.conf` in front of the real service. Each refused form must get its status and a closed
 * connection in under a second; each form nginx accepts must be answered by the service in under a second; an
 * SSE stream must survive a request pipelined after it.
 *
 * `HOSTILE_DIRECT=1` sends the same bytes straight to the service instead (no proxy): that reproduces what the
 * uWebSockets.js build does alone (no answer, ~12 s hang, or a silent close) and fails, which is why the
 * deployment needs the proxy (http/README.md, "Hostile and unusual requests"). Skips only when no nginx binary
 * is installed (`scripts/test.sh` installs it on Debian).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { findNginx, startNginx, type RunningNginx } from './testing/nginx.js';
import { rawExchange, type RawExchange } from './testing/raw-exchange.js';
import { startServiceUnderTest, TEST_DEMO_KEY, type ServiceUnderTest } from './testing/service-under-test.js';

const DIRECT = process.env.HOSTILE_DIRECT === '1';
const NGINX = findNginx();
const SKIP = !DIRECT && NGINX === null ? 'no nginx binary (apt-get install -y nginx; scripts/test.sh installs it)' : false;

/** The bound every answer and every close must meet. */
const WITHIN_MS = 1000;

const OK_PATH = '/v1/price/SOL';
const KEY = `x-api-key: ${TEST_DEMO_KEY}\r\n`;
/** A well-formed request that closes the connection after its answer. */
const CLOSING = `GET ${OK_PATH} HTTP/1.1\r\nHost: t\r\n${KEY}Connection: close\r\n\r\n`;

const pad = (n: number): string => 'a'.repeat(n);
const headerLines = (count: number, valueBytes = 1): string =>
  Array.from({ length: count }, (_, i) => `x-extra-${i}: ${pad(valueBytes)}\r\n`).join('');

let sut: ServiceUnderTest;
let proxy: RunningNginx | null = null;
let port = 0;

/** Asserts a refusal: `status` on the first line, and the server closed the connection within the bound. */
function assertRefused(ex: RawExchange, status: number): void {
  assert.equal(ex.status, status, `expected ${status}, got ${ex.status === null ? 'no answer' : ex.status}: ${JSON.stringify(ex.text.slice(0, 120))}`);
  assert.ok(ex.closedMs !== null, `connection still open after the ${status} (${JSON.stringify(ex.text.slice(0, 120))})`);
  assert.ok(ex.closedMs < WITHIN_MS, `closed after ${ex.closedMs} ms`);
}

/**
 * Asserts a form that is answered: `count` responses with `status` (the request, then the closing request
 * pipelined behind it), and the connection closed within the bound: the connection stayed in step.
 */
function assertAnswered(ex: RawExchange, count: number, status = 200): void {
  const statuses = [...ex.text.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]));
  assert.deepEqual(statuses, Array(count).fill(status), `answers: ${JSON.stringify(ex.text.slice(0, 160))}`);
  assert.ok(ex.closedMs !== null && ex.closedMs < WITHIN_MS, `closed after ${ex.closedMs} ms`);
}

describe(`hostile requests ${DIRECT ? 'straight to the service (expected to fail)' : 'through nginx-front.conf'}`, { skip: SKIP }, () => {
  before(async () => {
    // The documented deployment runs with TRUST_PROXY=1 (nginx sets X-Forwarded-For to the client address).
    sut = await startServiceUnderTest(DIRECT ? {} : { TRUST_PROXY: '1' });
    if (!DIRECT) proxy = await startNginx(NGINX!, sut.svc.port);
    port = proxy?.port ?? sut.svc.port;
  });
  after(async () => {
    await proxy?.stop();
    await sut?.stop();
  });

  test('a well-formed request still gets its answer', async () => {
    assertAnswered(await rawExchange(port, CLOSING), 1);
  });

  test('a body reaches the service (nginx sets Content-Length upstream), also sent chunked', async () => {
    const direct = await fetch(`${sut.base}/v1/quote`, { method: 'POST', headers: { 'x-api-key': TEST_DEMO_KEY, 'content-type': 'application/json' }, body: '{}' });
    await direct.arrayBuffer();
    const head = `POST /v1/quote HTTP/1.1\r\nHost: t\r\n${KEY}Content-Type: application/json\r\nConnection: close\r\n`;
    assertAnswered(await rawExchange(port, `${head}Content-Length: 2\r\n\r\n{}`), 1, direct.status);
    assertAnswered(await rawExchange(port, `${head}Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`), 1, direct.status);
  });

  test('HTTP/1.0 (no Host, as nginx sends upstream by default): answered, then closed', async () => {
    const ex = await rawExchange(port, `GET ${OK_PATH} HTTP/1.0\r\n${KEY}\r\n`);
    assertAnswered(ex, 1);
    assert.match(ex.text, /"priceUsd"/);
  });

  test('HTTP/1.0 with keep-alive: answered, and the next request on the connection too', async () => {
    assertAnswered(await rawExchange(port, `GET ${OK_PATH} HTTP/1.0\r\nConnection: keep-alive\r\n${KEY}\r\n` + CLOSING), 2);
  });

  test('NUL in the path: 400', async () => {
    assertRefused(await rawExchange(port, `GET /v1/price/S\0OL HTTP/1.1\r\nHost: t\r\n\r\n`), 400);
  });

  test('space in the path: 400', async () => {
    assertRefused(await rawExchange(port, `GET /v1/price/S OL HTTP/1.1\r\nHost: t\r\n\r\n`), 400);
  });

  test('tab in the path: 400', async () => {
    assertRefused(await rawExchange(port, `GET /v1/price/S\tOL HTTP/1.1\r\nHost: t\r\n\r\n`), 400);
  });

  test('NUL in a header value: 400', async () => {
    assertRefused(await rawExchange(port, `GET ${OK_PATH} HTTP/1.1\r\nHost: t\r\nx-api-key: a\0b\r\n\r\n`), 400);
  });

  test('another control byte in a forwarded header value: 400', async () => {
    assertRefused(await rawExchange(port, `GET ${OK_PATH} HTTP/1.1\r\nHost: t\r\nx-api-key: a\x01b\r\n\r\n`), 400);
  });

  test('space before the colon of a header: 400', async () => {
    assertRefused(await rawExchange(port, `GET ${OK_PATH} HTTP/1.1\r\nHost: t\r\nx-api-key : k\r\n\r\n`), 400);
  });

  test('a header line without a colon: ignored (nginx reads it as an empty header), the request answered', async () => {
    assertAnswered(await rawExchange(port, `GET ${OK_PATH} HTTP/1.1\r\nHost: t\r\n${KEY}no-colon-here\r\n\r\n` + CLOSING), 2);
  });

  test('more than 48 headers: answered (only the headers the service reads are forwarded)', async () => {
    assertAnswered(await rawExchange(port, `GET ${OK_PATH} HTTP/1.1\r\nHost: t\r\n${KEY}${headerLines(60)}\r\n` + CLOSING), 2);
  });

  test('HTTP/2.0 in an HTTP/1 request line: 505', async () => {
    assertRefused(await rawExchange(port, `GET ${OK_PATH} HTTP/2.0\r\nHost: t\r\n\r\n`), 505);
  });

  test('HTTP/3.0: 505', async () => {
    assertRefused(await rawExchange(port, `GET ${OK_PATH} HTTP/3.0\r\nHost: t\r\n\r\n`), 505);
  });

  test('an unknown protocol name: 400', async () => {
    assertRefused(await rawExchange(port, `GET ${OK_PATH} HTTX/1.1\r\nHost: t\r\n\r\n`), 400);
  });

  test('HTTP/1.2: processed as HTTP/1.1 (RFC 9110 2.5), answered', async () => {
    assertAnswered(await rawExchange(port, `GET ${OK_PATH} HTTP/1.2\r\nHost: t\r\n${KEY}\r\n` + CLOSING), 2);
  });

  test('a request line over 3 KB: 414', async () => {
    assertRefused(await rawExchange(port, `GET ${OK_PATH}?pad=${pad(4000)} HTTP/1.1\r\nHost: t\r\n\r\n`), 414);
  });

  test('a request line just under 3 KB reaches the service, also split over two reads', async () => {
    const line = `GET ${OK_PATH}?pad=${pad(2900)} HTTP/1.1\r\n`;
    assertAnswered(await rawExchange(port, [line.slice(0, 1500), line.slice(1500) + `Host: t\r\n${KEY}\r\n` + CLOSING]), 2);
  });

  test('a header line over 3 KB: 431', async () => {
    assertRefused(await rawExchange(port, `GET ${OK_PATH} HTTP/1.1\r\nHost: t\r\nx-big: ${pad(4000)}\r\n\r\n`), 431);
  });

  test('a header block over 13 KB: 431, also split over two reads', async () => {
    assertRefused(await rawExchange(port, `GET ${OK_PATH} HTTP/1.1\r\nHost: t\r\n${headerLines(8, 2000)}\r\n`), 431);
    const block = `GET ${OK_PATH} HTTP/1.1\r\nHost: t\r\n${headerLines(8, 2000)}\r\n`;
    assertRefused(await rawExchange(port, [block.slice(0, 3000), block.slice(3000)]), 431);
  });

  test('forwarded header values over 512 bytes in all: 431', async () => {
    assertRefused(await rawExchange(port, `GET ${OK_PATH} HTTP/1.1\r\nHost: t\r\nx-api-key: ${pad(600)}\r\n\r\n`), 431);
  });

  test('a 6 KB header block split over two reads: answered (uWS alone drops it without a word)', async () => {
    const head = `GET ${OK_PATH} HTTP/1.1\r\nHost: t\r\n${KEY}${headerLines(3, 2000)}\r\n`;
    assertAnswered(await rawExchange(port, [head.slice(0, 3000), head.slice(3000) + CLOSING]), 2);
  });

  for (const split of [false, true]) {
    test(`a request pipelined after an SSE request${split ? ' (separate write)' : ' (same write)'}: the stream keeps running`, async () => {
      const stream = `GET /v1/stream/prices?tokens=SOL HTTP/1.1\r\nHost: t\r\n${KEY}\r\n`;
      const next = `GET ${OK_PATH} HTTP/1.1\r\nHost: t\r\n${KEY}\r\n`;
      const observeMs = 1500;
      const [ex, held] = await Promise.all([
        rawExchange(port, split ? [stream, next] : [stream + next], { waitMs: observeMs, gapMs: 200 }),
        new Promise((r) => setTimeout(r, observeMs - 300)).then(() => sut.svc.streamSlotsHeld(TEST_DEMO_KEY)),
      ]);
      assert.equal(ex.status, 200, JSON.stringify(ex.text.slice(0, 200)));
      assert.match(ex.text, /content-type: text\/event-stream/i);
      assert.match(ex.text, /data: /, 'the first frame arrived');
      assert.equal(ex.closedMs, null, `the stream was closed after ${ex.closedMs} ms`);
      assert.equal([...ex.text.matchAll(/HTTP\/1\.1 \d{3} /g)].length, 1, 'nothing but the stream was written on the connection');
      assert.equal(held, 1, 'the service still holds the stream');
    });
  }
});
