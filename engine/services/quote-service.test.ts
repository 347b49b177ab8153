import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { StoredQuote, QuoteStore } from '../quotes/quote-store.js';
import type { RouteAnswer, RouteWire } from '../router/route-wire.js';
import { QuoteService, type QuoteInput, type RouteAsk } from './quote-service.js';

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

const INPUT: QuoteInput = {
  inputMint: SOL, outputMint: USDC, amount: 1_000_000_000n, swapMode: 'ExactIn', slippageBps: 50, maxHops: 3,
  onlyDirectRoutes: false, dexes: [], excludeDexes: [], restrictIntermediateTokens: true,
};

const ROUTE: RouteWire = {
  hops: [{ dex: 'raydium-cpmm', poolAddress: 'pool', inputMint: SOL, outputMint: USDC, inAmount: 1_000_000_000n, outAmount: 150_000_000n, feeAmount: 2_500_000n, feeMint: SOL, feeBps: 25 }],
  inAmount: 1_000_000_000n, outAmount: 150_000_000n, priceImpactBps: 1, feeBps: 25, poolCacheAgeMs: 3, confirmed: true,
};

/** A store that records what it is given. */
function recordingStore(): QuoteStore & { puts: StoredQuote[] } {
  const puts: StoredQuote[] = [];
  return { puts, put: async (q) => void puts.push(q), take: async () => ({ status: 'not-found' }), close: async () => undefined };
}

/** A route dependency answering `answer` once `release` is called, recording each ask and signal. */
function gatedRoute(answer: RouteAnswer): { route: (t: RouteAsk, s?: AbortSignal) => Promise<RouteAnswer>; asks: RouteAsk[]; signals: (AbortSignal | undefined)[]; release: () => void } {
  const asks: RouteAsk[] = [];
  const signals: (AbortSignal | undefined)[] = [];
  let release = (): void => undefined;
  const gate = new Promise<void>((r) => (release = r));
  return { asks, signals, release: () => release(), route: async (t, s) => { asks.push(t); signals.push(s); await gate; return answer; } };
}

test('a quote asks the route search with maxAccounts and the signal, and stores the quote it answers', async () => {
  const store = recordingStore();
  const dep = gatedRoute({ ok: true, routes: [ROUTE], contextSlot: 7n });
  const svc = new QuoteService({ route: dep.route, store, poolCount: () => 1 });
  const signal = new AbortController().signal;
  dep.release();
  const out = await svc.quote({ ...INPUT, maxAccounts: 40 }, signal);
  assert.ok(out.ok);
  assert.equal(dep.asks[0]!.maxAccounts, 40);
  assert.equal(dep.signals[0], signal);
  assert.equal(store.puts.length, 1);
  // No bound: the ask carries none.
  await svc.quote({ ...INPUT, maxAccounts: null });
  assert.equal(dep.asks[1]!.maxAccounts, undefined);
});

test('an abandoned quote is CANCELLED and stores nothing: aborted before, during the search, or answered CANCELLED', async () => {
  const store = recordingStore();
  const never = gatedRoute({ ok: true, routes: [ROUTE], contextSlot: 7n });
  const svc = new QuoteService({ route: never.route, store, poolCount: () => 1 });
  // Aborted before: the route search is never asked.
  const before = new AbortController();
  before.abort();
  const a = await svc.quote(INPUT, before.signal);
  assert.deepEqual([a.ok, !a.ok && a.code, never.asks.length], [false, 'CANCELLED', 0]);
  // Aborted while the search runs, which then answers with a route: the answer is discarded.
  const during = new AbortController();
  const pending = svc.quote(INPUT, during.signal);
  during.abort();
  never.release();
  const b = await pending;
  assert.deepEqual([b.ok, !b.ok && b.code], [false, 'CANCELLED']);
  // The worker said CANCELLED.
  const said = new QuoteService({ route: async () => ({ ok: false, code: 'CANCELLED', message: 'x', contextSlot: 1n }), store, poolCount: () => 1 });
  const c = await said.quote(INPUT, new AbortController().signal);
  assert.deepEqual([c.ok, !c.ok && c.code], [false, 'CANCELLED']);
  assert.equal(store.puts.length, 0, 'no quote stored for an abandoned request');
});
