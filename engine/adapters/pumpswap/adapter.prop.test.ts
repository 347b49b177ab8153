/**
 * Properties of the PumpSwap adapter's quote and float estimates, with fast-check bounded by time.
 * Monotonicity holds up to the program's rounding: every fee component is its own ceiling, so a sell's net
 * output can dip by up to 2 atoms as the input grows, and buy_exact_quote_in's fee-net budget likewise
 * (with each rate <= 3333 bps, 3 more atoms of budget always buy at least as much).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { type RecordF64 } from '../types.js';
import { pumpswapAdapter as adapter } from './adapter.js';
import { U64_MAX } from './math.js';
import { PUMPSWAP_STATUS_OK, type PumpswapState } from './state.js';
import { exactOutOf, floatRecordOf } from '../testing/record-helpers.js';

const TIME_MS = 450;
const opts = { interruptAfterTimeLimit: TIME_MS, numRuns: 1_000_000 };

const reserveArb = fc.oneof(
  { weight: 1, arbitrary: fc.bigInt({ min: 1n, max: 1000n }) },
  { weight: 4, arbitrary: fc.bigInt({ min: 1000n, max: 1n << 53n }) },
  { weight: 1, arbitrary: fc.bigInt({ min: 1n << 53n, max: 1n << 62n }) },
);
const bpsArb = fc.oneof(fc.constantFrom(0n, 2n, 5n, 20n, 25n, 93n, 95n), fc.bigInt({ min: 0n, max: 3333n }));

function stateArb(reserve: fc.Arbitrary<bigint>): fc.Arbitrary<PumpswapState> {
  return fc.record({ b: reserve, q: reserve, v: fc.integer({ min: 0, max: 3 }), lp: bpsArb, p: bpsArb, c: bpsArb }).map(({ b, q, v, lp, p, c }) => ({
    status: PUMPSWAP_STATUS_OK,
    baseReserve: b,
    quoteReserve: q,
    // The real vault: equal to the effective reserve, or below it (boosted pool), or above it (fees waiting).
    quoteVault: v === 0 ? q : v === 1 ? q / 2n + 1n : v === 2 ? q + q / 3n : q,
    fees: { lpFeeBps: lp, protocolFeeBps: p, creatorFeeBps: c },
    disableFlags: 0,
    schedule: 1,
    tierIndex: 0,
  }));
}
const anyState = stateArb(reserveArb);
const amountArb = fc.oneof(fc.bigInt({ min: 1n, max: 1000n }), fc.bigInt({ min: 1n, max: 1n << 40n }), fc.bigInt({ min: 1n, max: U64_MAX }));
const modeArb = fc.constantFrom('ExactIn' as const, 'ExactOut' as const);

const floatRecord = (state: PumpswapState): RecordF64 => floatRecordOf(adapter, state);

const outOf = (s: PumpswapState, aToB: boolean, amount: bigint): bigint => exactOutOf(adapter, s, aToB, amount);

test('output never exceeds what the pool can pay; amounts are never negative', () => {
  fc.assert(fc.property(anyState, fc.boolean(), amountArb, modeArb, (s, aToB, amount, mode) => {
    const q = adapter.quote(s, aToB, amount, mode);
    assert.ok(q.inAmount >= 0n && q.outAmount >= 0n && q.feeAmount >= 0n);
    if (q.status !== 'OK') return;
    assert.ok(q.outAmount > 0n && q.inAmount > 0n && q.inAmount <= U64_MAX);
    if (aToB) assert.ok(q.outAmount <= s.quoteVault, `sell pays ${q.outAmount} from a vault of ${s.quoteVault}`);
    else assert.ok(q.outAmount < s.baseReserve);
    if (mode === 'ExactIn') assert.ok(aToB ? q.inAmount === amount : q.inAmount <= amount);
    else assert.ok(aToB ? q.outAmount >= amount : q.outAmount === amount);
  }), opts);
});

test('monotonic in the input (up to the per-fee rounding), exact-out inputs monotonic in the output', () => {
  fc.assert(fc.property(anyState, fc.boolean(), amountArb, amountArb, (s, aToB, x, y) => {
    const [a, b] = x <= y ? [x, y] : [y, x];
    // Inputs the input vault could not hold (a u64 overflow fails the transfer) are out of scope.
    fc.pre(b + 3n + (aToB ? s.baseReserve : s.quoteVault) <= U64_MAX);
    // So is a sell the real quote vault cannot pay (boosted pools: the program fails it, a smaller one passes).
    fc.pre(adapter.quote(s, aToB, aToB ? b : b + 3n, 'ExactIn').status !== 'INSUFFICIENT_LIQUIDITY');
    if (aToB) assert.ok(outOf(s, true, a) <= outOf(s, true, b) + 2n, 'sell output');
    else assert.ok(b + 3n > U64_MAX || outOf(s, false, a) <= outOf(s, false, b + 3n), 'buy output');
    const qa = adapter.quote(s, aToB, a, 'ExactOut');
    const qb = adapter.quote(s, aToB, b, 'ExactOut');
    if (qb.status === 'OK') {
      assert.equal(qa.status, 'OK');
      assert.ok(qa.inAmount <= qb.inAmount);
    }
  }), opts);
});

test('exact-in then exact-out round trip', () => {
  fc.assert(fc.property(anyState, fc.boolean(), amountArb, (s, aToB, a) => {
    const q1 = adapter.quote(s, aToB, a, 'ExactIn');
    fc.pre(q1.status === 'OK');
    const q2 = adapter.quote(s, aToB, q1.outAmount, 'ExactOut');
    assert.equal(q2.status, 'OK');
    assert.ok(q2.inAmount <= q1.inAmount, `exact-out asks ${q2.inAmount} > ${q1.inAmount}`);
    // A buy charges what `buy` of its base costs: the same to the atom. A sell's exact-out input is minimal.
    if (!aToB) assert.equal(q2.inAmount, q1.inAmount);
    else {
      assert.ok(q2.outAmount >= q1.outAmount);
      if (q2.inAmount > 1n) assert.ok(outOf(s, true, q2.inAmount - 1n) < q1.outAmount, 'one atom less does not pay');
    }
  }), opts);
});

test('estimateOut is within 1e-9 relative of the exact quote on non-degenerate states', () => {
  let checked = 0;
  fc.assert(fc.property(stateArb(fc.bigInt({ min: 1_000_000n, max: 1n << 53n })), fc.boolean(), fc.bigInt({ min: 1n, max: 1n << 40n }), (s, aToB, a) => {
    const exact = outOf(s, aToB, a);
    fc.pre(exact >= 1_000_000n);
    checked++;
    const est = adapter.estimateOut(floatRecord(s), aToB, Number(a));
    const rel = Math.abs(est - Number(exact)) / Number(exact);
    assert.ok(rel <= 1e-9, `estimate ${est} exact ${exact} rel ${rel}`);
  }), opts);
  assert.ok(checked > 50, `only ${checked} non-degenerate cases`);
});

test('marginalRate, estimateOut and feeBps are finite and non-negative everywhere', () => {
  fc.assert(fc.property(anyState, fc.boolean(), fc.double({ min: 0, max: 1e30, noNaN: true }), fc.integer({ min: 0, max: 3 }), (s, aToB, x, status) => {
    const rec = floatRecord({ ...s, status });
    const m = adapter.marginalRate(rec, aToB);
    const e = adapter.estimateOut(rec, aToB, x);
    for (const v of [m, e, adapter.feeBps(rec)]) assert.ok(Number.isFinite(v) && v >= 0, `value ${v}`);
    if (status !== PUMPSWAP_STATUS_OK) assert.ok(m === 0 && e === 0);
    assert.ok(e <= (aToB ? rec.f64[3]! : rec.reserveA), `estimate ${e} beyond what the pool holds`);
    assert.ok(e <= m * x * (1 + 1e-9) + 1e-6, `estimate ${e} above marginal ${m} x ${x}`);
  }), opts);
});
