import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PriceObject } from '../../engine/router/price-types.js';
import { keyAuth } from '../auth.js';
import { reloadLogLevel } from '../log.js';
import { createServer, type RunningServer } from '../server.js';
import { FAKE_MINTS, FakePriceService } from '../testing/fake-price-service.js';
import { openSse, type SseReader } from '../testing/sse-reader.js';

process.env.LOG_LEVEL = 'silent';
reloadLogLevel();

const KEY = { 'x-api-key': 'test-key' };
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** A distinct valid-looking base58 mint per index. */
const mintN = (i: number): string => '1'.repeat(40) + ALPHABET[i % 58]! + ALPHABET[Math.floor(i / 58) % 58]!;

let svc: FakePriceService;
let server: RunningServer;
let base: string;
const streams: SseReader[] = [];

before(async () => {
  svc = new FakePriceService();
  for (let i = 0; i < 60; i++) svc.indexed.add(mintN(i));
  const keys = new Map([['test-key', { id: 1, tier: 'pro' as const }], ['qkey', { id: 2, tier: 'pro' as const }]]);
  server = await createServer({
    priceService: svc,
    port: 0,
    host: '127.0.0.1',
    anonCacheTtlMs: 200,
    auth: keyAuth((k) => keys.get(k) ?? null),
    points: async () => null,
  });
  base = `http://127.0.0.1:${server.port}`;
});

after(async () => {
  for (const s of streams) s.close();
  await server.close();
  assert.equal(svc.listenerCount, 0, 'close() unsubscribes from the price service');
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies are probed field by field
type Json = any;

async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Json }> {
  const res = await fetch(base + path, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

async function stream(query = '', headers: Record<string, string> = KEY): Promise<SseReader> {
  const s = await openSse(`${base}/v1/stream/prices${query}`, headers);
  streams.push(s);
  return s;
}

async function waitFor(cond: () => boolean, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const PRICE_FIELDS = ['token', 'mint', 'priceUsd', 'bestBid', 'bestAsk', 'bestBidPool', 'bestAskPool', 'bestBidDex', 'bestAskDex',
  'bestBidFeeBps', 'bestAskFeeBps', 'poolCacheAgeMs', 'confidence', 'poolCount', 'timestamp', 'route'];

function assertPriceShape(p: Json): void {
  for (const f of PRICE_FIELDS) assert.ok(f in p, `price object lacks ${f}`);
}

test('GET /health: 200 { status, pools } with CORS', async () => {
  const r = await get('/health');
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { status: 'ok', pools: 42 });
  assert.equal(r.headers.get('content-type'), 'application/json');
  assert.equal(r.headers.get('access-control-allow-origin'), '*');
});

test('warming: health and data routes answer 503 with Retry-After', async () => {
  svc.isReady = false;
  try {
    const h = await get('/health');
    assert.equal(h.status, 503);
    assert.equal(h.headers.get('retry-after'), '5');
    assert.equal(h.body.status, 'warming');
    assert.equal(h.body.pools, 42);
    assert.equal(h.body.code, 'SERVICE_UNAVAILABLE');
    assert.equal(typeof h.body.error, 'string');
    for (const p of ['/v1/price/SOL?w=1', '/v1/prices?tokens=SOL&w=1']) {
      const r = await get(p);
      assert.equal(r.status, 503, p);
      assert.equal(r.headers.get('retry-after'), '5');
      assert.equal(r.body.code, 'SERVICE_UNAVAILABLE');
    }
  } finally {
    svc.isReady = true;
  }
});

test('warming: a stream is accepted with ready at once, and gets its prices when warm', async () => {
  svc.isReady = false;
  try {
    const all = await stream('?w=all');
    const some = await stream(`?tokens=SOL,${FAKE_MINTS.MEME}`);
    for (const s of [all, some]) {
      assert.equal(s.status, 200);
      assert.equal(s.headers.get('content-type'), 'text/event-stream');
      assert.equal((await s.next()).event, 'ready');
    }
    // No frame from a partial load: a change while warming goes nowhere.
    svc.push({ mints: [FAKE_MINTS.SOL], confirmed: true });
    assert.ok(await all.quietFor(100));
    assert.ok(await some.quietFor(0));
    svc.isReady = true;
    const got = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const e = await some.next();
      assert.equal(e.event, 'price');
      got.add((e.data as PriceObject).mint);
    }
    assert.deepEqual(got, new Set([FAKE_MINTS.SOL, FAKE_MINTS.MEME]), 'explicit tokens: their confirmed prices when warm');
    const first = await all.next();
    assert.equal(first.event, 'price', 'every tracked token: the snapshot when warm');
    all.close();
    some.close();
    await waitFor(() => server.sseClientCount() === 0);
  } finally {
    svc.isReady = true;
  }
});

test('warming: what can be decided is still 400; a mint still unknown when warm ends the stream', async () => {
  svc.isReady = false;
  try {
    for (const q of ['?tokens=NOTATOKEN', '?tokens=SOL&dedupThreshold=2', '?tokens=', `?tokens=${Array.from({ length: 51 }, (_, i) => mintN(i)).join(',')}`]) {
      const s = await stream(q);
      assert.equal(s.status, 400, q);
      assert.equal(JSON.parse(await s.text()).code, 'INVALID_REQUEST', q);
    }
    const none = await stream('', {});
    assert.equal(none.status, 401);
    // NEVER is a well-formed mint that is not indexed: accepted while warming, ended once warm.
    const never = await stream(`?tokens=SOL,${FAKE_MINTS.NEVER}`);
    assert.equal(never.status, 200);
    assert.equal((await never.next()).event, 'ready');
    svc.isReady = true;
    await assert.rejects(never.next(2000), /stream ended/);
    const after = await stream(`?tokens=SOL,${FAKE_MINTS.NEVER}`);
    assert.equal(after.status, 400, 'the reconnect gets the 400 of a connect after warm-up');
    await waitFor(() => server.sseClientCount() === 0);
  } finally {
    svc.isReady = true;
  }
});

test('GET /v1/price/:token: symbols (any case, aliases), mints, unavailable, invalid', async () => {
  const sol = await get('/v1/price/sol');
  assert.equal(sol.status, 200);
  assertPriceShape(sol.body);
  assert.equal(sol.body.token, 'SOL');
  assert.equal(sol.body.mint, FAKE_MINTS.SOL);
  assert.equal(sol.body.confidence, 'confirmed');
  assert.equal(sol.headers.get('access-control-allow-origin'), '*');

  const byMint = await get(`/v1/price/${FAKE_MINTS.SOL}`);
  assert.equal(byMint.body.token, 'SOL', 'a catalog mint shows its symbol');

  const meme = await get(`/v1/price/${FAKE_MINTS.MEME}`);
  assert.equal(meme.status, 200);
  assert.equal(meme.body.token, FAKE_MINTS.MEME, 'an indexed non-catalog mint shows the mint');

  const btc = await get('/v1/price/btc');
  assert.equal(btc.status, 404);
  assert.deepEqual(btc.body, { token: 'WBTC', status: 'unavailable', reason: 'no active pools' });

  const never = await get(`/v1/price/${FAKE_MINTS.NEVER}`);
  assert.equal(never.status, 404);
  assert.equal(never.body.status, 'unavailable');

  const bad = await get('/v1/price/NOTATOKEN');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.code, 'INVALID_REQUEST');
  assert.match(bad.body.details, /NOTATOKEN/);
});

test('anonymous answers are cached briefly by full URL; a key bypasses the cache', async () => {
  svc.confirmed.set(FAKE_MINTS.MEME, 1);
  const path = `/v1/price/${FAKE_MINTS.MEME}?c=1`;
  const first = await get(path);
  assert.equal(first.headers.get('x-cache'), 'miss');
  svc.confirmed.set(FAKE_MINTS.MEME, 2);
  const second = await get(path);
  assert.equal(second.headers.get('x-cache'), 'hit');
  assert.equal(second.body.priceUsd, 1);
  const keyed = await get(path, KEY);
  assert.equal(keyed.body.priceUsd, 2);
  assert.equal(keyed.headers.get('x-cache'), null);
  await new Promise((r) => setTimeout(r, 250));
  const expired = await get(path);
  assert.equal(expired.body.priceUsd, 2);
  svc.confirmed.set(FAKE_MINTS.MEME, 0.0042);
});

test('GET /v1/prices: keys as passed, unknown ignored, unavailable present, one prices() call', async () => {
  const calls = svc.pricesCalls;
  const r = await get(`/v1/prices?tokens=sol,btc,nope,${FAKE_MINTS.MEME},${FAKE_MINTS.NEVER},${FAKE_MINTS.SOL}`, KEY);
  assert.equal(r.status, 200);
  assert.equal(svc.pricesCalls, calls + 1);
  assert.deepEqual(Object.keys(r.body.prices).sort(), ['BTC', 'SOL', FAKE_MINTS.MEME, FAKE_MINTS.NEVER, FAKE_MINTS.SOL].sort());
  assert.equal(typeof r.body.timestamp, 'number');
  assertPriceShape(r.body.prices.SOL);
  assert.equal(r.body.prices[FAKE_MINTS.SOL].token, 'SOL');
  assert.equal(r.body.prices[FAKE_MINTS.MEME].token, FAKE_MINTS.MEME);
  assert.deepEqual(r.body.prices.BTC, { token: 'WBTC', status: 'unavailable', reason: 'no active pools' });
  assert.equal(r.body.prices[FAKE_MINTS.NEVER].status, 'unavailable');
  assert.equal(r.headers.get('access-control-allow-origin'), '*');
});

test('GET /v1/prices: 50 entries pass, 51 are 400; missing tokens is 400', async () => {
  const fifty = Array.from({ length: 50 }, (_, i) => mintN(i)).join(',');
  const ok = await get(`/v1/prices?tokens=${fifty}`, KEY);
  assert.equal(ok.status, 200);
  assert.equal(Object.keys(ok.body.prices).length, 50);
  const tooMany = await get(`/v1/prices?tokens=${fifty},SOL`, KEY);
  assert.equal(tooMany.status, 400);
  assert.equal(tooMany.body.code, 'INVALID_REQUEST');
  for (const q of ['', '?tokens=', '?tokens=,,']) {
    const r = await get(`/v1/prices${q}`, KEY);
    assert.equal(r.status, 400, q);
  }
});

test('unknown routes are 404 ROUTE_NOT_FOUND; preflight answers CORS', async () => {
  const r = await get('/v1/nope');
  assert.equal(r.status, 404);
  assert.equal(r.body.code, 'ROUTE_NOT_FOUND');
  const pre = await fetch(`${base}/v1/prices`, { method: 'OPTIONS' });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get('access-control-allow-origin'), '*');
  assert.match(pre.headers.get('access-control-allow-headers') ?? '', /x-api-key/);
});

test('stream: key forms and connect-time validation', async () => {
  const none = await stream('', {});
  assert.equal(none.status, 401);
  assert.equal(JSON.parse(await none.text()).code, 'UNAUTHORIZED');

  const viaQuery = await stream('?tokens=SOL&apiKey=qkey', {});
  assert.equal(viaQuery.status, 200);
  assert.equal((await viaQuery.next()).event, 'ready');
  viaQuery.close();

  const cases: [string, RegExp][] = [
    ['?tokens=SOL,NOPE', /NOPE/],
    [`?tokens=${FAKE_MINTS.NEVER}`, new RegExp(FAKE_MINTS.NEVER)],
    ['?tokens=', /tokens/],
    [`?tokens=${Array.from({ length: 51 }, (_, i) => mintN(i)).join(',')}`, /50/],
    ['?includeOptimistic=yes', /includeOptimistic/],
    ['?dedupThreshold=2', /dedupThreshold/],
    ['?dedupThreshold=-1', /dedupThreshold/],
  ];
  for (const [q, detail] of cases) {
    const s = await stream(q);
    assert.equal(s.status, 400, q);
    const b = JSON.parse(await s.text());
    assert.equal(b.code, 'INVALID_REQUEST', q);
    assert.match(b.details, detail, q);
  }
  const fifty = await stream(`?tokens=${Array.from({ length: 50 }, (_, i) => mintN(i)).join(',')},SOL`);
  assert.equal(fifty.status, 400, '50 mints plus SOL is 51 mints');
  const ok = await stream(`?tokens=${Array.from({ length: 49 }, (_, i) => mintN(i)).join(',')},SOL,sol`);
  assert.equal(ok.status, 200, 'SOL twice is one mint');
  ok.close();
  await waitFor(() => server.sseClientCount() === 0);
});

test('stream: headers, ready at once, then a snapshot when tokens is omitted', async () => {
  const s = await stream();
  assert.equal(s.status, 200);
  assert.equal(s.headers.get('content-type'), 'text/event-stream');
  assert.equal(s.headers.get('cache-control'), 'no-cache');
  assert.equal(s.headers.get('x-accel-buffering'), 'no');
  assert.equal(s.headers.get('access-control-allow-origin'), '*');
  const ready = await s.next();
  assert.equal(ready.event, 'ready');
  assert.equal(typeof (ready.data as { ts: number }).ts, 'number');
  const snap = [await s.next(), await s.next()];
  assert.deepEqual(snap.map((e) => e.event), ['price', 'price']);
  assert.deepEqual(snap.map((e) => (e.data as PriceObject).token).sort(), ['SOL', 'USDC']);
  snap.forEach((e) => assertPriceShape(e.data));
  assert.ok(await s.quietFor(50), 'unavailable tracked tokens send no frame');
  s.close();
  await waitFor(() => server.sseClientCount() === 0);
});

test('stream: one change gives one price frame on each of two clients; no snapshot with explicit tokens', async () => {
  const a = await stream('?tokens=SOL,USDC');
  const b = await stream(`?tokens=${FAKE_MINTS.SOL}`);
  assert.equal((await a.next()).event, 'ready');
  assert.equal((await b.next()).event, 'ready');
  assert.ok(await a.quietFor(30));
  svc.confirmed.set(FAKE_MINTS.SOL, 151);
  svc.push({ mints: [FAKE_MINTS.SOL, FAKE_MINTS.MEME], confirmed: true });
  for (const s of [a, b]) {
    const e = await s.next();
    assert.equal(e.event, 'price');
    assert.equal((e.data as PriceObject).token, 'SOL', 'a mint subscription streams with the catalog symbol');
    assert.equal((e.data as PriceObject).priceUsd, 151);
    assert.equal((e.data as PriceObject).confidence, 'confirmed');
  }
  svc.push({ mints: [FAKE_MINTS.USDC], confirmed: true });
  const nextA = await a.next();
  assert.equal((nextA.data as PriceObject).token, 'USDC', 'exactly one SOL frame before the USDC one');
  assert.ok(await b.quietFor(50), 'b is not subscribed to USDC');
  a.close();
  b.close();
  await waitFor(() => server.sseClientCount() === 0);
});

test('stream: dedupThreshold suppresses a tiny move per client', async () => {
  const dflt = await stream('?tokens=SOL');
  const zero = await stream('?tokens=SOL&dedupThreshold=0');
  await dflt.next();
  await zero.next();
  svc.confirmed.set(FAKE_MINTS.SOL, 150);
  svc.push({ mints: [FAKE_MINTS.SOL], confirmed: true });
  assert.equal(((await dflt.next()).data as PriceObject).priceUsd, 150);
  assert.equal(((await zero.next()).data as PriceObject).priceUsd, 150);
  svc.confirmed.set(FAKE_MINTS.SOL, 150.001); // 6.7e-6 relative: below the 1e-4 default
  svc.push({ mints: [FAKE_MINTS.SOL], confirmed: true });
  assert.equal(((await zero.next()).data as PriceObject).priceUsd, 150.001);
  assert.ok(await dflt.quietFor(50), 'tiny move suppressed for the default threshold');
  svc.confirmed.set(FAKE_MINTS.SOL, 151);
  svc.push({ mints: [FAKE_MINTS.SOL], confirmed: true });
  assert.equal(((await dflt.next()).data as PriceObject).priceUsd, 151);
  dflt.close();
  zero.close();
  await waitFor(() => server.sseClientCount() === 0);
});

test('stream: optimistic frames only with includeOptimistic', async () => {
  const plain = await stream('?tokens=SOL');
  const opt = await stream('?tokens=SOL&includeOptimistic=true');
  await plain.next();
  await opt.next();
  svc.optimistic.set(FAKE_MINTS.SOL, 152);
  svc.push({ mints: [FAKE_MINTS.SOL], confirmed: false });
  const o = (await opt.next()).data as PriceObject;
  assert.equal(o.confidence, 'optimistic');
  assert.equal(o.priceUsd, 152);
  assert.ok(await plain.quietFor(50), 'no optimistic frame without includeOptimistic');
  svc.confirmed.set(FAKE_MINTS.SOL, 152);
  svc.optimistic.delete(FAKE_MINTS.SOL);
  svc.push({ mints: [FAKE_MINTS.SOL], confirmed: true });
  for (const s of [plain, opt]) assert.equal(((await s.next()).data as PriceObject).confidence, 'confirmed');
  plain.close();
  opt.close();
  await waitFor(() => server.sseClientCount() === 0);
});

test('stream: a client abort releases it (hub size back to 0) and later changes go nowhere', async () => {
  const clients = await Promise.all([stream('?tokens=SOL'), stream('?tokens=SOL'), stream()]);
  for (const c of clients) assert.equal((await c.next()).event, 'ready');
  assert.equal(server.sseClientCount(), 3);
  for (const c of clients) c.close();
  await waitFor(() => server.sseClientCount() === 0);
  svc.push({ mints: [FAKE_MINTS.SOL], confirmed: true }); // must not throw or write to dead sockets
  const h = await get('/health');
  assert.equal(h.status, 200, 'server still healthy');
});
