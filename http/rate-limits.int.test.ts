/**
 * Rate limits on the real service (memory limiter, 2 s windows so a reset is observable): for each category a
 * burst over the quota, headers checked on every response, the 429 body and Retry-After, and the key working
 * again after the window resets. Then the concurrent-stream limit, with clients killed abruptly.
 */
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { CATEGORIES, quotaOf, streamSlotsOf } from '../engine/limits/table.js';
import type { Category } from '../engine/limits/table.js';
import type { Tier } from '../engine/tiers/tier.js';
import { rawStream } from './testing/raw-stream.js';
import { startServiceUnderTest, type ServiceUnderTest } from './testing/service-under-test.js';

// Long enough that every burst, run side by side, fits in one window on a loaded 2-core machine (8 s did not: CI load).
const WINDOW_MS = 20_000;
const WALLETS = ['9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', 'So11111111111111111111111111111111111111112'];

let sut: ServiceUnderTest;
before(async () => {
  sut = await startServiceUnderTest({ RATE_WINDOW_MS: String(WINDOW_MS) });
});
after(async () => sut?.stop());

interface Shot {
  status: number;
  limit: number;
  remaining: number;
  reset: number;
  retryAfter: string | null;
  body: Record<string, unknown> | null;
}

async function shoot(method: string, path: string, key: string | null): Promise<Shot> {
  const headers: Record<string, string> = key ? { 'x-api-key': key } : {};
  const body = method === 'POST' ? '{}' : undefined;
  const res = await fetch(sut.base + path, { method, headers, body });
  const text = await res.text();
  let parsed: Record<string, unknown> | null = null;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = null;
  }
  return {
    status: res.status,
    limit: Number(res.headers.get('x-ratelimit-limit')),
    remaining: Number(res.headers.get('x-ratelimit-remaining')),
    reset: Number(res.headers.get('x-ratelimit-reset')),
    retryAfter: res.headers.get('retry-after'),
    body: parsed,
  };
}

/** Waits for the start of a fresh window, so a burst fits in one. */
async function freshWindow(): Promise<void> {
  const now = Date.now();
  const next = Math.ceil(now / WINDOW_MS) * WINDOW_MS;
  await new Promise((r) => setTimeout(r, next - now + 20));
}

interface Burst {
  readonly category: Category;
  readonly tier: Tier;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** Units one request costs. */
  readonly cost?: number;
  /** The status of an allowed request (501 while the route is not built). */
  readonly okStatus: number;
}

const BURSTS: readonly Burst[] = [
  { category: 'prices', tier: 'anonymous', method: 'GET', path: '/v1/price/SOL', okStatus: 200 },
  { category: 'prices', tier: 'free', method: 'GET', path: '/v1/prices?tokens=SOL,USDC', okStatus: 200 },
  { category: 'pools', tier: 'anonymous', method: 'GET', path: '/v1/pools/SOL', okStatus: 200 },
  { category: 'quote', tier: 'free', method: 'GET', path: '/v1/quote?inputMint=SOL&outputMint=USDC&amount=1000000', okStatus: 200 },
  // The connect is counted before its parameters are checked: a connect without `amount` is a 400 that counts.
  { category: 'quote-stream', tier: 'free', method: 'GET', path: '/v1/quote/stream?inputMint=SOL&outputMint=USDC', okStatus: 400 },
  // Built: the `{}` body is a 400 (no quoteId) that counts.
  { category: 'swap', tier: 'pro', method: 'POST', path: '/v1/swap/build', okStatus: 400 },
  { category: 'forensics', tier: 'starter', method: 'GET', path: `/v1/forensics/token/${WALLETS[1]}/asset`, okStatus: 501 },
  { category: 'portfolio', tier: 'free', method: 'GET', path: `/v1/portfolio/pnl?wallets=${WALLETS.join(',')}`, cost: 2, okStatus: 501 },
  { category: 'portfolio', tier: 'growth', method: 'GET', path: `/v1/portfolio/value/${WALLETS[0]}`, okStatus: 501 },
  { category: 'points', tier: 'free', method: 'GET', path: '/v1/points/me', okStatus: 200 },
  { category: 'tx', tier: 'free', method: 'GET', path: `/v1/tx/${'5'.repeat(87)}`, okStatus: 200 },
  { category: 'search', tier: 'anonymous', method: 'GET', path: '/v1/search?q=SOL', okStatus: 200 },
  { category: 'tokens', tier: 'anonymous', method: 'GET', path: '/v1/tokens', okStatus: 200 },
  { category: 'logo', tier: 'anonymous', method: 'GET', path: `/v1/tokens/${WALLETS[1]}/logo`, okStatus: 501 },
  { category: 'history', tier: 'free', method: 'GET', path: `/v1/history/balance?walletAddress=${WALLETS[0]}`, okStatus: 501 },
  // A stream request refused as malformed (nothing to stream): its answer ends (an open stream would hold the burst's read).
  { category: 'stream', tier: 'free', method: 'GET', path: '/v1/stream/accounts', okStatus: 400 },
  { category: 'send', tier: 'starter', method: 'POST', path: '/v1/send', okStatus: 400 },
  { category: 'webhooks', tier: 'free', method: 'POST', path: '/v1/webhooks', okStatus: 501 },
  { category: 'supply', tier: 'anonymous', method: 'GET', path: '/v1/venum/fdv', okStatus: 501 },
  { category: 'attestation', tier: 'anonymous', method: 'GET', path: '/v1/attestation/pubkey', okStatus: 200 },
  { category: 'balances', tier: 'free', method: 'GET', path: '/v1/balances', okStatus: 501 },
];

test('every rate-limit category has a burst below', () => {
  const covered = new Set(BURSTS.map((b) => b.category));
  assert.deepEqual(CATEGORIES.filter((c) => !covered.has(c)), []);
});

/** One burst: `allowed` requests pass with exact headers, the next two are refused; returns the key used. */
async function burst(b: Burst, key: string | null, windowEndS: number): Promise<void> {
  const limit = quotaOf(b.category, b.tier);
  const cost = b.cost ?? 1;
  const allowed = Math.floor(limit / cost);
  const what = `${b.category}/${b.tier}`;
  for (let i = 1; i <= allowed + 2; i++) {
    const s = await shoot(b.method, b.path, key);
    assert.equal(s.limit, limit, `${what}: X-RateLimit-Limit on answer ${i}`);
    assert.ok(Math.abs(s.reset - windowEndS) <= 1, `${what}: X-RateLimit-Reset ${s.reset} vs window end ${windowEndS}`);
    if (i <= allowed) {
      assert.equal(s.status, b.okStatus, `${what}: answer ${i}: ${JSON.stringify(s.body)}`);
      assert.equal(s.remaining, limit - i * cost, `${what}: X-RateLimit-Remaining on answer ${i}`);
    } else {
      assert.equal(s.status, 429, `${what}: answer ${i} must be refused`);
      assert.equal(s.remaining, limit - allowed * cost);
      assert.equal(s.body?.code, 'RATE_LIMITED');
      assert.equal(s.body?.limit, limit);
      assert.equal(s.body?.tier, b.tier);
      assert.equal(typeof s.body?.error, 'string');
      assert.equal(s.retryAfter, String(s.body?.retryAfterSeconds), `${what}: Retry-After equals retryAfterSeconds`);
      assert.ok(Number(s.retryAfter) >= 1 && Number(s.retryAfter) <= Math.ceil(WINDOW_MS / 1000));
    }
  }
}

test('a burst over every category quota: headers on every answer, 429 body, then the window resets', async () => {
  // Every burst uses its own bucket (category x key or IP), so they run side by side in one window.
  const keys = await Promise.all(BURSTS.map(async (b) => (b.tier === 'anonymous' ? null : (await sut.svc.keys.create({ tier: b.tier })).key)));
  await freshWindow();
  const t0 = Date.now();
  const windowEndS = Math.ceil((Math.ceil(t0 / WINDOW_MS) * WINDOW_MS) / 1000);
  await Promise.all(BURSTS.map((b, i) => burst(b, keys[i]!, windowEndS)));
  assert.ok(Date.now() - t0 < WINDOW_MS, `the bursts fitted in one window (${Date.now() - t0} ms)`);
  await freshWindow();
  for (const [i, b] of BURSTS.entries()) {
    const again = await shoot(b.method, b.path, keys[i]!);
    assert.equal(again.status, b.okStatus, `${b.category}/${b.tier} works again after the window reset`);
    assert.equal(again.remaining, quotaOf(b.category, b.tier) - (b.cost ?? 1));
  }
});

test('a portfolio batch costs one unit per wallet; a batch larger than what is left is refused whole', async () => {
  const key = (await sut.svc.keys.create({ tier: 'free' })).key; // 5 per window
  await freshWindow();
  const two = `/v1/portfolio/pnl?wallets=${WALLETS.join(',')}`;
  assert.equal((await shoot('GET', two, key)).remaining, 3);
  assert.equal((await shoot('GET', two, key)).remaining, 1);
  const refused = await shoot('GET', two, key);
  assert.equal(refused.status, 429);
  assert.equal(refused.remaining, 1, 'a refused batch consumes nothing');
  const one = await shoot('GET', `/v1/portfolio/value/${WALLETS[0]}`, key);
  assert.equal(one.status, 501);
  assert.equal(one.remaining, 0);
});

test('internal keys are unlimited and carry no rate-limit headers', async () => {
  const key = (await sut.svc.keys.create({ tier: 'internal' })).key;
  for (let i = 0; i < 15; i++) {
    const s = await shoot('POST', '/v1/swap/build', key);
    assert.equal(s.status, 400);
    assert.equal(s.limit, 0);
  }
});


async function waitUntil(cond: () => Promise<boolean>, ms: number): Promise<number> {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > ms) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - t0;
}

test('concurrent streams per key: over the limit is 429 at connect; killed clients give their slots back', async () => {
  for (const tier of ['free', 'pro'] as const) {
    const key = (await sut.svc.keys.create({ tier })).key;
    const n = streamSlotsOf(tier);
    const open: Socket[] = [];
    for (let i = 0; i < n; i++) {
      const s = await rawStream(sut.base, key);
      assert.equal(s.status, 200, `stream ${i + 1} of ${n}`);
      open.push(s.socket);
    }
    const over = await fetch(`${sut.base}/v1/stream/prices?tokens=SOL`, { headers: { 'x-api-key': key } });
    assert.equal(over.status, 429);
    const body = (await over.json()) as Record<string, unknown>;
    assert.equal(body.code, 'RATE_LIMITED');
    assert.equal(body.limit, n);
    assert.equal(over.headers.get('retry-after'), String(body.retryAfterSeconds));
    // Another stream route shares the count: also refused (429 before it would answer 501).
    assert.equal((await fetch(`${sut.base}/v1/stream/tx`, { headers: { 'x-api-key': key } })).status, 429);
    // Kill every client abruptly (RST, no FIN handshake).
    for (const s of open) s.resetAndDestroy();
    const ms = await waitUntil(async () => (await sut.svc.streamSlotsHeld(key)) === 0, 2000);
    assert.ok(ms < 2000);
    for (let i = 0; i < n; i++) {
      const s = await rawStream(sut.base, key);
      assert.equal(s.status, 200, `after the kill, stream ${i + 1} of ${n}`);
      s.socket.destroy();
    }
  }
});
