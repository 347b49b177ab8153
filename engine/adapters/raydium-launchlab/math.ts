/**
 * Exact bigint port of the SDK's `Curve.buyExactIn / buyExactOut / sellExactIn / sellExactOut`
 * (`launchpad/curve/curve.ts`), the reference for the closed-source program, plus the checks the program must make
 * around it (amounts are u64, real_a and real_b cannot go below zero, a swap moves at least one atom). Fees are in
 * token B only, at `trade + platform + creator + share` per 1e6; the share (referral) rate is 0 for our quotes.
 *
 * Buys are capped at `total_sell_a - real_a`: an exact-in buy that would take more gets exactly what is left and
 * pays only the re-priced input (`buyExactOut` of the remainder plus fees); an exact-out buy of more than what is
 * left gets the remainder for its price. Statuses: INACTIVE for a fee rate the SDK rejects, INSUFFICIENT_LIQUIDITY
 * for a swap the pool cannot pay (or a curve that divides by zero), ZERO_AMOUNT for a swap that moves nothing.
 * Token-2022 transfer fees are not applied here (pools with one are INACTIVE, see state.ts).
 */
import type { QuoteResult, QuoteStatus } from '../types.js';
import { type CurvePoint, type LaunchCurve } from './curves.js';
import { sellExactInF64 } from './fast-math.js';

/** Fee-rate denominator: rates are in millionths. */
export const FEE_RATE_DENOMINATOR = 1_000_000n;
/** Largest u64. */
export const U64_MAX = 0xffff_ffff_ffff_ffffn;

/** The fee rates a swap charges (per 1e6): GlobalConfig `trade_fee_rate`, PlatformConfig `fee_rate` and `creator_fee_rate`. */
export interface LaunchlabRates {
  /** Protocol (trade) fee rate, GlobalConfig `trade_fee_rate`. */
  readonly tradeFeeRate: bigint;
  readonly platformFeeRate: bigint;
  readonly creatorFeeRate: bigint;
}

/** The curve amounts of a pool plus the cap on buys. */
export interface LaunchlabCurveState extends CurvePoint {
  readonly totalSellA: bigint;
}

/**
 * One swap. Extends {@link QuoteResult}: `feeAmount` is the total fee in token B (`feeOnInput` true for buys,
 * false for sells, where it is taken from the curve output).
 */
export interface LaunchlabSwap extends QuoteResult {
  /** Shares of `feeAmount`: platform and creator fee are floor shares, the protocol fee is the rest. */
  readonly protocolFee: bigint;
  readonly platformFee: bigint;
  readonly creatorFee: bigint;
  /** A leaving (buy) or entering (sell) the curve: real_a moves by this. */
  readonly curveA: bigint;
  /** B entering (buy, net of fees) or leaving (sell, fees included) the curve: real_b moves by this. */
  readonly curveB: bigint;
  /** `TokenOverflow` when the math succeeds but the user's transfer into vault B would take it past u64 (the
   * token program fails with Overflow); the amounts are then those the program computed. Absent otherwise. */
  readonly failure?: 'TokenOverflow';
}

/** Sum of the rates with the share rate 0. */
export function totalFeeRate(r: LaunchlabRates): bigint {
  return r.tradeFeeRate + r.platformFeeRate + r.creatorFeeRate;
}

function failed(status: QuoteStatus, aToB: boolean, inAmount: bigint, outAmount: bigint): LaunchlabSwap {
  return {
    status, inAmount, outAmount, feeAmount: 0n, feeOnInput: !aToB, protocolFee: 0n, platformFee: 0n,
    creatorFee: 0n, curveA: 0n, curveB: 0n,
  };
}

/** ceil(amount * rate / 1e6) (`Curve.calculateFee`). */
function feeOf(amount: bigint, rate: bigint): bigint {
  return (amount * rate + FEE_RATE_DENOMINATOR - 1n) / FEE_RATE_DENOMINATOR;
}

/** `Curve.calculatePreFee`: ceil(post * 1e6 / (1e6 - rate)); null where the SDK divides by zero (rate 1e6). */
function preFee(post: bigint, rate: bigint): bigint | null {
  if (rate === 0n) return post;
  const den = FEE_RATE_DENOMINATOR - rate;
  if (den === 0n) return null;
  return (post * FEE_RATE_DENOMINATOR + den - 1n) / den;
}

function ok(
  aToB: boolean, inAmount: bigint, outAmount: bigint, totalFee: bigint, rates: LaunchlabRates, rate: bigint,
  curveA: bigint, curveB: bigint,
): LaunchlabSwap {
  // `Curve.splitFee` with share 0: floor shares for platform and creator, the protocol takes the rest.
  const platformFee = rate === 0n ? 0n : (totalFee * rates.platformFeeRate) / rate;
  const creatorFee = rate === 0n ? 0n : (totalFee * rates.creatorFeeRate) / rate;
  return {
    status: 'OK', inAmount, outAmount, feeAmount: totalFee, feeOnInput: !aToB,
    protocolFee: totalFee - platformFee - creatorFee, platformFee, creatorFee, curveA, curveB,
  };
}

/** Buy A with exactly `amountB` of B (capped and re-priced at the end of the curve). */
export function buyExactIn(curve: LaunchCurve, s: LaunchlabCurveState, rates: LaunchlabRates, amountB: bigint): LaunchlabSwap {
  if (amountB <= 0n) return failed('ZERO_AMOUNT', false, 0n, 0n);
  const rate = totalFeeRate(rates);
  if (rate > FEE_RATE_DENOMINATOR) return failed('INACTIVE', false, amountB, 0n);
  const fee = feeOf(amountB, rate);
  const less = amountB - fee;
  const a0 = curve.buyExactIn(s, less);
  if (a0 === null) return failed('INSUFFICIENT_LIQUIDITY', false, amountB, 0n);
  const remaining = s.totalSellA - s.realA;
  let amountA = a0;
  let inAmount = amountB;
  let totalFee = fee;
  let curveB = less;
  if (a0 > remaining) {
    // The curve fills: take what is left, pay its price plus fees (the SDK re-prices with buyExactOut).
    if (remaining <= 0n) return failed('INSUFFICIENT_LIQUIDITY', false, amountB, 0n);
    const lessB = curve.buyExactOut(s, remaining);
    if (lessB === null) return failed('INSUFFICIENT_LIQUIDITY', false, amountB, 0n);
    if (lessB <= 0n) return failed('ZERO_AMOUNT', false, amountB, 0n);
    const vaultB = preFee(lessB, rate);
    if (vaultB === null) return failed('INACTIVE', false, amountB, 0n);
    amountA = remaining;
    inAmount = vaultB;
    totalFee = vaultB - lessB;
    curveB = lessB;
  }
  if (amountA <= 0n) return failed('ZERO_AMOUNT', false, amountB, 0n);
  // real_b + amount is a u64 in the program (checked_add).
  if (s.realB + curveB > U64_MAX) return failed('INSUFFICIENT_LIQUIDITY', false, amountB, 0n);
  return ok(false, inAmount, amountA, totalFee, rates, rate, amountA, curveB);
}

/** Buy exactly `amountA` of A (at most what is left on the curve: the remainder is what a larger request gets). */
export function buyExactOut(curve: LaunchCurve, s: LaunchlabCurveState, rates: LaunchlabRates, amountA: bigint): LaunchlabSwap {
  if (amountA <= 0n) return failed('ZERO_AMOUNT', false, 0n, 0n);
  const rate = totalFeeRate(rates);
  if (rate > FEE_RATE_DENOMINATOR) return failed('INACTIVE', false, 0n, amountA);
  const remaining = s.totalSellA - s.realA;
  if (remaining <= 0n) return failed('INSUFFICIENT_LIQUIDITY', false, 0n, amountA);
  const outA = amountA > remaining ? remaining : amountA;
  const lessB = curve.buyExactOut(s, outA);
  if (lessB === null) return failed('INSUFFICIENT_LIQUIDITY', false, 0n, amountA);
  if (lessB <= 0n) return failed('ZERO_AMOUNT', false, 0n, amountA);
  const vaultB = preFee(lessB, rate);
  if (vaultB === null) return failed('INACTIVE', false, 0n, amountA);
  if (vaultB > U64_MAX || s.realB + lessB > U64_MAX) return failed('INSUFFICIENT_LIQUIDITY', false, 0n, amountA);
  return ok(false, vaultB, outA, vaultB - lessB, rates, rate, outA, lessB);
}

/** Sell exactly `amountA` of A (the f64 fast path of `fast-math.ts` first, the bigint port otherwise). */
export function sellExactIn(curve: LaunchCurve, s: LaunchlabCurveState, rates: LaunchlabRates, amountA: bigint): LaunchlabSwap {
  return sellExactInF64(curve, s, rates, amountA) ?? sellExactInBig(curve, s, rates, amountA);
}

/** {@link sellExactIn} in bigint only: the reference port, for every value and curve (and the tests). */
export function sellExactInBig(curve: LaunchCurve, s: LaunchlabCurveState, rates: LaunchlabRates, amountA: bigint): LaunchlabSwap {
  if (amountA <= 0n) return failed('ZERO_AMOUNT', true, 0n, 0n);
  const rate = totalFeeRate(rates);
  if (rate > FEE_RATE_DENOMINATOR) return failed('INACTIVE', true, amountA, 0n);
  const gross = curve.sellExactIn(s, amountA);
  if (gross === null) return failed('INSUFFICIENT_LIQUIDITY', true, amountA, 0n);
  // The program's real_a and real_b cannot go below zero (checked_sub).
  if (amountA > s.realA || gross > s.realB) return failed('INSUFFICIENT_LIQUIDITY', true, amountA, 0n);
  const totalFee = feeOf(gross, rate);
  const out = gross - totalFee;
  if (out <= 0n) return failed('ZERO_AMOUNT', true, amountA, 0n);
  return ok(true, amountA, out, totalFee, rates, rate, amountA, gross);
}

/** Sell A for exactly `amountB` of B. */
export function sellExactOut(curve: LaunchCurve, s: LaunchlabCurveState, rates: LaunchlabRates, amountB: bigint): LaunchlabSwap {
  if (amountB <= 0n) return failed('ZERO_AMOUNT', true, 0n, 0n);
  const rate = totalFeeRate(rates);
  if (rate > FEE_RATE_DENOMINATOR) return failed('INACTIVE', true, 0n, amountB);
  const withFee = preFee(amountB, rate);
  if (withFee === null) return failed('INACTIVE', true, 0n, amountB);
  if (s.realB < withFee) return failed('INSUFFICIENT_LIQUIDITY', true, 0n, amountB);
  const amountA = curve.sellExactOut(s, withFee);
  if (amountA === null || amountA > s.realA) return failed('INSUFFICIENT_LIQUIDITY', true, 0n, amountB);
  if (amountA <= 0n) return failed('ZERO_AMOUNT', true, 0n, amountB);
  return ok(true, amountA, amountB, withFee - amountB, rates, rate, amountA, withFee);
}
