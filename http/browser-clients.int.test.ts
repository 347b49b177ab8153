/**
 * Browser clients against the whole service over the localnet, connecting while it warms up (issue 10, defect 7).
 * A browser's EventSource (and the `eventsource` package, which follows the same standard) gives up for good on
 * any non-200, so a stream connect during warm-up must be accepted: `ready` at once, price frames once the
 * snapshot is in. A page on another origin must be able to read `X-RateLimit-*` and `Retry-After`.
 *
 * The startup snapshot is held by the localnet's RPC latency (set before the service starts, lifted once the
 * clients are connected: the request in flight still takes the full delay). The Chromium test runs headless
 * Debian Chromium through playwright-core, and skips only when `/usr/bin/chromium` is absent.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventSource } from 'eventsource';
import { chromium, type Browser } from 'playwright-core';
import { startLocalnet, type Localnet } from '../fixtures/localnet/start-localnet.js';
import { startServiceUnderTest, TEST_DEMO_KEY, type ServiceUnderTest } from './testing/service-under-test.js';

const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
/** How long the snapshot's RPC request in flight is held: the window in which every client connects. */
const HOLD_MS = 6000;

let net: Localnet;
let sut: ServiceUnderTest;
let browser: Browser | null = null;
let pageServer: Server;
let pageOrigin: string;

async function waitFor(cond: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

before(async () => {
  // A page on another origin (another port): the service's answers are cross-origin to its scripts.
  pageServer = createHttpServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>client</title>'));
  await new Promise<void>((r) => pageServer.listen(0, '127.0.0.1', r));
  pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
  // Launched first: the warm-up window is for connecting, not for starting a browser.
  if (HAVE_CHROMIUM) browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 100 });
  net.rpc.setLatency(HOLD_MS);
  sut = await startServiceUnderTest({}, net, { waitReady: false });
});

after(async () => {
  await browser?.close();
  await sut?.stop();
  await net?.stop();
  await new Promise((r) => pageServer.close(r));
});

test('during warm-up: eventsource and a Chromium page both get ready, then price frames once warm; a page reads the rate-limit headers and Retry-After', async (t) => {
  assert.equal(sut.svc.priceService.ready(), false, 'the service is still warming up');
  const url = `${sut.base}/v1/stream/prices?apiKey=${TEST_DEMO_KEY}&tokens=SOL`;

  // 1. The `eventsource` package.
  const events: { type: string; data: unknown }[] = [];
  let errors = 0;
  const es = new EventSource(url);
  t.after(() => es.close());
  for (const type of ['ready', 'price']) es.addEventListener(type, (e) => events.push({ type, data: JSON.parse(e.data) as unknown }));
  es.addEventListener('error', () => errors++);

  // 2. A page in Chromium, on another origin: an EventSource, and a fetch of a metered route (503 while warming).
  let page: Awaited<ReturnType<Browser['newPage']>> | null = null;
  if (browser) {
    page = await browser.newPage();
    await page.goto(pageOrigin);
    await page.evaluate((u) => {
      const w = globalThis as unknown as { got: string[]; esState: () => number };
      w.got = [];
      const src = new EventSource(u);
      for (const type of ['ready', 'price']) src.addEventListener(type, () => w.got.push(type));
      src.addEventListener('error', () => w.got.push(`error:${src.readyState}`));
      w.esState = () => src.readyState;
    }, url);
  }
  const pageFetch = async (path: string): Promise<{ status: number; remaining: string | null; limit: string | null; retryAfter: string | null }> =>
    page!.evaluate(async (u) => {
      const r = await fetch(u);
      return { status: r.status, remaining: r.headers.get('X-RateLimit-Remaining'), limit: r.headers.get('X-RateLimit-Limit'), retryAfter: r.headers.get('Retry-After') };
    }, `${sut.base}${path}`);

  await waitFor(() => events.some((e) => e.type === 'ready'), 3000, 'ready on the eventsource client');
  if (page) {
    await page.waitForFunction(() => (globalThis as unknown as { got: string[] }).got.includes('ready'), undefined, { timeout: 3000 });
    const warming = await pageFetch('/v1/price/SOL');
    assert.equal(warming.status, 503);
    assert.equal(warming.retryAfter, '5', 'a page script reads Retry-After');
    assert.match(warming.remaining ?? '', /^\d+$/, 'a page script reads X-RateLimit-Remaining');
  }
  assert.equal(sut.svc.priceService.ready(), false, 'every client connected while the service was warming up');

  // Warm up: the held request completes; the rest of the snapshot goes at full speed.
  net.rpc.setLatency(0);
  await sut.svc.ready;
  await waitFor(() => events.some((e) => e.type === 'price'), 10_000, 'a price frame on the eventsource client');
  const price = events.find((e) => e.type === 'price')!.data as { token: string; priceUsd: number };
  assert.equal(price.token, 'SOL');
  assert.ok(price.priceUsd > 0);
  assert.equal(errors, 0, 'the eventsource client never saw an error');
  if (page) {
    await page.waitForFunction(() => (globalThis as unknown as { got: string[] }).got.includes('price'), undefined, { timeout: 10_000 });
    const got = await page.evaluate(() => (globalThis as unknown as { got: string[] }).got);
    assert.deepEqual(got.filter((g) => g.startsWith('error')), [], 'the page EventSource never errored');
    assert.equal(await page.evaluate(() => (globalThis as unknown as { esState: () => number }).esState()), 1, 'OPEN');
    const warm = await pageFetch('/v1/price/SOL');
    assert.equal(warm.status, 200);
    assert.match(warm.remaining ?? '', /^\d+$/);
    assert.match(warm.limit ?? '', /^\d+$/);
  } else {
    t.diagnostic(`Chromium part skipped: ${CHROMIUM} not installed (apt-get install chromium)`);
  }
});

test('Chromium: a page on another origin reads Retry-After and X-RateLimit-Remaining of a 429', { skip: HAVE_CHROMIUM ? false : `${CHROMIUM} not installed (apt-get install chromium)` }, async () => {
  const page = await browser!.newPage();
  await page.goto(pageOrigin);
  // Anonymous prices: 30 per minute per IP (the page's fetches share the test's address).
  const last = await page.evaluate(async (u) => {
    let r: Response | null = null;
    for (let i = 0; i < 40; i++) {
      r = await fetch(`${u}?i=${i}`);
      if (r.status === 429) break;
    }
    return { status: r!.status, remaining: r!.headers.get('X-RateLimit-Remaining'), retryAfter: r!.headers.get('Retry-After'), reset: r!.headers.get('X-RateLimit-Reset') };
  }, `${sut.base}/v1/price/SOL`);
  assert.equal(last.status, 429);
  assert.equal(last.remaining, '0');
  assert.match(last.retryAfter ?? '', /^\d+$/);
  assert.match(last.reset ?? '', /^\d+$/);
  await page.close();
});
