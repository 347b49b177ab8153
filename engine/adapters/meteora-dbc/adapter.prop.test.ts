/**
 * Properties of the DBC adapter's quote and float estimates, with fast-check bounded by time (each property runs
 * for TIME_MS or MAX_RUNS, whichever comes first). Pools come from the seeded generator of random-states.ts
 * (1..20 segments, every fee mode, any point of the curve); fast-check draws the seed, direction and amounts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { type RecordF64 } from '../types.js';
import { meteoraDbcAdapter as adapter } from './adapter.js';
import { U64_MAX, deltaBase } from './curve-math.js';
import type { DbcSwap } from './quote.js';
import { randomDbcCases } from './testing/random-states.js';
import { DBC_STATUS_OK, type DbcState, dbcStateFrom } from './state.js';
import { exactOutOf, floatRecordOf } from '../testing/record-helpers.js';

const TIME_MS = 600;
const opts = { interruptAfterTimeLimit: TIME_MS, numRuns: 1_000_000 };

const stateArb: fc.Arbitrary<DbcState> = fc.integer({ min: 1, max: 2 ** 31 }).map((seed) => {
  const c = randomDbcCases(seed, 1)[0]!;
  return dbcStateFrom(c.pool, c.config, c.clock);
});
const amountArb = fc.oneof(fc.bigInt({ min: 1n, max: 1000n }), fc.bigInt({ min: 1n, max: 1n << 40n }), fc.bigInt({ min: 1n, max: U64_MAX }));

const floatRecord = (state: DbcState): RecordF64 => floatRecordOf(adapter, state);

function everySegmentHoldsBase(s: DbcState): boolean {
  let lower = s.sqrtStartPrice;
  for (const p of s.curve) {
    const base = deltaBase(lower, p.sqrtPrice, p.liquidity, false);
    if (typeof base !== 'bigint' || base < 1n) return false;
    lower = p.sqrtPrice;
  }
  return true;
}

const outOf = (s: DbcState, aToB: boolean, amountIn: bigint): bigint => exactOutOf(adapter, s, aToB, amountIn);

test('output never exceeds what the pool can pay; amounts are never negative', () => {
  fc.assert(
    fc.property(stateArb, fc.boolean(), amountArb, fc.constantFrom('ExactIn' as const, 'ExactOut' as const), (s, aToB, amount, mode) => {
      const q = adapter.quote(s, aToB, amount, mode);
      assert.ok(q.inAmount >= 0n && q.outAmount >= 0n && q.feeAmount >= 0n);
      if (q.status === 'OK') {
        const reserveOut = aToB ? s.quoteReserve : s.baseReserve;
        assert.ok(q.outAmount > 0n && q.outAmount <= reserveOut, `out ${q.outAmount} reserve ${reserveOut}`);
        assert.ok(q.inAmount > 0n && q.inAmount <= U64_MAX);
        assert.equal(mode === 'ExactIn' ? q.inAmount : q.outAmount, amount);
      }
    }),
    opts,
  );
});

test('exact-in output is monotonic in the input; exact-out input is monotonic in the output', () => {
  fc.assert(
    fc.property(stateArb, fc.boolean(), amountArb, amountArb, (s, aToB, x, y) => {
      // The program's rate limiter charges up to 99% on each extra atom; with a variable fee on top the marginal
      // fee passes 100% and a larger buy gets less (program behaviour, README). Monotonic everywhere else.
      fc.pre(aToB || s.rateLimiter === null || s.variableFeeNumerator === 0n);
      const [a, b] = x <= y ? [x, y] : [y, x];
      const qb = adapter.quote(s, aToB, b, 'ExactIn');
      if (qb.status === 'OK') assert.ok(outOf(s, aToB, a) <= qb.outAmount, `out(${a}) > out(${b})`);
      const oa = adapter.quote(s, aToB, a, 'ExactOut');
      const ob = adapter.quote(s, aToB, b, 'ExactOut');
      if (ob.status === 'OK') {
        assert.equal(oa.status, 'OK');
        assert.ok(oa.inAmount <= ob.inAmount);
      }
    }),
    opts,
  );
});

test('exact-in then exact-out round trip within one atom', () => {
  let checked = 0;
  fc.assert(
    fc.property(stateArb, fc.boolean(), amountArb, (s, aToB, a) => {
      // The rate limiter prices exact-out from the fee-excluded amount (a different inverse, documented).
      fc.pre(s.rateLimiter === null || aToB);
      const q1 = adapter.quote(s, aToB, a, 'ExactIn') as DbcSwap;
      // Not at the boundaries the program rounds differently per mode: an output of a few atoms per crossed
      // segment (each segment floors its base output, so exact-out pays whole segments for fractional atoms), and
      // a buy that ends exactly at the migration price (exact-out rounds the price up, past it).
      // Also not on curves with a segment worth less than one base atom (exact-out crosses such a segment whole).
      fc.pre(q1.status === 'OK' && q1.outAmount >= 1000n * BigInt(s.curve.length + 1) && q1.nextSqrtPrice !== s.migrationSqrtPrice && everySegmentHoldsBase(s));
      checked++;
      const q2 = adapter.quote(s, aToB, q1.outAmount, 'ExactOut');
      assert.equal(q2.status, 'OK');
      assert.ok(q2.inAmount <= a + 1n, `exact-out asks ${q2.inAmount} > ${a} + 1`);
      assert.ok(outOf(s, aToB, q2.inAmount) + 1n >= q1.outAmount, 'paying the exact-out input buys the output within one atom');
    }),
    opts,
  );
  assert.ok(checked > 50, `only ${checked} round trips`);
});

test('estimateOut is within 1e-9 relative of the exact quote on non-degenerate states', () => {
  let checked = 0;
  fc.assert(
    fc.property(stateArb, fc.boolean(), fc.bigInt({ min: 1n, max: 1n << 53n }), (s, aToB, a) => {
      fc.pre(s.status === DBC_STATUS_OK && s.baseReserve <= 1n << 53n && s.quoteReserve <= 1n << 53n);
      const q = adapter.quote(s, aToB, a, 'ExactIn') as DbcSwap;
      const exact = q.status === 'OK' ? q.outAmount : 0n;
      // Non-degenerate: at least 1e9 atoms out per segment (each segment floors one atom: 1e-9 of 1e9), and a price
      // move of at least 2^33 Q64 units (the program rounds the next sqrt price to one unit).
      const move = q.nextSqrtPrice > s.sqrtPrice ? q.nextSqrtPrice - s.sqrtPrice : s.sqrtPrice - q.nextSqrtPrice;
      // A trade that ends exactly on a curve point or the curve's end is a boundary case (the float walk may land
      // an atom either side of it), not a ranking case.
      const ends = new Set([s.sqrtStartPrice, s.migrationSqrtPrice, ...s.curve.map((p) => p.sqrtPrice)]);
      fc.pre(exact >= 1_000_000_000n * BigInt(s.curve.length + 1) && move >= 1n << 33n && !ends.has(q.nextSqrtPrice));
      checked++;
      const est = adapter.estimateOut(floatRecord(s), aToB, Number(a));
      const rel = Math.abs(est - Number(exact)) / Number(exact);
      assert.ok(rel <= 1e-9, `estimate ${est} exact ${exact} rel ${rel}`);
    }),
    opts,
  );
  assert.ok(checked > 50, `only ${checked} non-degenerate cases`);
});

test('marginalRate, estimateOut and feeBps are finite and non-negative everywhere', () => {
  fc.assert(
    fc.property(stateArb, fc.boolean(), fc.double({ min: 0, max: 1e30, noNaN: true }), (s, aToB, x) => {
      const rec = floatRecord(s);
      const m = adapter.marginalRate(rec, aToB);
      const e = adapter.estimateOut(rec, aToB, x);
      const fee = adapter.feeBps(rec);
      for (const v of [m, e, fee]) assert.ok(Number.isFinite(v) && v >= 0, `value ${v}`);
      if (s.status !== DBC_STATUS_OK) assert.ok(m === 0 && e === 0);
      const rout = aToB ? rec.reserveB : rec.reserveA;
      assert.ok(e <= rout, `estimate ${e} reserve ${rout}`);
      // Along a bonding curve the price only gets worse: the estimate never beats the marginal rate.
      assert.ok(e <= m * x * (1 + 1e-9) + 1, `estimate ${e} above marginal ${m} x ${x}`);
    }),
    opts,
  );
});
