/**
 * One swap step of a Whirlpool, bit for bit the program's `compute_swap` step (as `@orca-so/whirlpools-core`
 * compiles it): token deltas over a square-root price range and the next price after an amount, in BigInt with
 * the program's 256-bit intermediates and u64 result checks, and the fee (`fee_rate` per 1e6).
 * An overflow the program reports as an error is returned as {@link MATH_ERROR}, never thrown.
 */
import { MAX_SQRT_PRICE_X64, MIN_SQRT_PRICE_X64 } from './tick-math.js';

/** Fee rate denominator: `fee_rate` is in hundredths of a basis point. */
export const FEE_RATE_DENOMINATOR = 1_000_000n;
/** Largest u64. */
export const U64_MAX = 0xffff_ffff_ffff_ffffn;
// The program's `checked_shl(64)` on a U256 checks only the shift count: bits shifted past 2^256 are dropped.
const U256_MASK = (1n << 256n) - 1n;
/** A result that the program would refuse (amount above u64, price out of bounds). */
export const MATH_ERROR = -1n;

/** Token A between two square-root prices (`get_amount_delta_a`), or {@link MATH_ERROR} above u64. */
export function amountDeltaA(p1: bigint, p2: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const lo = p1 < p2 ? p1 : p2;
  const hi = p1 < p2 ? p2 : p1;
  const numerator = ((liquidity * (hi - lo)) << 64n) & U256_MASK;
  const denominator = lo * hi;
  if (denominator === 0n) return MATH_ERROR;
  let q = numerator / denominator;
  if (roundUp && q * denominator !== numerator) q += 1n;
  return q > U64_MAX ? MATH_ERROR : q;
}

/** Token B between two square-root prices (`get_amount_delta_b`), or {@link MATH_ERROR} above u64. */
export function amountDeltaB(p1: bigint, p2: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const diff = p1 < p2 ? p2 - p1 : p1 - p2;
  const product = liquidity * diff;
  let q = product >> 64n;
  if (roundUp && (product & U64_MAX) !== 0n) q += 1n;
  return q > U64_MAX ? MATH_ERROR : q;
}

/** Square-root price after adding (input) or removing (output) `amount` of token A (rounded up), or {@link MATH_ERROR}. */
export function nextSqrtPriceFromA(sqrtPrice: bigint, liquidity: bigint, amount: bigint, specifiedInput: boolean): bigint {
  if (amount === 0n) return sqrtPrice;
  const p = sqrtPrice * amount;
  const numerator = ((liquidity * sqrtPrice) << 64n) & U256_MASK;
  const shifted = liquidity << 64n;
  const denominator = specifiedInput ? shifted + p : shifted - p;
  if (denominator <= 0n) return MATH_ERROR;
  let q = numerator / denominator;
  if (q * denominator !== numerator) q += 1n;
  return q < MIN_SQRT_PRICE_X64 || q > MAX_SQRT_PRICE_X64 ? MATH_ERROR : q;
}

/** Square-root price after adding (input) or removing (output) `amount` of token B, or {@link MATH_ERROR}. */
export function nextSqrtPriceFromB(sqrtPrice: bigint, liquidity: bigint, amount: bigint, specifiedInput: boolean): bigint {
  if (amount === 0n) return sqrtPrice;
  if (liquidity === 0n) return MATH_ERROR;
  const shifted = amount << 64n;
  let delta = shifted / liquidity;
  if (!specifiedInput && delta * liquidity !== shifted) delta += 1n;
  const r = specifiedInput ? sqrtPrice + delta : sqrtPrice - delta;
  return r < MIN_SQRT_PRICE_X64 || r > MAX_SQRT_PRICE_X64 ? MATH_ERROR : r;
}

/** `floor(amount * (1e6 - feeRate) / 1e6)`: what reaches the curve of an input (`try_apply_swap_fee`). */
export function applySwapFee(amount: bigint, feeRate: number): bigint {
  return (amount * (FEE_RATE_DENOMINATOR - BigInt(feeRate))) / FEE_RATE_DENOMINATOR;
}

/** `ceil(amount * 1e6 / (1e6 - feeRate))`: the input, fee included, that puts `amount` on the curve, or {@link MATH_ERROR}. */
export function reverseApplySwapFee(amount: bigint, feeRate: number): bigint {
  if (amount === 0n) return 0n;
  const d = FEE_RATE_DENOMINATOR - BigInt(feeRate);
  const n = amount * FEE_RATE_DENOMINATOR;
  let q = n / d;
  if (q * d !== n) q += 1n;
  return q > U64_MAX ? MATH_ERROR : q;
}

/** Result of one step; `nextSqrtPrice` is {@link MATH_ERROR} when the program would fail. */
export interface SwapStep {
  amountIn: bigint;
  amountOut: bigint;
  nextSqrtPrice: bigint;
  feeAmount: bigint;
}

function fixedDelta(cur: bigint, target: bigint, liquidity: bigint, aToB: boolean, specifiedInput: boolean): bigint {
  return aToB === specifiedInput ? amountDeltaA(cur, target, liquidity, specifiedInput) : amountDeltaB(cur, target, liquidity, specifiedInput);
}

function unfixedDelta(cur: bigint, target: bigint, liquidity: bigint, aToB: boolean, specifiedInput: boolean): bigint {
  return aToB === specifiedInput ? amountDeltaB(cur, target, liquidity, !specifiedInput) : amountDeltaA(cur, target, liquidity, !specifiedInput);
}

/**
 * One step towards `target` with `remaining` of the specified token left (`compute_swap_step`). Writes into `out`
 * (no allocation per step); `out.nextSqrtPrice` is {@link MATH_ERROR} when the program would fail.
 */
export function computeSwapStep(
  remaining: bigint, feeRate: number, liquidity: bigint, cur: bigint, target: bigint,
  aToB: boolean, specifiedInput: boolean, out: SwapStep,
): void {
  out.nextSqrtPrice = MATH_ERROR;
  const initialFixed = fixedDelta(cur, target, liquidity, aToB, specifiedInput);
  const initialOverflow = initialFixed === MATH_ERROR;
  const calculated = specifiedInput ? applySwapFee(remaining, feeRate) : remaining;
  let next: bigint;
  if (!initialOverflow && initialFixed <= calculated) {
    next = target;
  } else {
    next = aToB === specifiedInput
      ? nextSqrtPriceFromA(cur, liquidity, calculated, specifiedInput)
      : nextSqrtPriceFromB(cur, liquidity, calculated, specifiedInput);
    if (next === MATH_ERROR) return;
  }
  const isMax = next === target;
  const unfixed = unfixedDelta(cur, next, liquidity, aToB, specifiedInput);
  if (unfixed === MATH_ERROR) return;
  const fixed = !isMax || initialOverflow ? fixedDelta(cur, next, liquidity, aToB, specifiedInput) : initialFixed;
  if (fixed === MATH_ERROR) return;
  const amountIn = specifiedInput ? fixed : unfixed;
  let amountOut = specifiedInput ? unfixed : fixed;
  if (!specifiedInput && amountOut > remaining) amountOut = remaining;
  let fee: bigint;
  if (specifiedInput && !isMax) {
    fee = remaining - amountIn;
  } else {
    const pre = reverseApplySwapFee(amountIn, feeRate);
    if (pre === MATH_ERROR) return;
    fee = pre - amountIn;
  }
  out.amountIn = amountIn;
  out.amountOut = amountOut;
  out.feeAmount = fee;
  out.nextSqrtPrice = next;
}
