/**
 * Properties of the CPMM adapter's quote and float estimates, with fast-check bounded by time (each property
 * runs for TIME_MS or MAX_RUNS, whichever comes first).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { type RecordF64 } from '../types.js';
import { raydiumCpmmAdapter as adapter } from './adapter.js';
import { U64_MAX } from './math.js';
import type { CpmmQuote } from './quote.js';
import { CPMM_STATUS_OK, type CpmmState } from './state.js';
import { exactOutOf, floatRecordOf } from '../testing/record-helpers.js';

const TIME_MS = 2500;
const MAX_RUNS = 1_000_000;
const opts = { interruptAfterTimeLimit: TIME_MS, numRuns: MAX_RUNS };

/** Reserves from tiny to near u64::MAX, biased towards realistic magnitudes. */
const reserveArb = fc.oneof(
  { weight: 1, arbitrary: fc.bigInt({ min: 1n, max: 1000n }) },
  { weight: 4, arbitrary: fc.bigInt({ min: 1000n, max: 1n << 53n }) },
  { weight: 1, arbitrary: fc.bigInt({ min: 1n << 53n, max: U64_MAX }) },
);

/** Rates within the program's config invariant (trade + creator < 1e6, protocol + fund <= 1e6). */
const ratesArb = fc
  .tuple(
    fc.oneof(fc.constantFrom(0, 100, 2500, 10_000), fc.integer({ min: 0, max: 999_999 })),
    fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 999_999 })),
    fc.integer({ min: 0, max: 1_000_000 }),
    fc.integer({ min: 0, max: 1_000_000 }),
  )
  .map(([t, c, p, f]) => ({
    tradeFeeRate: BigInt(t),
    creatorFeeRate: BigInt(c % (1_000_000 - t)),
    protocolFeeRate: BigInt(p),
    fundFeeRate: BigInt(f % (1_000_001 - p)),
  }));

function stateArb(reserve: fc.Arbitrary<bigint>): fc.Arbitrary<CpmmState> {
  return fc.record({
    status: fc.constant(CPMM_STATUS_OK),
    reserve0: reserve,
    reserve1: reserve,
    rates: ratesArb,
    creatorFeeOn: fc.integer({ min: 0, max: 2 }),
    openTime: fc.constant(0n),
    poolStatusBits: fc.constant(0),
    transferFee0: fc.constant(null),
    transferFee1: fc.constant(null),
    transferFeeChanges: fc.constant(false),
  }).map((s) => ({ ...s, vault0: s.reserve0, vault1: s.reserve1 }));
}

const anyState = stateArb(reserveArb);
const amountArb = fc.oneof(fc.bigInt({ min: 1n, max: 1000n }), fc.bigInt({ min: 1n, max: 1n << 40n }), fc.bigInt({ min: 1n, max: U64_MAX }));

const floatRecord = (state: CpmmState): RecordF64 => floatRecordOf(adapter, state);

const outOf = (state: CpmmState, aToB: boolean, amountIn: bigint): bigint => exactOutOf(adapter, state, aToB, amountIn);

test('output never reaches the reserve; amounts are never negative', () => {
  fc.assert(
    fc.property(anyState, fc.boolean(), amountArb, fc.constantFrom('ExactIn' as const, 'ExactOut' as const), (s, aToB, amount, mode) => {
      const q = adapter.quote(s, aToB, amount, mode);
      const rout = aToB ? s.reserve1 : s.reserve0;
      assert.ok(q.inAmount >= 0n && q.outAmount >= 0n && q.feeAmount >= 0n);
      if (q.status === 'OK') {
        assert.ok(q.outAmount > 0n && q.outAmount < rout, `out ${q.outAmount} reserve ${rout}`);
        assert.ok(q.inAmount > 0n && q.inAmount <= U64_MAX);
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
      if ((aToB ? s.vault0 : s.vault1) + b <= U64_MAX) assert.ok(outOf(s, aToB, a) <= outOf(s, aToB, b));
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

test('exact-in then exact-out round trip: same output for no more input, and one atom more is out of reach', () => {
  fc.assert(
    fc.property(anyState, fc.boolean(), amountArb, (s, aToB, a) => {
      const q1 = adapter.quote(s, aToB, a, 'ExactIn');
      fc.pre(q1.status === 'OK');
      const q2 = adapter.quote(s, aToB, q1.outAmount, 'ExactOut');
      assert.equal(q2.status, 'OK');
      assert.ok(q2.inAmount <= a, `exact-out asks ${q2.inAmount} > ${a}`);
      assert.equal(outOf(s, aToB, q2.inAmount), q1.outAmount);
      const q3 = adapter.quote(s, aToB, q1.outAmount + 1n, 'ExactOut');
      assert.ok(q3.status !== 'OK' || q3.inAmount > a, 'a buys at most the quoted output');
    }),
    opts,
  );
});

test('estimateOut is within 1e-9 relative of the exact quote on non-degenerate states', () => {
  // Non-degenerate: reserves and input exactly representable as f64 (<= 2^53), and an exact output of at
  // least 1e6 atoms (below that a single atom of float rounding is already above 1e-9).
  const small = fc.bigInt({ min: 1_000_000n, max: 1n << 53n });
  let checked = 0;
  fc.assert(
    fc.property(stateArb(small), fc.boolean(), fc.bigInt({ min: 1n, max: 1n << 53n }), (s, aToB, a) => {
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

test('marginalRate and estimateOut are finite and non-negative everywhere', () => {
  fc.assert(
    fc.property(anyState, fc.boolean(), fc.double({ min: 0, max: 1e30, noNaN: true }), fc.integer({ min: 0, max: 4 }), (s, aToB, x, status) => {
      const rec = floatRecord({ ...s, status });
      const m = adapter.marginalRate(rec, aToB);
      const e = adapter.estimateOut(rec, aToB, x);
      const fee = adapter.feeBps(rec);
      for (const v of [m, e, fee]) assert.ok(Number.isFinite(v) && v >= 0, `value ${v}`);
      if (status !== CPMM_STATUS_OK) assert.ok(m === 0 && e === 0);
      // The estimate never exceeds the reserve (strictly below it where f64 can tell, i.e. below 2^53) and
      // never beats the marginal rate.
      const rout = aToB ? rec.reserveB : rec.reserveA;
      assert.ok(rout > 2 ** 53 ? e <= rout : e < rout || e === 0, `estimate ${e} reserve ${rout}`);
      assert.ok(e <= m * x * (1 + 1e-12) + 1e-9);
    }),
    opts,
  );
});

/** Token-2022 transfer fee schedules (none on some mints), fees from 1 bp to 100 % and caps from 0 to none. */
const transferFeeArb = fc.option(
  fc.record({
    epoch: fc.constant(0n),
    basisPoints: fc.oneof(fc.constantFrom(1, 25, 100, 1_000, 10_000), fc.integer({ min: 0, max: 10_000 })),
    maximumFee: fc.oneof(fc.constantFrom(0n, 1n, U64_MAX), fc.bigInt({ min: 0n, max: 1n << 40n })),
  }),
  { nil: null },
);

function feeStateArb(reserve: fc.Arbitrary<bigint>): fc.Arbitrary<CpmmState> {
  return fc.tuple(stateArb(reserve), transferFeeArb, transferFeeArb).map(([s, transferFee0, transferFee1]) => ({ ...s, transferFee0, transferFee1 }));
}

test('with transfer fees: monotonic exact-in, exact-out delivers what it asks, the vault never pays out its reserve', () => {
  fc.assert(
    fc.property(feeStateArb(reserveArb), fc.boolean(), amountArb, amountArb, (s, aToB, a, b) => {
      const [lo, hi] = a < b ? [a, b] : [b, a];
      const qa = adapter.quote(s, aToB, lo, 'ExactIn');
      const qb = adapter.quote(s, aToB, hi, 'ExactIn');
      for (const q of [qa, qb]) for (const v of [q.inAmount, q.outAmount, q.feeAmount]) assert.ok(v >= 0n);
      if (qa.status === 'OK' && qb.status === 'OK') assert.ok(qb.outAmount >= qa.outAmount, `${hi} -> ${qb.outAmount} < ${lo} -> ${qa.outAmount}`);
      const rout = aToB ? s.reserve1 : s.reserve0;
      const qo = adapter.quote(s, aToB, lo, 'ExactOut') as CpmmQuote;
      if (qo.status !== 'OK') return;
      assert.ok(qo.transferOut < rout, 'the vault keeps part of its reserve');
      // What the user receives covers the request except where Token-2022's own inverse fee rounds one short.
      assert.ok(qo.outAmount + 1n >= lo, `asked ${lo}, receives ${qo.outAmount}`);
      // Sending the exact-out's input as an exact-in buys at least as much (the curve rounds in the user's favour
      // no further than the program does).
      const back = adapter.quote(s, aToB, qo.inAmount, 'ExactIn');
      if (back.status === 'OK') assert.ok(back.outAmount + 2n >= qo.outAmount, `exact-in of ${qo.inAmount} gives ${back.outAmount} < ${qo.outAmount}`);
    }),
    opts,
  );
});

test('with transfer fees: estimateOut within 1e-9 relative of the exact quote on non-degenerate states', () => {
  const small = fc.bigInt({ min: 1_000_000n, max: 1n << 53n });
  let checked = 0;
  fc.assert(
    fc.property(feeStateArb(small), fc.boolean(), fc.bigInt({ min: 1n, max: 1n << 53n }), (s, aToB, a) => {
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
