/**
 * The fast path of the CPMM swap math: the same formulas as `math.ts`, step for step, on u64 values held as f64
 * pairs (`common/u64-pair.ts`: `hi * 2^32 + lo`), exact for every u64 without bigint arithmetic. Fee steps
 * (`x * rate / 1e6`, `x * 1e6 / (1e6 - rate)`, the creator split) are `mulDivSmall`; the curve step
 * (`floor(in * rout / (rin + in))`, `ceil(rin * out / (rout - out))`, 128-bit products) is `mulDivPair`. Only
 * the result's bigints are made, and each distinct value once.
 *
 * A swap that does not succeed returns null, and so does one whose rates are outside the fee range (a rate above
 * 1e6, or a trade or creator rate of 1e6 or more), or whose input would take the input vault past u64: the caller
 * then runs the bigint port, so every rejection and refusal keeps one implementation.
 */
import { MUL_DIV_ARGS, mulDivPair } from '../common/u64-mul-div.js';
import { PAIR, TWO32, bigOfPair, mulDivSmall, pairBig, readU64 } from '../common/u64-pair.js';
import type { CpmmFeeRates, CpmmSwap } from './math.js';
import type { CpmmQuoteView } from './quote-view.js';
import { cpmmSwap } from './swap-result.js';

/** The program's fee-rate denominator. */
const DEN = 1_000_000;

/** Largest u64: an amount above it is refused by the bigint path (no instruction carries it). */
const U64_MAX = 0xffff_ffff_ffff_ffffn;

/** 2^-32, exact: `Math.floor(x * INV32)` is `floor(x / 2^32)` (the carry or borrow of a sum of halves), no branch. */
const INV32 = 1 / TWO32;

/**
 * The protocol and fund shares of the trade fee (in {@link PAIR} on entry; its bigint `tradeBig`) and the result
 * object. Only bigints and small integers cross this call (no f64 argument to box).
 */
function okSwap(
  inBig: bigint, outBig: bigint, feeBig: bigint, tradeBig: bigint, creatorBig: bigint,
  p: number, f: number, onInput: boolean, swappedInBig: bigint, swappedOutBig: bigint,
): CpmmSwap {
  const trHi = PAIR.hi;
  const trLo = PAIR.lo;
  mulDivSmall(p, DEN, false);
  const protocolBig = PAIR.hi === trHi && PAIR.lo === trLo ? tradeBig : bigOfPair();
  PAIR.hi = trHi;
  PAIR.lo = trLo;
  mulDivSmall(f, DEN, false);
  const fundBig = PAIR.hi === trHi && PAIR.lo === trLo ? tradeBig : bigOfPair();
  return cpmmSwap('OK', inBig, outBig, feeBig, tradeBig, creatorBig, protocolBig, fundBig, onInput, swappedInBig, swappedOutBig);
}

/**
 * Reads `amount` into {@link PAIR} and tells whether the pair path applies: false for a negative amount (it reads as
 * amount + 2^64; only one with its top bit set is checked), a zero amount, an empty reserve, or a rate at or past 1e6.
 * Both directions and both modes start here; those cases are the bigint path's.
 */
function amountApplies(v: CpmmQuoteView, amount: bigint): boolean {
  readU64(amount);
  if (PAIR.hi >= 2_147_483_648 && amount < 0n) return false;
  if (PAIR.hi === 0 && PAIR.lo === 0) return false;
  if ((v.r0Hi === 0 && v.r0Lo === 0) || (v.r1Hi === 0 && v.r1Lo === 0)) return false;
  return v.t < DEN && v.c < DEN;
}

/**
 * `swapBaseInput` of `amount` (at most u64::MAX, checked by the caller) from the view's token 0 (`aToB`) or token 1: rates of
 * at most 1e6 (the view's), and the input vault must take the amount without passing u64. Null where it does not
 * apply (see the file header).
 */
export function swapInPair(v: CpmmQuoteView, aToB: boolean, amount: bigint): CpmmSwap | null {
  if (!amountApplies(v, amount)) return null;
  const aHi = PAIR.hi;
  const aLo = PAIR.lo;
  const riHi = aToB ? v.r0Hi : v.r1Hi;
  const riLo = aToB ? v.r0Lo : v.r1Lo;
  const roHi = aToB ? v.r1Hi : v.r0Hi;
  const roLo = aToB ? v.r1Lo : v.r0Lo;
  const onInput = aToB ? v.onInput01 : v.onInput10;
  const { t, c } = v;
  // The user's transfer into the input vault (the token program's Overflow past u64): left to the bigint path.
  let lo = (aToB ? v.v0Lo : v.v1Lo) + aLo;
  let k = Math.floor(lo * INV32);
  if ((aToB ? v.v0Hi : v.v1Hi) + aHi + k >= TWO32) return null;
  let trHi: number;
  let trLo: number;
  let crHi = 0;
  let crLo = 0;
  let feeHi: number;
  let feeLo: number;
  if (onInput) {
    const rate = t + c;
    if (rate === 0 || rate >= DEN) return null;
    // One ceiling over the combined rate, then a floor split (the program's split_creator_fee); rate < 1e6.
    mulDivSmall(rate, DEN, true);
    feeHi = PAIR.hi;
    feeLo = PAIR.lo;
    mulDivSmall(c, rate, false);
    crHi = PAIR.hi;
    crLo = PAIR.lo;
    lo = feeLo - crLo;
    k = Math.floor(lo * INV32);
    trHi = feeHi - crHi + k;
    trLo = lo - k * TWO32;
  } else {
    mulDivSmall(t, DEN, true);
    trHi = feeHi = PAIR.hi;
    trLo = feeLo = PAIR.lo;
  }
  // less = amount - fee (the fee is at most the amount: rate < 1e6); the curve divides by rin + less.
  lo = aLo - feeLo;
  k = Math.floor(lo * INV32);
  const lessHi = aHi - feeHi + k;
  const lessLo = lo - k * TWO32;
  lo = riLo + lessLo;
  k = Math.floor(lo * INV32);
  MUL_DIV_ARGS[0] = lessHi;
  MUL_DIV_ARGS[1] = lessLo;
  MUL_DIV_ARGS[2] = roHi;
  MUL_DIV_ARGS[3] = roLo;
  MUL_DIV_ARGS[4] = riHi + lessHi + k;
  MUL_DIV_ARGS[5] = lo - k * TWO32;
  // floor(less * rout / (rin + less)) < rout: always a u64.
  mulDivPair(false);
  const swHi = PAIR.hi;
  const swLo = PAIR.lo;
  let outHi = swHi;
  let outLo = swLo;
  if (!onInput) {
    // The creator fee off the output (0 for a zero rate), ceil(swapped * c / 1e6) <= swapped (c < 1e6).
    mulDivSmall(c, DEN, true);
    crHi = PAIR.hi;
    crLo = PAIR.lo;
    lo = swLo - crLo;
    k = Math.floor(lo * INV32);
    outHi = swHi - crHi + k;
    outLo = lo - k * TWO32;
  }
  if (outHi === 0 && outLo === 0) return null;
  // Bigints: each distinct value once.
  const outBig = pairBig(outHi, outLo);
  const tradeBig = pairBig(trHi, trLo);
  const creatorBig = pairBig(crHi, crLo);
  const feeBig = feeHi === trHi && feeLo === trLo ? tradeBig : pairBig(feeHi, feeLo);
  const swappedInBig = feeHi === 0 && feeLo === 0 ? amount : pairBig(lessHi, lessLo);
  const swappedOutBig = outHi === swHi && outLo === swLo ? outBig : pairBig(swHi, swLo);
  PAIR.hi = trHi;
  PAIR.lo = trLo;
  return okSwap(amount, outBig, feeBig, tradeBig, creatorBig, v.p, v.f, onInput, swappedInBig, swappedOutBig);
}

/** `swapBaseOutput` of `amount` (at most u64::MAX, checked by the caller); the rest as {@link swapInPair}. */
export function swapOutPair(v: CpmmQuoteView, aToB: boolean, amount: bigint): CpmmSwap | null {
  if (!amountApplies(v, amount)) return null;
  const oHi = PAIR.hi;
  const oLo = PAIR.lo;
  const riHi = aToB ? v.r0Hi : v.r1Hi;
  const riLo = aToB ? v.r0Lo : v.r1Lo;
  const roHi = aToB ? v.r1Hi : v.r0Hi;
  const roLo = aToB ? v.r1Lo : v.r0Lo;
  const onInput = aToB ? v.onInput01 : v.onInput10;
  const { t, c } = v;
  let aoHi = oHi;
  let aoLo = oLo;
  let crHi = 0;
  let crLo = 0;
  let lo: number;
  let k: number;
  if (!onInput) {
    // calculate_pre_fee_amount: ceil(out * 1e6 / (1e6 - rate)) (out itself for a zero rate).
    mulDivSmall(DEN, DEN - c, true);
    aoHi = PAIR.hi;
    aoLo = PAIR.lo;
    lo = aoLo - oLo;
    k = Math.floor(lo * INV32);
    crHi = aoHi - oHi + k;
    crLo = lo - k * TWO32;
  }
  // The curve cannot be emptied (the program's checked_sub / ceil_div fail): left to the bigint path.
  if (aoHi > roHi || (aoHi === roHi && aoLo >= roLo)) return null;
  lo = roLo - aoLo;
  k = Math.floor(lo * INV32);
  MUL_DIV_ARGS[0] = riHi;
  MUL_DIV_ARGS[1] = riLo;
  MUL_DIV_ARGS[2] = aoHi;
  MUL_DIV_ARGS[3] = aoLo;
  MUL_DIV_ARGS[4] = roHi - aoHi + k;
  MUL_DIV_ARGS[5] = lo - k * TWO32;
  // ceil(rin * out / (rout - out)); past u64 the transfer cannot be made (the bigint path refuses it).
  if (!mulDivPair(true)) return null;
  const siHi = PAIR.hi;
  const siLo = PAIR.lo;
  const rate = onInput ? t + c : t;
  if (onInput && (rate === 0 || rate >= DEN)) return null;
  // inAmount = ceil(swappedIn * 1e6 / (1e6 - rate)): swappedIn itself for a zero rate; rate < 1e6.
  mulDivSmall(DEN, DEN - rate, true);
  const inHi = PAIR.hi;
  const inLo = PAIR.lo;
  if (inHi >= TWO32) return null;
  lo = inLo - siLo;
  k = Math.floor(lo * INV32);
  const feeHi = inHi - siHi + k;
  const feeLo = lo - k * TWO32;
  let trHi = feeHi;
  let trLo = feeLo;
  if (onInput) {
    PAIR.hi = feeHi;
    PAIR.lo = feeLo;
    mulDivSmall(c, rate, false);
    crHi = PAIR.hi;
    crLo = PAIR.lo;
    lo = feeLo - crLo;
    k = Math.floor(lo * INV32);
    trHi = feeHi - crHi + k;
    trLo = lo - k * TWO32;
  }
  lo = (aToB ? v.v0Lo : v.v1Lo) + inLo;
  k = Math.floor(lo * INV32);
  if ((aToB ? v.v0Hi : v.v1Hi) + inHi + k >= TWO32) return null;
  const swappedInBig = pairBig(siHi, siLo);
  const inBig = feeHi === 0 && feeLo === 0 ? swappedInBig : pairBig(inHi, inLo);
  const tradeBig = pairBig(trHi, trLo);
  const creatorBig = pairBig(crHi, crLo);
  const feeBig = feeHi === trHi && feeLo === trLo ? tradeBig : pairBig(feeHi, feeLo);
  const swappedOutBig = aoHi === oHi && aoLo === oLo ? amount : pairBig(aoHi, aoLo);
  PAIR.hi = trHi;
  PAIR.lo = trLo;
  return okSwap(inBig, amount, feeBig, tradeBig, creatorBig, v.p, v.f, onInput, swappedInBig, swappedOutBig);
}

/** A rate as an f64 integer when it is at most 1e6 (the fee range), else -1. */
function rateF64(rate: bigint): number {
  readU64(rate);
  return PAIR.hi === 0 && PAIR.lo <= DEN && rate >= 0n ? PAIR.lo : -1;
}

/** `swapBaseInput` for bigint arguments through {@link swapInPair}; null where it does not apply. */
export function swapBaseInputF64(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, rates: CpmmFeeRates, onInput: boolean): CpmmSwap | null {
  return fastSwap(true, amountIn, reserveIn, reserveOut, rates, onInput);
}

/** `swapBaseOutput` for bigint arguments through {@link swapOutPair}; null where it does not apply. */
export function swapBaseOutputF64(amountOut: bigint, reserveIn: bigint, reserveOut: bigint, rates: CpmmFeeRates, onInput: boolean): CpmmSwap | null {
  return fastSwap(false, amountOut, reserveIn, reserveOut, rates, onInput);
}

function fastSwap(exactIn: boolean, amount: bigint, reserveIn: bigint, reserveOut: bigint, rates: CpmmFeeRates, onInput: boolean): CpmmSwap | null {
  if (amount <= 0n || amount > U64_MAX || reserveIn <= 0n || reserveIn > U64_MAX || reserveOut <= 0n || reserveOut > U64_MAX) return null;
  const t = rateF64(rates.tradeFeeRate);
  const c = rateF64(rates.creatorFeeRate);
  const p = rateF64(rates.protocolFeeRate);
  const f = rateF64(rates.fundFeeRate);
  if (t < 0 || c < 0 || p < 0 || f < 0) return null;
  readU64(reserveIn);
  const r0Hi = PAIR.hi;
  const r0Lo = PAIR.lo;
  readU64(reserveOut);
  // A view of this one swap: token 0 is the input, no vault to check (0).
  const v: CpmmQuoteView = {
    fast: true, r0Hi, r0Lo, r1Hi: PAIR.hi, r1Lo: PAIR.lo, v0Hi: 0, v0Lo: 0, v1Hi: 0, v1Lo: 0, t, c, p, f,
    onInput01: onInput, onInput10: onInput,
  };
  return exactIn ? swapInPair(v, true, amount) : swapOutPair(v, true, amount);
}
