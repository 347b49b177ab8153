/**
 * Properties of the LaunchLab adapter's quote and float estimates, with fast-check bounded by time. States come
 * from the seeded generator (launch parameters as the program sets them, any point of the curve, all three
 * curves), indexed by a fast-check integer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { type RecordF64, type SwapMode } from '../types.js';
import { raydiumLaunchlabAdapter as adapter } from './adapter.js';
import { Q64, ceilDivSdk } from './curves.js';
import { FEE_RATE_DENOMINATOR, type LaunchlabSwap, U64_MAX, totalFeeRate } from './math.js';
import { randomLaunchlabStates } from './testing/random-states.js';
import { LAUNCHLAB_STATUS_OK, type LaunchlabState } from './state.js';
import { exactOutOf, floatRecordOf } from '../testing/record-helpers.js';

const TIME_MS = 600;
const opts = { interruptAfterTimeLimit: TIME_MS, numRuns: 1_000_000 };

const stateArb: fc.Arbitrary<LaunchlabState> = fc
  .tuple(fc.integer({ min: 0, max: 1 << 30 }), fc.constantFrom(0, 1, 2))
  .map(([seed, curve]) => ({ ...randomLaunchlabStates(seed, 1, curve)[0]!, status: 0, poolStatus: 0, vaultB: 0n })).map((s) => ({ ...s, vaultB: s.realB }));
const amountArb = fc.oneof(fc.bigInt({ min: 1n, max: 1000n }), fc.bigInt({ min: 1n, max: 1n << 40n }), fc.bigInt({ min: 1n, max: 1n << 56n }), fc.bigInt({ min: 1n, max: U64_MAX }));
const modeArb = fc.constantFrom<SwapMode>('ExactIn', 'ExactOut');

const floatRecord = (state: LaunchlabState): RecordF64 => floatRecordOf(adapter, state);

const outOf = (s: LaunchlabState, aToB: boolean, amountIn: bigint): bigint => exactOutOf(adapter, s, aToB, amountIn);

test('output never exceeds what the pool can pay; amounts never negative; exact amounts respected', () => {
  fc.assert(fc.property(stateArb, fc.boolean(), amountArb, modeArb, (s, aToB, amount, mode) => {
    const q = adapter.quote(s, aToB, amount, mode);
    assert.ok(q.inAmount >= 0n && q.outAmount >= 0n && q.feeAmount >= 0n);
    if (q.status !== 'OK') return;
    assert.ok(q.inAmount > 0n && q.inAmount <= U64_MAX && q.outAmount > 0n);
    // A buy pays out at most what is left on the curve; a sell at most real_b (fees included).
    if (aToB) assert.ok(q.outAmount + q.feeAmount <= s.realB && q.inAmount <= s.realA);
    else assert.ok(q.outAmount <= s.totalSellA - s.realA);
    if (mode === 'ExactIn') assert.ok(aToB ? q.inAmount === amount : q.inAmount <= amount, 'a capped buy pays at most the amount');
    else assert.ok(aToB ? q.outAmount === amount : q.outAmount <= amount, 'a buy beyond the cap gets the remainder');
  }), opts);
});

test('exact-in output is monotonic in the input; exact-out input is monotonic in the output', () => {
  fc.assert(fc.property(stateArb, fc.boolean(), amountArb, amountArb, (s, aToB, x, y) => {
    const [a, b] = x <= y ? [x, y] : [y, x];
    const qa = adapter.quote(s, aToB, a, 'ExactIn');
    const qb = adapter.quote(s, aToB, b, 'ExactIn');
    if (qa.status === 'OK' && qb.status === 'OK') assert.ok(qa.outAmount <= qb.outAmount);
    const oa = adapter.quote(s, aToB, a, 'ExactOut');
    const ob = adapter.quote(s, aToB, b, 'ExactOut');
    if (oa.status === 'OK' && ob.status === 'OK') assert.ok(oa.inAmount <= ob.inAmount);
  }), opts);
});

test('exact-in then exact-out round trip within one atom', () => {
  fc.assert(fc.property(stateArb, fc.boolean(), amountArb, (s, aToB, a) => {
    fc.pre(totalFeeRate(s.rates) < FEE_RATE_DENOMINATOR);
    // On the linear curve a real_b surplus above the curve (accrued rounding) is paid to the first atoms sold, so
    // that B costs no A exact-out: the round trip is a property of states on the curve (within one atom for buys;
    // exactly on it for sells, where even a one-atom surplus pays a first atom of A that is worth far less than an
    // atom of B at low prices, and exact-out must then sell the A that B is really worth).
    if (s.curveType === 2) fc.pre(s.realB - (ceilDivSdk(s.virtualA * s.realA * s.realA, 2n * Q64) ?? 0n) <= (aToB ? 0n : 1n));
    const q1 = adapter.quote(s, aToB, a, 'ExactIn');
    fc.pre(q1.status === 'OK');
    const q2 = adapter.quote(s, aToB, q1.outAmount, 'ExactOut') as LaunchlabSwap;
    const q1c = q1 as LaunchlabSwap;
    if (s.curveType === 2 && !aToB) {
      // The SDK's half-up square root can hand an exact-in buy up to one atom of A more than its B pays for on
      // the curve: exact-out of that A costs at most one more atom of A (at the end price) plus one atom of B,
      // or nothing at all when the rounding alone delivered it (ZERO_AMOUNT).
      if (q2.status !== 'OK') { assert.equal(q2.status, 'ZERO_AMOUNT'); return; }
      const atomPrice = (s.virtualA * (s.realA + q1.outAmount)) / Q64 + 1n;
      assert.ok(q2.curveB <= q1c.curveB + atomPrice + 1n, `curve B ${q2.curveB} > ${q1c.curveB} + ${atomPrice} + 1`);
      return;
    }
    // The linear curve's half-up square root can also make a sell's exact-out of a tiny B need no A at all (the
    // SDK's rounding, which the adapter follows): nothing to round-trip then.
    if (s.curveType === 2 && aToB && q2.status === 'ZERO_AMOUNT') return;
    assert.equal(q2.status, 'OK', `exact-out of ${q1.outAmount}`);
    assert.equal(q2.outAmount, q1.outAmount);
    assert.ok(q2.inAmount <= q1.inAmount + 1n, `exact-out asks ${q2.inAmount} > ${q1.inAmount} + 1`);
    // One atom more than exact-out asks buys at least the output (the linear curve's two roundings differ).
    assert.ok(outOf(s, aToB, q2.inAmount + 1n) >= q1.outAmount);
  }), opts);
});

test('estimateOut is within 1e-9 relative of the exact quote on non-degenerate states', () => {
  // Non-degenerate: pool amounts and input exactly representable (<= 2^53), an exact output of at least 1e9
  // atoms (the linear curve's float square root is good to a fraction of an atom, so one atom must be <= 1e-9),
  // and a fee rate below 100%.
  let checked = 0;
  fc.assert(fc.property(stateArb, fc.boolean(), fc.bigInt({ min: 1n, max: 1n << 53n }), (s, aToB, a) => {
    fc.pre(s.virtualA < 2n ** 53n && s.virtualB < 2n ** 53n && s.realB < 2n ** 53n && s.totalSellA < 2n ** 53n);
    fc.pre(totalFeeRate(s.rates) < FEE_RATE_DENOMINATOR);
    const exact = outOf(s, aToB, a);
    fc.pre(exact >= 1_000_000_000n);
    checked++;
    const est = adapter.estimateOut(floatRecord(s), aToB, Number(a));
    const rel = Math.abs(est - Number(exact)) / Number(exact);
    assert.ok(rel <= 1e-9, `curve ${s.curveType} aToB ${aToB} estimate ${est} exact ${exact} rel ${rel}`);
  }), opts);
  assert.ok(checked > 100, `only ${checked} non-degenerate cases`);
});

test('marginalRate, estimateOut and feeBps are finite and non-negative everywhere', () => {
  fc.assert(fc.property(stateArb, fc.boolean(), fc.double({ min: 0, max: 1e30, noNaN: true }), fc.integer({ min: 0, max: 6 }), (s, aToB, x, status) => {
    const rec = floatRecord({ ...s, status });
    const m = adapter.marginalRate(rec, aToB);
    const e = adapter.estimateOut(rec, aToB, x);
    for (const v of [m, e, adapter.feeBps(rec)]) assert.ok(Number.isFinite(v) && v >= 0, `value ${v}`);
    if (status !== LAUNCHLAB_STATUS_OK) assert.ok(m === 0 && e === 0);
    // Above 2^53 the float record words round: allow their ulp.
    const slack = 4 * Number(s.totalSellA > s.realB ? s.totalSellA : s.realB) * 2 ** -52;
    if (!aToB) assert.ok(e <= Number(s.totalSellA - s.realA) + slack, `estimate ${e}`);
    else assert.ok(e <= Number(s.realB) + slack, `estimate ${e}`);
  }), opts);
});
