import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DexAdapter } from '../adapters/types.js';
import { SeededRandom } from '../adapters/testing/seeded-random.js';
import { RouteSearcher } from './route-search.js';
import type { PoolSideSource } from './pool-side.js';
import { addPool, emptyUniverse, randomState, UNIVERSE_NOW_MS, type Universe } from './testing/random-universe.js';

/** A CPMM state with plain reserves and a 0.25% fee. */
function cpmm(r: bigint): unknown {
  return {
    status: 0, reserve0: r, reserve1: r, vault0: r, vault1: r,
    rates: { tradeFeeRate: 2500n, creatorFeeRate: 0n, protocolFeeRate: 0n, fundFeeRate: 0n },
    creatorFeeOn: 0, openTime: 0n, poolStatusBits: 0, transferFee0: null, transferFee1: null, transferFeeChanges: false,
  };
}

/** The universe's source with `dex`'s adapter given other capability flags (its quotes unchanged). */
function withFlags(u: Universe, dex: string, flags: Partial<DexAdapter>): PoolSideSource {
  return { ...u.src, adapters: u.src.adapters.map((a) => (a?.dex === dex ? { ...a, ...flags } : a)) };
}

test('ExactOut skips a leg whose adapter declares no exact-out, although its quote would deliver exactly', () => {
  const rng = new SeededRandom(7);
  const u = emptyUniverse(rng, 3);
  const [a, b] = [u.mints[0]!, u.mints[1]!];
  const pool = addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 15n), a, b);
  const req = { inputMint: a, outputMint: b, amount: 10n ** 6n, nowMs: UNIVERSE_NOW_MS };
  const real = new RouteSearcher(u.src);
  const out = real.search({ ...req, mode: 'ExactOut' });
  assert.ok(out.ok && out.routes[0]!.hops[0]!.pool === pool.pool && out.routes[0]!.outAmount === req.amount, 'CPMM quotes exact-out exactly');
  const flagged = new RouteSearcher(withFlags(u, 'raydium-cpmm', { exactOut: false, exactOutBToA: false }));
  const skipped = flagged.search({ ...req, mode: 'ExactOut' });
  assert.equal(skipped.ok ? 'ok' : skipped.code, 'NO_ROUTE');
  assert.ok(flagged.search({ ...req, mode: 'ExactIn' }).ok, 'ExactIn ignores the flag');
  // exactOutBToA alone: B -> A is admitted, A -> B is not.
  const oneWay = new RouteSearcher(withFlags(u, 'raydium-cpmm', { exactOut: false, exactOutBToA: true }));
  assert.ok(oneWay.search({ ...req, inputMint: b, outputMint: a, mode: 'ExactOut' }).ok);
  assert.equal((oneWay.search({ ...req, mode: 'ExactOut' }) as { code?: string }).code, 'NO_ROUTE');
  // An adapter that states no flag at all gets the safe default: no exact-out.
  const { exactOut: _e, exactOutBToA: _b, ...bare } = u.src.adapters.find((x) => x?.dex === 'raydium-cpmm')!;
  const unflagged = new RouteSearcher({ ...u.src, adapters: u.src.adapters.map((x) => (x?.dex === 'raydium-cpmm' ? (bare as DexAdapter) : x)) });
  assert.equal((unflagged.search({ ...req, mode: 'ExactOut' }) as { code?: string }).code, 'NO_ROUTE');
});

test('a PumpSwap sell is never an ExactOut leg, even where its inverted quote lands exactly; its buy is', () => {
  const rng = new SeededRandom(13);
  let found: { state: unknown; amount: bigint } | null = null;
  for (let i = 0; i < 10_000 && found === null; i++) {
    const state = randomState(rng, 'pumpswap');
    const u0 = emptyUniverse(rng, 2, false);
    const p = addPool(u0, rng, 'pumpswap', state, u0.mints[0]!, u0.mints[1]!);
    const amount = 10n ** BigInt(rng.int(9)) * rng.range(1n, 9n);
    const q = p.adapter.quote(p.adapter.fromRecord(p.fields), true, amount, 'ExactOut');
    const buy = p.adapter.quote(p.adapter.fromRecord(p.fields), false, amount, 'ExactOut');
    if (q.status === 'OK' && q.outAmount === amount && buy.status === 'OK' && buy.outAmount === amount) found = { state, amount };
  }
  assert.ok(found !== null, 'no PumpSwap state whose exact-out sell lands exactly');
  const u = emptyUniverse(rng, 3);
  const [base, quote] = [u.mints[0]!, u.mints[1]!];
  const pool = addPool(u, rng, 'pumpswap', found.state, base, quote);
  const s = new RouteSearcher(u.src);
  const sell = s.search({ inputMint: base, outputMint: quote, amount: found.amount, mode: 'ExactOut', nowMs: UNIVERSE_NOW_MS });
  assert.equal(sell.ok ? 'ok' : sell.code, 'NO_ROUTE');
  const buy = s.search({ inputMint: quote, outputMint: base, amount: found.amount, mode: 'ExactOut', nowMs: UNIVERSE_NOW_MS });
  assert.ok(buy.ok && buy.routes[0]!.hops[0]!.pool === pool.pool);
});

test('a unidirectional adapter offers A -> B legs only, in both modes', () => {
  const rng = new SeededRandom(17);
  const u = emptyUniverse(rng, 3);
  const [a, b] = [u.mints[0]!, u.mints[1]!];
  addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 15n), a, b);
  const s = new RouteSearcher(withFlags(u, 'raydium-cpmm', { unidirectional: true }));
  for (const mode of ['ExactIn', 'ExactOut'] as const) {
    assert.ok(s.search({ inputMint: a, outputMint: b, amount: 10n ** 6n, mode, nowMs: UNIVERSE_NOW_MS }).ok, `${mode} A -> B`);
    const back = s.search({ inputMint: b, outputMint: a, amount: 10n ** 6n, mode, nowMs: UNIVERSE_NOW_MS });
    assert.equal(back.ok ? 'ok' : back.code, 'NO_ROUTE', `${mode} B -> A`);
  }
});
