/**
 * POST and GET /v1/quote on the real service over the localnet (simulator paused): the answer's shape, its amounts
 * chained leg by leg, the quote id and its 30 s, the slippage bound, and every error path of the route.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { USDC_MINT, WSOL_MINT } from '../engine/catalog/tokens.js';
import { isQuoteId } from '../engine/quotes/quote-store.js';
import { startServiceUnderTest, TEST_DEMO_KEY, type ServiceUnderTest } from './testing/service-under-test.js';

let sut: ServiceUnderTest;
before(async () => {
  sut = await startServiceUnderTest();
});
after(async () => sut?.stop());

interface Hop {
  dex: string;
  poolAddress: string;
  inputMint: string;
  outputMint: string;
  inAmount: string;
  outAmount: string;
  feeAmount: string;
  feeMint: string;
  feeBps: number;
}
interface RouteBody {
  dex: string;
  poolAddress: string;
  inAmount: string;
  outputAmount: string;
  priceImpactBps: number;
  feeBps: number;
  poolCacheAgeMs: number;
  confidence: string;
  hops: Hop[];
}
interface QuoteBody {
  routes: RouteBody[];
  bestRoute: RouteBody;
  inputMint: string;
  outputMint: string;
  amount: string;
  slippageBps: number;
  poolsScanned: number;
  quoteId: string;
  expiresAt: number;
  swapMode: string;
  inAmount: string;
  outAmount: string;
  otherAmountThreshold: string;
  contextSlot: number;
  timeTakenMs: number;
  code?: string;
}

async function post(body: unknown, key: string | null = TEST_DEMO_KEY): Promise<{ status: number; body: QuoteBody }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers['x-api-key'] = key;
  const res = await fetch(`${sut.base}/v1/quote`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as QuoteBody };
}

function checkChained(q: QuoteBody, input: string, output: string): void {
  assert.ok(q.routes.length >= 1 && q.routes.length <= 5);
  assert.deepEqual(q.bestRoute, q.routes[0]);
  for (const r of q.routes) {
    assert.equal(r.hops[0]!.inputMint, input);
    assert.equal(r.hops.at(-1)!.outputMint, output);
    assert.equal(r.dex, r.hops[0]!.dex);
    assert.equal(r.poolAddress, r.hops[0]!.poolAddress);
    assert.equal(r.inAmount, r.hops[0]!.inAmount);
    assert.equal(r.outputAmount, r.hops.at(-1)!.outAmount);
    for (let i = 1; i < r.hops.length; i++) {
      assert.equal(r.hops[i]!.inputMint, r.hops[i - 1]!.outputMint, 'legs chain by mint');
      assert.ok(BigInt(r.hops[i]!.inAmount) <= BigInt(r.hops[i - 1]!.outAmount), 'a leg takes at most what the previous one delivered');
    }
    assert.ok(['confirmed', 'optimistic'].includes(r.confidence));
    assert.ok(r.poolCacheAgeMs >= 0);
  }
}

test('POST /v1/quote ExactIn: the spec frame plus the build fields, a quote id for 30 s, the slippage floor', async () => {
  const t0 = Date.now();
  const { status, body: q } = await post({ inputMint: 'SOL', outputMint: 'USDC', amount: '1000000000' });
  const t1 = Date.now();
  assert.equal(status, 200, JSON.stringify(q));
  checkChained(q, WSOL_MINT, USDC_MINT);
  assert.equal(q.inputMint, WSOL_MINT);
  assert.equal(q.outputMint, USDC_MINT);
  assert.deepEqual([q.amount, q.swapMode, q.slippageBps, q.inAmount, q.outAmount], ['1000000000', 'ExactIn', 50, '1000000000', q.bestRoute.outputAmount]);
  assert.ok(isQuoteId(q.quoteId), q.quoteId);
  assert.ok(q.expiresAt >= t0 + 30_000 && q.expiresAt <= t1 + 30_000, 'expiresAt is 30 s after issue');
  assert.equal(BigInt(q.otherAmountThreshold), (BigInt(q.outAmount) * 9950n) / 10_000n);
  assert.ok(q.poolsScanned > 0 && q.contextSlot > 0 && q.timeTakenMs >= 0);
  // Nothing trades on the paused localnet: GET with the same fields answers the same route and amounts.
  const g = await fetch(`${sut.base}/v1/quote?inputMint=SOL&outputMint=USDC&amount=1000000000`, { headers: { 'x-api-key': TEST_DEMO_KEY } });
  assert.equal(g.status, 200);
  const gq = (await g.json()) as QuoteBody;
  const ageless = (rs: RouteBody[]): unknown => rs.map(({ poolCacheAgeMs: _age, ...r }) => r);
  assert.deepEqual(ageless(gq.routes), ageless(q.routes));
  assert.notEqual(gq.quoteId, q.quoteId, 'every quote has its own id');
});

test('ExactOut delivers exactly the amount asked, and its bound is the most input', async () => {
  const { status, body: q } = await post({ inputMint: 'USDC', outputMint: 'SOL', amount: '250000000', swapMode: 'ExactOut', slippageBps: 100 });
  assert.equal(status, 200, JSON.stringify(q));
  checkChained(q, USDC_MINT, WSOL_MINT);
  assert.equal(q.outAmount, '250000000');
  assert.equal(BigInt(q.otherAmountThreshold), (BigInt(q.inAmount) * 10_100n + 9_999n) / 10_000n);
});

test('errors: 400 naming the field, 404 NO_ROUTE and EXCEEDED_SLIPPAGE with the mints echoed, 401 without a key', async () => {
  const missing = await post({ inputMint: 'SOL', outputMint: 'USDC' });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.code, 'INVALID_REQUEST');
  const never = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
  const none = await post({ inputMint: 'SOL', outputMint: never, amount: '1000' });
  assert.equal(none.status, 404);
  assert.deepEqual([none.body.code, none.body.inputMint, none.body.outputMint], ['NO_ROUTE', WSOL_MINT, never]);
  // A trade far larger than every pool: routes exist, and each moves the price past a 1 bps tolerance.
  const huge = await post({ inputMint: 'SOL', outputMint: 'USDC', amount: '100000000000000000', slippageBps: 1 });
  assert.equal(huge.status, 404, JSON.stringify(huge.body));
  assert.equal(huge.body.code, 'EXCEEDED_SLIPPAGE');
  assert.equal((await post({ inputMint: 'SOL', outputMint: 'USDC', amount: '1' }, null)).status, 401);
});

test('maxAccounts: a bound the routes fit changes nothing, one below every route is 404 NO_ROUTE, out of 8..256 is 400', async () => {
  const free = await post({ inputMint: 'SOL', outputMint: 'USDC', amount: '1000000000' });
  const wide = await post({ inputMint: 'SOL', outputMint: 'USDC', amount: '1000000000', maxAccounts: 256 });
  assert.equal(wide.status, 200, JSON.stringify(wide.body));
  const pools = (q: QuoteBody): string[][] => q.routes.map((r) => r.hops.map((h) => h.poolAddress));
  assert.deepEqual(pools(wide.body), pools(free.body));
  const tight = await post({ inputMint: 'SOL', outputMint: 'USDC', amount: '1000000000', maxAccounts: 8 });
  assert.equal(tight.status, 404, JSON.stringify(tight.body));
  assert.equal(tight.body.code, 'NO_ROUTE');
  for (const bad of [7, 257, 'x']) {
    const r = await post({ inputMint: 'SOL', outputMint: 'USDC', amount: '1000000000', maxAccounts: bad });
    assert.deepEqual([r.status, r.body.code], [400, 'INVALID_REQUEST']);
  }
  const g = await fetch(`${sut.base}/v1/quote?inputMint=SOL&outputMint=USDC&amount=1000000000&maxAccounts=300`, { headers: { 'x-api-key': TEST_DEMO_KEY } });
  assert.equal(g.status, 400);
  assert.equal(((await g.json()) as QuoteBody).code, 'INVALID_REQUEST');
});
