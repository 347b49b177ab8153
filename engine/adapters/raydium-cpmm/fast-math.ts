/**
 * The f64 fast path of the CPMM swap math: the same formulas as `math.ts`, step for step, on f64 integers, for
 * the swaps whose every input, intermediate and result is an integer below 2^53. The products of two such values
 * (`amount * rate`, `amount * reserve`) reach 2^106 and are divided exactly by `common/exact-f64.ts` (a
 * two-product and a checked quotient, never an estimate). Reserves may be larger (pools near u64): then the curve
 * step alone runs in bigint and the rest stays in f64 while its values do. Any step that leaves that range, and
 * every swap that does not succeed, returns null: the caller then runs the bigint port, so rejections keep one
 * implementation.
 */
import { NO_F64, TWO53, mulDivCeil, mulDivFloor, toBig, u64F64 } from '../common/exact-f64.js';
import type { CpmmFeeRates, CpmmSwap } from './math.js';
import { cpmmSwap } from './swap-result.js';

const DEN = 1_000_000;

/** Largest u64: an amount above it is refused by the bigint path (no instruction carries it). */
const U64_MAX = 0xffff_ffff_ffff_ffffn;

/**
 * The f64 of a u64 reserve or rate when it is below 2^53, else NO_F64. Rates are u64 account fields; amounts and
 * reserves are checked against u64 before (a larger bigint would read modulo 2^64).
 */
const f64 = u64F64;

/** The bigint of a non-negative f64 integer result, reusing `0n`. */
function big(x: number): bigint {
  return x === 0 ? 0n : toBig(x);
}

/**
 * The OK swap of the f64 path: the fee split (protocol and fund are floor shares of the trade fee) and bigints.
 * `inAmount` / `outAmount` are given as both f64 and bigint (one of them is the caller's own amount); equal values
 * share one bigint, so a quote allocates only the distinct amounts it reports.
 */
function okF64(
  inF: number, inAmount: bigint, outF: number, outAmount: bigint, trade: number, creator: number, rates: CpmmFeeRates,
  onInput: boolean, swappedIn: number, swappedOut: number, swappedOutBig: bigint | null = null,
): CpmmSwap | null {
  const p = f64(rates.protocolFeeRate);
  const f = f64(rates.fundFeeRate);
  if (p === NO_F64 || f === NO_F64) return null;
  const protocol = mulDivFloor(trade, p, DEN);
  const fund = mulDivFloor(trade, f, DEN);
  if (protocol === NO_F64 || fund === NO_F64) return null;
  const tradeBig = big(trade);
  const feeBig = !onInput || creator === 0 ? tradeBig : big(trade + creator);
  return cpmmSwap(
    'OK', inAmount, outAmount, feeBig, tradeBig, big(creator), protocol === trade ? tradeBig : big(protocol),
    fund === trade ? tradeBig : big(fund), onInput, swappedIn === inF ? inAmount : big(swappedIn),
    swappedOut === outF ? outAmount : swappedOutBig ?? big(swappedOut),
  );
}

/** `swapBaseInput` on f64 integers; null where it does not apply (see the file header). */
export function swapBaseInputF64(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, rates: CpmmFeeRates, onInput: boolean): CpmmSwap | null {
  if (amountIn > U64_MAX || reserveIn > U64_MAX || reserveOut > U64_MAX) return null;
  const a = f64(amountIn);
  const t = f64(rates.tradeFeeRate);
  const c = f64(rates.creatorFeeRate);
  if (a <= 0 || reserveIn <= 0n || reserveOut <= 0n || t === NO_F64 || c === NO_F64) return null;
  const ri = f64(reserveIn);
  const ro = f64(reserveOut);
  let trade: number;
  let creator = 0;
  let less: number;
  if (onInput) {
    const rate = t + c;
    if (rate === 0 || rate >= TWO53) return null;
    // One ceiling over the combined rate, then a floor split (the program's split_creator_fee).
    const total = mulDivCeil(a, rate, DEN);
    if (total === NO_F64 || total > a) return null;
    creator = mulDivFloor(total, c, rate);
    trade = total - creator;
    less = a - total;
  } else {
    trade = mulDivCeil(a, t, DEN);
    if (trade === NO_F64 || trade > a) return null;
    less = a - trade;
  }
  let swapped: number;
  let swappedBig: bigint | null = null;
  if (ri !== NO_F64 && ro !== NO_F64 && ri + less < TWO53) swapped = mulDivFloor(less, ro, ri + less);
  else {
    // Reserves past 2^53: the curve step in bigint (reserveIn > 0, so the denominator is not zero).
    const lessBig = big(less);
    swappedBig = (lessBig * reserveOut) / (reserveIn + lessBig);
    // swapped < reserveOut <= u64 (the reserve is a u64 account field).
    swapped = f64(swappedBig);
    if (swapped === NO_F64) return null;
  }
  let out = swapped;
  if (!onInput) {
    creator = mulDivCeil(swapped, c, DEN);
    if (creator === NO_F64 || creator > swapped) return null;
    out = swapped - creator;
  }
  if (out <= 0) return null;
  const outBig = out === swapped && swappedBig !== null ? swappedBig : big(out);
  return okF64(a, amountIn, out, outBig, trade, creator, rates, onInput, less, swapped, swappedBig);
}

/** `swapBaseOutput` on f64 integers; null where it does not apply (see the file header). */
export function swapBaseOutputF64(amountOut: bigint, reserveIn: bigint, reserveOut: bigint, rates: CpmmFeeRates, onInput: boolean): CpmmSwap | null {
  if (amountOut > U64_MAX || reserveIn > U64_MAX || reserveOut > U64_MAX) return null;
  const o = f64(amountOut);
  const t = f64(rates.tradeFeeRate);
  const c = f64(rates.creatorFeeRate);
  if (o <= 0 || reserveIn <= 0n || reserveOut <= 0n || t === NO_F64 || c === NO_F64) return null;
  const ri = f64(reserveIn);
  const ro = f64(reserveOut);
  let creator = 0;
  let actualOut = o;
  if (!onInput) {
    if (c >= DEN) return null;
    // calculate_pre_fee_amount: ceil(out * 1e6 / (1e6 - rate)).
    actualOut = mulDivCeil(o, DEN, DEN - c);
    if (actualOut === NO_F64) return null;
    creator = actualOut - o;
  }
  let swappedIn: number;
  if (ri !== NO_F64 && ro !== NO_F64) {
    if (actualOut >= ro) return null;
    swappedIn = mulDivCeil(ri, actualOut, ro - actualOut);
  } else {
    // Reserves past 2^53: the curve step in bigint, ceil(rin * out / (rout - out)).
    const outBig = big(actualOut);
    if (outBig >= reserveOut) return null;
    const num = reserveIn * outBig;
    const den = reserveOut - outBig;
    let q = num / den;
    if (q * den !== num) q += 1n;
    // q can pass u64 (u64F64 reads u64s only); the bigint port refuses it.
    swappedIn = q > U64_MAX ? NO_F64 : f64(q);
  }
  if (swappedIn === NO_F64) return null;
  let trade: number;
  let inAmount: number;
  if (onInput) {
    const rate = t + c;
    if (rate === 0 || rate >= DEN) return null;
    inAmount = mulDivCeil(swappedIn, DEN, DEN - rate);
    if (inAmount === NO_F64) return null;
    const total = inAmount - swappedIn;
    creator = mulDivFloor(total, c, rate);
    trade = total - creator;
  } else {
    if (t >= DEN) return null;
    inAmount = mulDivCeil(swappedIn, DEN, DEN - t);
    if (inAmount === NO_F64) return null;
    trade = inAmount - swappedIn;
  }
  return okF64(inAmount, big(inAmount), o, amountOut, trade, creator, rates, onInput, swappedIn, actualOut);
}
