/**
 * Properties of the pump.fun adapter's quote and float estimates, with fast-check bounded by time (each property
 * runs for TIME_MS or MAX_RUNS, whichever comes first). `aToB` sells, `!aToB` buys.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { type RecordF64 } from '../types.js';
import { pumpfunAdapter as adapter } from './adapter.js';
import { U64_MAX } from './math.js';
import { PUMPFUN_STATUS_OK, type PumpfunState } from './state.js';
import { floatRecordOf } from '../testing/record-helpers.js';

const TIME_MS = 600;
const opts = { interruptAfterTimeLimit: TIME_MS, numRuns: 1_000_000 };
const INITIAL_K = 1_073_000_000_000_000n * 30_000_000_000n;

/** Mainnet-shaped curves (any progress) and odd ones (real < virtual, magnitudes up to 2^62). */
function stateArb(maxBits: bigint): fc.Arbitrary<PumpfunState> {
  const fees = fc.record({
    protocolFeeBps: fc.oneof(fc.constantFrom(0n, 5n, 93n, 95n), fc.bigInt({ min: 0n, max: 2000n })),
    creatorFeeBps: fc.oneof(fc.constantFrom(0n, 30n, 95n), fc.bigInt({ min: 0n, max: 1000n })),
  });
  const mainnet = fc.bigInt({ min: 0n, max: 793_100_000_000_000n - 1n }).map((sold) => {
    const vT = 1_073_000_000_000_000n - sold;
    const vQ = (INITIAL_K + vT - 1n) / vT;
    return { virtualTokenReserves: vT, virtualQuoteReserves: vQ, realTokenReserves: 793_100_000_000_000n - sold, realQuoteReserves: vQ - 30_000_000_000n };
  });
  const odd = fc.tuple(fc.bigInt({ min: 2n, max: 1n << maxBits }), fc.bigInt({ min: 1n, max: 1n << maxBits }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }))
    .map(([vT, vQ, a, b]) => ({
      virtualTokenReserves: vT, virtualQuoteReserves: vQ,
      realTokenReserves: 1n + BigInt(Math.floor(a * Number(vT - 1n))) >= vT ? vT - 1n : 1n + BigInt(Math.floor(a * Number(vT - 1n))),
      realQuoteReserves: BigInt(Math.floor(b * Number(vQ))),
    }));
  return fc.tuple(fc.oneof({ weight: 3, arbitrary: mainnet }, { weight: 1, arbitrary: odd }), fees)
    .map(([r, f]) => ({ status: PUMPFUN_STATUS_OK, ...r, ...f }));
}

const anyState = stateArb(62n);
const amountArb = fc.oneof(fc.bigInt({ min: 1n, max: 1000n }), fc.bigInt({ min: 1n, max: 1n << 40n }), fc.bigInt({ min: 1n, max: 1n << 50n }), fc.bigInt({ min: 1n, max: U64_MAX }));

const floatRecord = (s: PumpfunState): RecordF64 => floatRecordOf(adapter, s);

const outOf = (s: PumpfunState, aToB: boolean, a: bigint): bigint => {
  const q = adapter.quote(s, aToB, a, 'ExactIn');
  return q.status === 'OK' ? q.outAmount : 0n;
};

test('output never exceeds what the curve can pay; amounts are never negative', () => {
  fc.assert(fc.property(anyState, fc.boolean(), amountArb, fc.constantFrom('ExactIn' as const, 'ExactOut' as const), (s, aToB, amount, mode) => {
    const q = adapter.quote(s, aToB, amount, mode);
    assert.ok(q.inAmount >= 0n && q.outAmount >= 0n && q.feeAmount >= 0n);
    if (q.status !== 'OK') return;
    assert.ok(q.outAmount > 0n && q.inAmount > 0n && q.inAmount <= U64_MAX);
    if (aToB) {
      assert.ok(q.outAmount + q.feeAmount <= s.realQuoteReserves, 'a sell is paid from the real SOL reserves');
      if (mode === 'ExactIn') assert.equal(q.inAmount, amount);
      else assert.ok(q.outAmount >= amount);
    } else {
      assert.ok(q.outAmount <= s.realTokenReserves, 'a buy is capped at the real token reserves');
      if (mode === 'ExactIn') assert.ok(q.inAmount <= amount, 'buy_exact_sol_in never spends more than the budget');
      else assert.ok(q.outAmount <= amount);
    }
  }), opts);
});

test('monotonic: buys in both modes and sell exact-out; a sell exact-in dips by at most one atom (fee ceilings)', () => {
  fc.assert(fc.property(anyState, fc.boolean(), amountArb, amountArb, (s, aToB, x, y) => {
    const [a, b] = x <= y ? [x, y] : [y, x];
    const [ia, ib] = [adapter.quote(s, aToB, a, 'ExactIn'), adapter.quote(s, aToB, b, 'ExactIn')];
    // A larger sell can fail where a smaller one passes (the real SOL reserves): compare tradable pairs.
    if (ia.status === 'OK' && ib.status === 'OK') assert.ok(ia.outAmount <= ib.outAmount + (aToB ? 1n : 0n));
    if (!aToB && ib.status !== 'OK') assert.notEqual(ia.status === 'OK' && ib.status === 'ZERO_AMOUNT', true);
    const qa = adapter.quote(s, aToB, a, 'ExactOut');
    const qb = adapter.quote(s, aToB, b, 'ExactOut');
    if (qb.status === 'OK' && qa.status === 'OK') assert.ok(qa.inAmount <= qb.inAmount);
  }), opts);
});

test('exact-in then exact-out round trip', () => {
  fc.assert(fc.property(anyState, fc.boolean(), amountArb, (s, aToB, a) => {
    const q1 = adapter.quote(s, aToB, a, 'ExactIn');
    fc.pre(q1.status === 'OK');
    const q2 = adapter.quote(s, aToB, q1.outAmount, 'ExactOut');
    assert.equal(q2.status, 'OK');
    assert.ok(q2.inAmount <= q1.inAmount, `exact-out asks ${q2.inAmount} > ${q1.inAmount}`);
    if (aToB) {
      // The smallest input reaching the output: at least the request, at most one atom more (fee ceilings).
      assert.ok(q2.outAmount >= q1.outAmount && q2.outAmount <= q1.outAmount + 1n);
      assert.equal(outOf(s, true, q2.inAmount), q2.outAmount);
    } else {
      // A buy charges the cost of the tokens: both modes debit the same.
      assert.equal(q2.inAmount, q1.inAmount);
      assert.equal(q2.outAmount, q1.outAmount);
    }
  }), opts);
});

test('estimateOut is within 1e-9 relative of the exact quote on non-degenerate states', () => {
  // Non-degenerate: reserves <= 2^53, a budget <= 2^53 / 1e4 (the fee step exact in f64), an exact output of at
  // least 1e9 atoms (one atom of float rounding in a floor is then <= 1e-9).
  let checked = 0;
  fc.assert(fc.property(stateArb(53n), fc.boolean(), fc.bigInt({ min: 1n, max: (1n << 53n) / 10_000n }), (s, aToB, a) => {
    const exact = outOf(s, aToB, a);
    fc.pre(exact >= 1_000_000_000n);
    checked++;
    const est = adapter.estimateOut(floatRecord(s), aToB, Number(a));
    const rel = Math.abs(est - Number(exact)) / Number(exact);
    assert.ok(rel <= 1e-9, `estimate ${est} exact ${exact} rel ${rel}`);
  }), opts);
  assert.ok(checked > 100, `only ${checked} non-degenerate cases`);
});

test('marginalRate, estimateOut and feeBps are finite and non-negative everywhere', () => {
  fc.assert(fc.property(anyState, fc.boolean(), fc.double({ min: 0, max: 1e30, noNaN: true }), fc.integer({ min: 0, max: 4 }), (s, aToB, x, status) => {
    const rec = floatRecord({ ...s, status });
    const m = adapter.marginalRate(rec, aToB);
    const e = adapter.estimateOut(rec, aToB, x);
    const fee = adapter.feeBps(rec);
    for (const v of [m, e, fee]) assert.ok(Number.isFinite(v) && v >= 0, `value ${v}`);
    if (status !== PUMPFUN_STATUS_OK) assert.ok(m === 0 && e === 0);
    assert.ok(aToB ? e <= rec.reserveB : e <= rec.reserveA);
  }), opts);
});
