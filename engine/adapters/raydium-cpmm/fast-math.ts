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
import { mulDivPair } from '../common/u64-mul-div.js';
import { PAIR, TWO32, addPair, mulDivSmall, pairAtLeast, pairBig, readU64, subPair } from '../common/u64-pair.js';
import type { CpmmFeeRates, CpmmSwap } from './math.js';
import { cpmmSwap } from './swap-result.js';

/** The program's fee-rate denominator. */
const DEN = 1_000_000;

/** Largest u64: an amount above it is refused by the bigint path (no instruction carries it). */
const U64_MAX = 0xffff_ffff_ffff_ffffn;

/**
 * The protocol and fund shares of a trade fee and the result object: pairs are (hi, lo); `in`, `out` and the
 * curve's amounts come as bigints (the user's own amount where it is one of them: no new bigint).
 */
function okSwap(
  inBig: bigint, outBig: bigint, feeHi: number, feeLo: number, trHi: number, trLo: number, crHi: number, crLo: number,
  p: number, f: number, onInput: boolean, swappedInBig: bigint, swappedOutBig: bigint,
): CpmmSwap {
  const tradeBig = pairBig(trHi, trLo);
  const feeBig = feeHi === trHi && feeLo === trLo ? tradeBig : pairBig(feeHi, feeLo);
  let protocolBig = 0n;
  if (p !== 0 && (trHi !== 0 || trLo !== 0)) {
    mulDivSmall(trHi, trLo, p, DEN, false);
    protocolBig = PAIR.hi === trHi && PAIR.lo === trLo ? tradeBig : pairBig(PAIR.hi, PAIR.lo);
  }
  let fundBig = 0n;
  if (f !== 0 && (trHi !== 0 || trLo !== 0)) {
    mulDivSmall(trHi, trLo, f, DEN, false);
    fundBig = PAIR.hi === trHi && PAIR.lo === trLo ? tradeBig : pairBig(PAIR.hi, PAIR.lo);
  }
  return cpmmSwap(
    'OK', inBig, outBig, feeBig, tradeBig, pairBig(crHi, crLo), protocolBig, fundBig, onInput, swappedInBig, swappedOutBig,
  );
}

/**
 * `swapBaseInput` on pairs: `a` is the amount in (its bigint `amount`), `ri` / `ro` the reserves, `t`, `c`, `p`,
 * `f` the four rates (integers, at most 1e6), `v` the input vault (the transfer must not take it past u64; 0 when
 * there is none to check). Null where it does not apply (see the file header).
 */
export function swapInPair(
  aHi: number, aLo: number, amount: bigint, riHi: number, riLo: number, roHi: number, roLo: number,
  t: number, c: number, p: number, f: number, onInput: boolean, vHi: number, vLo: number,
): CpmmSwap | null {
  if ((aHi === 0 && aLo === 0) || (riHi === 0 && riLo === 0) || (roHi === 0 && roLo === 0) || t >= DEN || c >= DEN) return null;
  // The user's transfer into the input vault (the token program's Overflow): left to the bigint path.
  addPair(vHi, vLo, aHi, aLo);
  if (PAIR.hi >= TWO32) return null;
  let trHi: number;
  let trLo: number;
  let crHi = 0;
  let crLo = 0;
  let feeHi: number;
  let feeLo: number;
  if (onInput) {
    const rate = t + c;
    if (rate === 0 || rate >= DEN) return null;
    // One ceiling over the combined rate, then a floor split (the program's split_creator_fee).
    mulDivSmall(aHi, aLo, rate, DEN, true);
    feeHi = PAIR.hi;
    feeLo = PAIR.lo;
    if (c === 0) {
      trHi = feeHi;
      trLo = feeLo;
    } else {
      mulDivSmall(feeHi, feeLo, c, rate, false);
      crHi = PAIR.hi;
      crLo = PAIR.lo;
      subPair(feeHi, feeLo, crHi, crLo);
      trHi = PAIR.hi;
      trLo = PAIR.lo;
    }
  } else if (t === 0) {
    trHi = feeHi = 0;
    trLo = feeLo = 0;
  } else {
    mulDivSmall(aHi, aLo, t, DEN, true);
    trHi = feeHi = PAIR.hi;
    trLo = feeLo = PAIR.lo;
  }
  // The fee is at most the amount (rate < 1e6).
  subPair(aHi, aLo, feeHi, feeLo);
  const lessHi = PAIR.hi;
  const lessLo = PAIR.lo;
  addPair(riHi, riLo, lessHi, lessLo);
  // floor(less * rout / (rin + less)) < rout: always a u64.
  mulDivPair(lessHi, lessLo, roHi, roLo, PAIR.hi, PAIR.lo, false);
  const swHi = PAIR.hi;
  const swLo = PAIR.lo;
  let outHi = swHi;
  let outLo = swLo;
  if (!onInput && c !== 0) {
    mulDivSmall(swHi, swLo, c, DEN, true);
    crHi = PAIR.hi;
    crLo = PAIR.lo;
    subPair(swHi, swLo, crHi, crLo);
    outHi = PAIR.hi;
    outLo = PAIR.lo;
  }
  if (outHi === 0 && outLo === 0) return null;
  const outBig = pairBig(outHi, outLo);
  return okSwap(
    amount, outBig, feeHi, feeLo, trHi, trLo, crHi, crLo, p, f, onInput,
    feeHi === 0 && feeLo === 0 ? amount : pairBig(lessHi, lessLo),
    outHi === swHi && outLo === swLo ? outBig : pairBig(swHi, swLo),
  );
}

/** `swapBaseOutput` on pairs: `o` is the amount out (its bigint `amount`); the rest as {@link swapInPair}. */
export function swapOutPair(
  oHi: number, oLo: number, amount: bigint, riHi: number, riLo: number, roHi: number, roLo: number,
  t: number, c: number, p: number, f: number, onInput: boolean, vHi: number, vLo: number,
): CpmmSwap | null {
  if ((oHi === 0 && oLo === 0) || (riHi === 0 && riLo === 0) || (roHi === 0 && roLo === 0) || t >= DEN || c >= DEN) return null;
  let aoHi = oHi;
  let aoLo = oLo;
  let crHi = 0;
  let crLo = 0;
  if (!onInput && c !== 0) {
    // calculate_pre_fee_amount: ceil(out * 1e6 / (1e6 - rate)).
    mulDivSmall(oHi, oLo, DEN, DEN - c, true);
    aoHi = PAIR.hi;
    aoLo = PAIR.lo;
    subPair(aoHi, aoLo, oHi, oLo);
    crHi = PAIR.hi;
    crLo = PAIR.lo;
  }
  // The curve cannot be emptied (the program's checked_sub / ceil_div fail): left to the bigint path.
  if (pairAtLeast(aoHi, aoLo, roHi, roLo)) return null;
  subPair(roHi, roLo, aoHi, aoLo);
  // ceil(rin * out / (rout - out)); past u64 the transfer cannot be made (the bigint path refuses it).
  if (!mulDivPair(riHi, riLo, aoHi, aoLo, PAIR.hi, PAIR.lo, true)) return null;
  const siHi = PAIR.hi;
  const siLo = PAIR.lo;
  let inHi = siHi;
  let inLo = siLo;
  let feeHi = 0;
  let feeLo = 0;
  let trHi = 0;
  let trLo = 0;
  const rate = onInput ? t + c : t;
  if (onInput && (rate === 0 || rate >= DEN)) return null;
  if (rate !== 0) {
    mulDivSmall(siHi, siLo, DEN, DEN - rate, true);
    inHi = PAIR.hi;
    inLo = PAIR.lo;
    if (inHi >= TWO32) return null;
    subPair(inHi, inLo, siHi, siLo);
    trHi = feeHi = PAIR.hi;
    trLo = feeLo = PAIR.lo;
    if (onInput && c !== 0) {
      mulDivSmall(feeHi, feeLo, c, rate, false);
      crHi = PAIR.hi;
      crLo = PAIR.lo;
      subPair(feeHi, feeLo, crHi, crLo);
      trHi = PAIR.hi;
      trLo = PAIR.lo;
    }
  }
  addPair(vHi, vLo, inHi, inLo);
  if (PAIR.hi >= TWO32) return null;
  const swappedInBig = pairBig(siHi, siLo);
  return okSwap(
    feeHi === 0 && feeLo === 0 ? swappedInBig : pairBig(inHi, inLo), amount, feeHi, feeLo, trHi, trLo, crHi, crLo, p, f,
    onInput, swappedInBig, aoHi === oHi && aoLo === oLo ? amount : pairBig(aoHi, aoLo),
  );
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
  const riHi = PAIR.hi;
  const riLo = PAIR.lo;
  readU64(reserveOut);
  const roHi = PAIR.hi;
  const roLo = PAIR.lo;
  readU64(amount);
  return exactIn
    ? swapInPair(PAIR.hi, PAIR.lo, amount, riHi, riLo, roHi, roLo, t, c, p, f, onInput, 0, 0)
    : swapOutPair(PAIR.hi, PAIR.lo, amount, riHi, riLo, roHi, roLo, t, c, p, f, onInput, 0, 0);
}
