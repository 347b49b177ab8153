/**
 * Properties of the AMM v4 adapter's quote and float estimates, with fast-check bounded by time (each property
 * runs for TIME_MS or MAX_RUNS, whichever comes first).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { type RecordF64 } from '../types.js';
import { raydiumAmmV4Adapter as adapter } from './adapter.js';
import { U64_MAX } from './math.js';
import { AMM_V4_STATUS_OK, type AmmV4State } from './state.js';
import { exactOutOf, floatRecordOf } from '../testing/record-helpers.js';

const TIME_MS = 2000;
const MAX_RUNS = 1_000_000;
const opts = { interruptAfterTimeLimit: TIME_MS, numRuns: MAX_RUNS };

const reserveArb = fc.oneof(
  { weight: 1, arbitrary: fc.bigInt({ min: 1n, max: 1000n }) },
  { weight: 4, arbitrary: fc.bigInt({ min: 1000n, max: 1n << 53n }) },
  { weight: 1, arbitrary: fc.bigInt({ min: 1n << 53n, max: U64_MAX }) },
);

/** Valid pool fee fractions (num < den): the default, zero, per-10000 ones, and arbitrary u64 fractions. */
const feeArb: fc.Arbitrary<[bigint, bigint]> = fc.oneof(
  fc.constant<[bigint, bigint]>([25n, 10_000n]),
  fc.constant<[bigint, bigint]>([0n, 10_000n]),
  fc.integer({ min: 0, max: 9_999 }).map((n): [bigint, bigint] => [BigInt(n), 10_000n]),
  fc.tuple(fc.bigInt({ min: 1n, max: U64_MAX }), fc.double({ min: 0, max: 1, noNaN: true }))
    .map(([den, r]): [bigint, bigint] => {
      const num = BigInt(Math.floor(Number(den) * r));
      return [num >= den ? den - 1n : num, den];
    }),
);

function stateArb(reserve: fc.Arbitrary<bigint>): fc.Arbitrary<AmmV4State> {
  return fc.tuple(reserve, reserve, feeArb).map(([reserveCoin, reservePc, [num, den]]) => ({
    status: AMM_V4_STATUS_OK, reserveCoin, reservePc, vaultCoin: reserveCoin, vaultPc: reservePc, swapFeeNumerator: num, swapFeeDenominator: den, ammStatus: 6n, poolOpenTime: 0n,
  }));
}

const anyState = stateArb(reserveArb);
const amountArb = fc.oneof(fc.bigInt({ min: 1n, max: 1000n }), fc.bigInt({ min: 1n, max: 1n << 40n }), fc.bigInt({ min: 1n, max: U64_MAX }));

const floatRecord = (state: AmmV4State): RecordF64 => floatRecordOf(adapter, state);

const outOf = (state: AmmV4State, aToB: boolean, amountIn: bigint): bigint => exactOutOf(adapter, state, aToB, amountIn);

test('output never reaches what the pool can pay; amounts are never negative', () => {
  fc.assert(
    fc.property(anyState, fc.boolean(), amountArb, fc.constantFrom('ExactIn' as const, 'ExactOut' as const), (s, aToB, amount, mode) => {
      const q = adapter.quote(s, aToB, amount, mode);
      const rout = aToB ? s.reservePc : s.reserveCoin;
      assert.ok(q.inAmount >= 0n && q.outAmount >= 0n && q.feeAmount >= 0n);
      if (q.status === 'OK') {
        assert.ok(q.outAmount > 0n && q.outAmount < rout, `out ${q.outAmount} reserve ${rout}`);
        assert.ok(q.inAmount > 0n && q.inAmount <= U64_MAX);
        assert.ok(q.feeAmount <= q.inAmount);
        assert.equal(mode === 'ExactIn' ? q.inAmount : q.outAmount, amount);
      }
    }),
    opts,
  );
});

test('exact-in output is monotonic in the input; exact-out input is monotonic in the output', () => {
  fc.assert(
    fc.property(anyState, fc.boolean(), amountArb, amountArb, (s, aToB, x, y) => {
      const [a, b] = x <= y ? [x, y] : [y, x];
      // Monotonic while the input fits its vault: above that the token transfer fails and the quote refuses it.
      if ((aToB ? s.vaultCoin : s.vaultPc) + b <= U64_MAX) assert.ok(outOf(s, aToB, a) <= outOf(s, aToB, b));
      const qa = adapter.quote(s, aToB, a, 'ExactOut');
      const qb = adapter.quote(s, aToB, b, 'ExactOut');
      if (qb.status === 'OK') {
        assert.equal(qa.status, 'OK');
        assert.ok(qa.inAmount <= qb.inAmount);
      }
    }),
    opts,
  );
});

test('exact-in then exact-out round trip: the same output for no more input, within one atom of the output', () => {
  fc.assert(
    fc.property(anyState, fc.boolean(), amountArb, (s, aToB, a) => {
      const q1 = adapter.quote(s, aToB, a, 'ExactIn');
      fc.pre(q1.status === 'OK');
      const q2 = adapter.quote(s, aToB, q1.outAmount, 'ExactOut');
      assert.equal(q2.status, 'OK');
      assert.ok(q2.inAmount <= a, `exact-out asks ${q2.inAmount} > ${a}`);
      // The exact-out input buys at least the asked output, and a does not buy one atom more than quoted.
      const back = outOf(s, aToB, q2.inAmount);
      assert.ok(back >= q1.outAmount && back <= q1.outAmount + 1n, `round trip ${back} vs ${q1.outAmount}`);
      const q3 = adapter.quote(s, aToB, q1.outAmount + 1n, 'ExactOut');
      assert.ok(q3.status !== 'OK' || q3.inAmount > a, 'a buys at most the quoted output');
    }),
    opts,
  );
});

test('estimateOut is within 1e-9 relative of the exact quote on non-degenerate states', () => {
  // Non-degenerate: reserves and input exactly representable as f64 (<= 2^53), an exact output of at least 1e6
  // atoms, and a fee fraction whose denominator is <= 2^53 (so that the kept fraction is exact to f64 precision).
  const small = fc.bigInt({ min: 1_000_000n, max: 1n << 53n });
  let checked = 0;
  fc.assert(
    fc.property(stateArb(small), fc.boolean(), fc.bigInt({ min: 1n, max: 1n << 53n }), (s, aToB, a) => {
      fc.pre(s.swapFeeDenominator <= 1n << 53n);
      const exact = outOf(s, aToB, a);
      fc.pre(exact >= 1_000_000n);
      checked++;
      const est = adapter.estimateOut(floatRecord(s), aToB, Number(a));
      const rel = Math.abs(est - Number(exact)) / Number(exact);
      assert.ok(rel <= 1e-9, `estimate ${est} exact ${exact} rel ${rel}`);
    }),
    opts,
  );
  assert.ok(checked > 100, `only ${checked} non-degenerate cases`);
});

test('marginalRate, estimateOut and feeBps are finite and non-negative everywhere', () => {
  fc.assert(
    fc.property(anyState, fc.boolean(), fc.double({ min: 0, max: 1e30, noNaN: true }), fc.integer({ min: 0, max: 5 }), (s, aToB, x, status) => {
      const rec = floatRecord({ ...s, status });
      const m = adapter.marginalRate(rec, aToB);
      const e = adapter.estimateOut(rec, aToB, x);
      const fee = adapter.feeBps(rec);
      for (const v of [m, e, fee]) assert.ok(Number.isFinite(v) && v >= 0, `value ${v}`);
      if (status !== AMM_V4_STATUS_OK) assert.ok(m === 0 && e === 0);
      const rout = aToB ? rec.reserveB : rec.reserveA;
      assert.ok(rout > 2 ** 53 ? e <= rout : e < rout || e === 0, `estimate ${e} reserve ${rout}`);
      assert.ok(e <= m * x * (1 + 1e-12) + 1e-9);
    }),
    opts,
  );
});
