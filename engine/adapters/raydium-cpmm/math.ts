/**
 * Exact bigint port of the CPMM program's swap math (`programs/cp-swap/src/curve/{calculator,fees,
 * constant_product}.rs`) including the checks its swap instructions make around it. Pure, no I/O.
 *
 * Where the program and the SDK's `CurveCalculator` disagree, this follows the program:
 *  1. swap_base_input with the creator fee on the input side: the program takes ONE ceiling over the
 *     combined rate, `total = ceil(in * (trade + creator) / 1e6)`, and splits it with a floor,
 *     `creator = floor(total * creator / (trade + creator))`, `trade = total - creator`. The SDK takes two
 *     separate ceilings, so its total fee can be one atom higher (and its output one atom lower), and its
 *     trade/creator split can differ.
 *  2. creator fee on the input side with `trade + creator == 0`: the program's `split_creator_fee` divides
 *     by zero, returns None and the swap fails (ZeroTradingTokens), in both modes. The SDK's base-input
 *     path succeeds; its base-output path throws. We return INACTIVE.
 * `math.diff.test.ts` counts both cases separately and checks that they are explained by exactly this.
 *
 * `swapBaseInput` / `swapBaseOutput` take the fast path of `fast-math.ts` (u64 pairs on f64, exact for every u64)
 * when the swap succeeds, and this bigint port (`*Big`) otherwise; both give the same result.
 */
import { swapBaseInputF64, swapBaseOutputF64 } from './fast-math.js';
import { type CpmmSwap, cpmmSwap, failedSwap as failed } from './swap-result.js';

export type { CpmmSwap } from './swap-result.js';

/** Fee-rate denominator of the program (`FEE_RATE_DENOMINATOR_VALUE`): rates are in millionths. */
export const FEE_RATE_DENOMINATOR = 1_000_000n;
/** Largest u64. */
export const U64_MAX = 0xffff_ffff_ffff_ffffn;

/** The four rates of an AmmConfig as the swap uses them (per 1e6). */
export interface CpmmFeeRates {
  readonly tradeFeeRate: bigint;
  /** Effective creator rate: 0 when the pool's `enableCreatorFee` is false (`adjust_creator_fee_rate`). */
  readonly creatorFeeRate: bigint;
  readonly protocolFeeRate: bigint;
  readonly fundFeeRate: bigint;
}

const FEE_RATE_DENOMINATOR_LESS_ONE = FEE_RATE_DENOMINATOR - 1n;

/** ceil(amount * rate / 1e6): the program's `ceil_div` for fees (0 for a zero rate or amount, without arithmetic). */
function ceilFee(amount: bigint, rate: bigint): bigint {
  if (rate === 0n || amount === 0n) return 0n;
  return (amount * rate + FEE_RATE_DENOMINATOR_LESS_ONE) / FEE_RATE_DENOMINATOR;
}

/** floor(fee * rate / 1e6): the protocol and fund shares of the trade fee. */
function shareOf(fee: bigint, rate: bigint): bigint {
  return rate === 0n || fee === 0n ? 0n : (fee * rate) / FEE_RATE_DENOMINATOR;
}

/** ceil(post * 1e6 / (1e6 - rate)), `calculate_pre_fee_amount`; the caller guarantees rate < 1e6. */
function preFeeAmount(post: bigint, rate: bigint): bigint {
  if (rate === 0n) return post;
  const den = FEE_RATE_DENOMINATOR - rate;
  return (post * FEE_RATE_DENOMINATOR + den - 1n) / den;
}

/**
 * The program's swap_base_input: the user pays exactly `amountIn` and receives `outAmount`.
 * Statuses: ZERO_AMOUNT (no input, or an output that rounds to zero: the program's `require_gt!(amount
 * received, 0)`), INSUFFICIENT_LIQUIDITY (a zero reserve: the program divides by it), INACTIVE (a fee
 * configuration the program rejects for this swap).
 */
export function swapBaseInput(
  amountIn: bigint,
  reserveIn: bigint,
  reserveOut: bigint,
  rates: CpmmFeeRates,
  creatorFeeOnInput: boolean,
): CpmmSwap {
  return swapBaseInputF64(amountIn, reserveIn, reserveOut, rates, creatorFeeOnInput)
    ?? swapBaseInputBig(amountIn, reserveIn, reserveOut, rates, creatorFeeOnInput);
}

/** {@link swapBaseInput} in bigint only: the reference port, for every value up to u64 (and the tests). */
export function swapBaseInputBig(
  amountIn: bigint,
  reserveIn: bigint,
  reserveOut: bigint,
  rates: CpmmFeeRates,
  creatorFeeOnInput: boolean,
): CpmmSwap {
  if (amountIn <= 0n) return failed('ZERO_AMOUNT', creatorFeeOnInput, 0n, 0n);
  if (reserveIn <= 0n || reserveOut <= 0n) return failed('INSUFFICIENT_LIQUIDITY', creatorFeeOnInput, amountIn, 0n);
  const { tradeFeeRate, creatorFeeRate } = rates;
  let tradeFee: bigint;
  let creatorFee = 0n;
  let lessFees: bigint;
  if (creatorFeeOnInput) {
    const rate = tradeFeeRate + creatorFeeRate;
    // Program difference 2 (see the file header): split_creator_fee divides by trade + creator.
    if (rate === 0n) return failed('INACTIVE', true, amountIn, 0n);
    // Program difference 1: one ceiling over the combined rate, then a floor split.
    const total = ceilFee(amountIn, rate);
    if (total > amountIn) return failed('INACTIVE', true, amountIn, 0n);
    creatorFee = creatorFeeRate === 0n ? 0n : (total * creatorFeeRate) / rate;
    tradeFee = total - creatorFee;
    lessFees = amountIn - total;
  } else {
    tradeFee = ceilFee(amountIn, tradeFeeRate);
    if (tradeFee > amountIn) return failed('INACTIVE', false, amountIn, 0n);
    lessFees = amountIn - tradeFee;
  }
  // reserveIn > 0, so the denominator is never zero.
  const swapped = (lessFees * reserveOut) / (reserveIn + lessFees);
  let out = swapped;
  if (!creatorFeeOnInput) {
    creatorFee = ceilFee(swapped, creatorFeeRate);
    if (creatorFee > swapped) return failed('INACTIVE', false, amountIn, 0n);
    out = swapped - creatorFee;
  }
  if (out === 0n) return failed('ZERO_AMOUNT', creatorFeeOnInput, amountIn, 0n);
  return okSwap(amountIn, out, tradeFee, creatorFee, rates, creatorFeeOnInput, lessFees, swapped);
}

/**
 * The program's swap_base_output: the user receives exactly `amountOut` and pays `inAmount`.
 * Statuses: ZERO_AMOUNT (no output asked), INSUFFICIENT_LIQUIDITY (a zero reserve, an output plus
 * output-side creator fee that reaches the reserve, or a required input above u64), INACTIVE (a fee
 * configuration the program rejects).
 */
export function swapBaseOutput(
  amountOut: bigint,
  reserveIn: bigint,
  reserveOut: bigint,
  rates: CpmmFeeRates,
  creatorFeeOnInput: boolean,
): CpmmSwap {
  return swapBaseOutputF64(amountOut, reserveIn, reserveOut, rates, creatorFeeOnInput)
    ?? swapBaseOutputBig(amountOut, reserveIn, reserveOut, rates, creatorFeeOnInput);
}

/** {@link swapBaseOutput} in bigint only: the reference port, for every value up to u64 (and the tests). */
export function swapBaseOutputBig(
  amountOut: bigint,
  reserveIn: bigint,
  reserveOut: bigint,
  rates: CpmmFeeRates,
  creatorFeeOnInput: boolean,
): CpmmSwap {
  if (amountOut <= 0n) return failed('ZERO_AMOUNT', creatorFeeOnInput, 0n, 0n);
  if (reserveIn <= 0n || reserveOut <= 0n) return failed('INSUFFICIENT_LIQUIDITY', creatorFeeOnInput, 0n, amountOut);
  const { tradeFeeRate, creatorFeeRate } = rates;
  let creatorFee = 0n;
  let actualOut = amountOut;
  if (!creatorFeeOnInput) {
    // calculate_pre_fee_amount fails (checked_sub / div by zero) when the rate reaches the denominator.
    if (creatorFeeRate >= FEE_RATE_DENOMINATOR) return failed('INACTIVE', false, 0n, amountOut);
    actualOut = preFeeAmount(amountOut, creatorFeeRate);
    creatorFee = actualOut - amountOut;
  }
  // The program's checked_sub / checked_ceil_div panic when the curve would be emptied or overdrawn.
  if (actualOut >= reserveOut) return failed('INSUFFICIENT_LIQUIDITY', creatorFeeOnInput, 0n, amountOut);
  const num = reserveIn * actualOut;
  const den = reserveOut - actualOut;
  let swappedIn = num / den;
  if (swappedIn * den !== num) swappedIn += 1n;
  // The input is transferred as a u64 (and the pre-fee step would overflow u128 far above that).
  if (swappedIn > U64_MAX) return failed('INSUFFICIENT_LIQUIDITY', creatorFeeOnInput, 0n, amountOut);
  let tradeFee: bigint;
  let inAmount: bigint;
  if (creatorFeeOnInput) {
    const rate = tradeFeeRate + creatorFeeRate;
    // Program difference 2: the split divides by trade + creator; >= 1e6 makes the pre-fee step fail.
    if (rate === 0n || rate >= FEE_RATE_DENOMINATOR) return failed('INACTIVE', true, 0n, amountOut);
    inAmount = preFeeAmount(swappedIn, rate);
    const total = inAmount - swappedIn;
    creatorFee = (total * creatorFeeRate) / rate;
    tradeFee = total - creatorFee;
  } else {
    if (tradeFeeRate >= FEE_RATE_DENOMINATOR) return failed('INACTIVE', false, 0n, amountOut);
    inAmount = preFeeAmount(swappedIn, tradeFeeRate);
    tradeFee = inAmount - swappedIn;
  }
  if (inAmount > U64_MAX) return failed('INSUFFICIENT_LIQUIDITY', creatorFeeOnInput, 0n, amountOut);
  return okSwap(inAmount, amountOut, tradeFee, creatorFee, rates, creatorFeeOnInput, swappedIn, actualOut);
}

/**
 * Whether the creator fee is taken from the input for a swap in this direction (`is_creator_fee_on_input`):
 * creatorFeeOn 0 = both tokens (always the input), 1 = token 0 only, 2 = token 1 only.
 * Any other value makes the program fail (`InvalidFeeModel`); callers treat the pool as inactive.
 */
export function isCreatorFeeOnInput(creatorFeeOn: number, zeroForOne: boolean): boolean {
  return creatorFeeOn === 0 || (creatorFeeOn === 1 && zeroForOne) || (creatorFeeOn === 2 && !zeroForOne);
}

/** A successful swap: the fee split the program books (protocol and fund fees are floor shares of the trade fee). */
function okSwap(
  inAmount: bigint,
  outAmount: bigint,
  tradeFee: bigint,
  creatorFee: bigint,
  rates: CpmmFeeRates,
  creatorFeeOnInput: boolean,
  swappedIn: bigint,
  swappedOut: bigint,
): CpmmSwap {
  const feeAmount = creatorFeeOnInput ? tradeFee + creatorFee : tradeFee;
  return cpmmSwap(
    'OK', inAmount, outAmount, feeAmount, tradeFee, creatorFee,
    shareOf(tradeFee, rates.protocolFeeRate), shareOf(tradeFee, rates.fundFeeRate),
    creatorFeeOnInput, swappedIn, swappedOut,
  );
}
