/**
 * The f64 fast path of a LaunchLab sell exact-in (`sellExactIn` of `math.ts`) on the constant-product and
 * fixed-price curves: the same formulas, step for step, on f64 integers, for sells whose every input, intermediate
 * and result is an integer below 2^53 (a supply of 1e9 tokens of 6 decimals and SOL-sized quote reserves fit).
 * `floor(a * b / c)` / `ceil(a * b / c)` are exact through `common/exact-f64.ts`; bigint division truncates toward
 * zero where `Math.floor` rounds down, so every divisor and dividend is checked positive first. Any step that
 * leaves the range, the linear curve, and every sell that does not succeed return null: the caller runs the bigint
 * port. Reserves and rates are u64 account fields; the amount is checked against u64 first.
 */
import { NO_F64, TWO53, mulDivCeil, mulDivFloor, toBig, u64F64 } from '../common/exact-f64.js';
import { type LaunchCurve, constantProductCurve, fixedPriceCurve } from './curves.js';
import type { LaunchlabCurveState, LaunchlabRates, LaunchlabSwap } from './math.js';

const DEN = 1_000_000;
const U64_MAX = 0xffff_ffff_ffff_ffffn;

function big(x: number): bigint {
  return x === 0 ? 0n : toBig(x);
}

/** `sellExactIn` on f64 integers; null where it does not apply (see the file header). */
export function sellExactInF64(curve: LaunchCurve, s: LaunchlabCurveState, rates: LaunchlabRates, amountA: bigint): LaunchlabSwap | null {
  if (amountA > U64_MAX) return null;
  const a = u64F64(amountA);
  const vA = u64F64(s.virtualA);
  const vB = u64F64(s.virtualB);
  const rA = u64F64(s.realA);
  const rB = u64F64(s.realB);
  const t = u64F64(rates.tradeFeeRate);
  const p = u64F64(rates.platformFeeRate);
  const c = u64F64(rates.creatorFeeRate);
  if (a <= 0 || vA === NO_F64 || vB === NO_F64 || rA === NO_F64 || rB === NO_F64 || t === NO_F64 || p === NO_F64 || c === NO_F64) return null;
  const rate = t + p + c;
  if (rate > DEN) return null;
  let gross: number;
  if (curve === constantProductCurve) {
    // floor(a * (vB + rB) / (vA - rA + a)), every term positive.
    if (vA < rA) return null;
    const den = vA - rA + a;
    const b = vB + rB;
    if (den <= 0 || den >= TWO53 || b >= TWO53) return null;
    gross = mulDivFloor(a, b, den);
  } else if (curve === fixedPriceCurve) {
    if (vA <= 0) return null;
    gross = mulDivFloor(vB, a, vA);
  } else return null;
  if (gross === NO_F64 || a > rA || gross > rB) return null;
  const totalFee = mulDivCeil(gross, rate, DEN);
  if (totalFee === NO_F64) return null;
  const out = gross - totalFee;
  if (out <= 0) return null;
  // Curve.splitFee with share 0: floor shares for platform and creator, the protocol takes the rest.
  const platformFee = rate === 0 || p === 0 ? 0 : mulDivFloor(totalFee, p, rate);
  const creatorFee = rate === 0 || c === 0 ? 0 : mulDivFloor(totalFee, c, rate);
  const feeBig = big(totalFee);
  return {
    status: 'OK', inAmount: amountA, outAmount: toBig(out), feeAmount: feeBig, feeOnInput: false,
    protocolFee: platformFee === 0 && creatorFee === 0 ? feeBig : big(totalFee - platformFee - creatorFee),
    platformFee: big(platformFee), creatorFee: big(creatorFee), curveA: amountA, curveB: toBig(gross),
  };
}
