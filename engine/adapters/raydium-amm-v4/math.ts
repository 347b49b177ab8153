/**
 * Exact bigint port of the AMM v4 program's swap math (`processor.rs` process_swap_base_in/_out and `math.rs`
 * Calculator::swap_token_amount_base_in/_out, CheckedCeilDiv) including the checks that fail the swap after the
 * math. U128 intermediates: every product here is of two u64 values and fits, except `swap_in_before_add_fee *
 * swap_fee_denominator` in base-out, whose overflow (a panic) implies an input above u64 anyway.
 *
 * Fee: `swap_fee = ceil(amount_in * swap_fee_numerator / swap_fee_denominator)` on the input; base-out grosses
 * up with `ceil(in * den / (den - num))`. Both ceilings are plain (the 2025 `checked_ceil_div`, not the older
 * SPL token-swap variant).
 */
import type { QuoteResult, QuoteStatus } from '../types.js';

/** Largest u64. */
export const U64_MAX = 0xffff_ffff_ffff_ffffn;
const U128_MAX = (1n << 128n) - 1n;

/**
 * Which of the program's checks a failed swap hits, for callers that report the program's own error
 * (the localnet): `InvalidInput` (zero output or input), `InsufficientFunds` (output reaches the reserve),
 * `Panic` (a checked operation unwrapped on None: bad fee fraction, division by zero, u128 or u64 overflow),
 * `TokenOverflow` (the token program's transfer into the input vault would take it above u64).
 */
export type AmmV4Failure = 'InvalidInput' | 'InsufficientFunds' | 'Panic' | 'TokenOverflow';

/** Result of one AMM v4 swap computation: a {@link QuoteResult} plus the swap fee and the failing check. */
export interface AmmV4Swap extends QuoteResult {
  /** The swap fee in input atoms (base-in: `swap_fee`; base-out: `in - swap_in_before_add_fee`). */
  readonly swapFee: bigint;
  /** The program check that fails the swap, or null when it is OK. */
  readonly failure: AmmV4Failure | null;
}

function failed(status: QuoteStatus, failure: AmmV4Failure, inAmount: bigint, outAmount: bigint): AmmV4Swap {
  return { status, inAmount, outAmount, feeAmount: 0n, feeOnInput: true, swapFee: 0n, failure };
}

function ok(inAmount: bigint, outAmount: bigint, swapFee: bigint): AmmV4Swap {
  return { status: 'OK', inAmount, outAmount, feeAmount: swapFee, feeOnInput: true, swapFee, failure: null };
}

/** ceil(a / b) for b > 0. */
function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return q * b === a ? q : q + 1n;
}

/**
 * The program's swap_base_in on the quotable reserves (vault minus need_take_pnl): the user pays `amountIn`.
 * Statuses: INACTIVE (a fee fraction the program's math panics on), ZERO_AMOUNT (output rounds to 0: the
 * program's InvalidInput), INSUFFICIENT_LIQUIDITY (output reaches the reserve, or a division by a zero pool).
 * Slippage (`minimum_amount_out`) is the caller's business: the program checks it before the last two.
 */
export function swapBaseIn(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, feeNumerator: bigint, feeDenominator: bigint): AmmV4Swap {
  // checked_ceil_div by a zero denominator returns None -> unwrap panics.
  if (feeDenominator === 0n) return failed('INACTIVE', 'Panic', amountIn, 0n);
  const swapFee = ceilDiv(amountIn * feeNumerator, feeDenominator);
  // U128::checked_sub(amount_in, swap_fee).unwrap() panics when the fee exceeds the input (num > den).
  if (swapFee > amountIn) return failed('INACTIVE', 'Panic', amountIn, 0n);
  const afterFee = amountIn - swapFee;
  const denominator = reserveIn + afterFee;
  if (denominator === 0n) return failed('INSUFFICIENT_LIQUIDITY', 'Panic', amountIn, 0n);
  const out = (reserveOut * afterFee) / denominator;
  if (out === 0n || amountIn === 0n) return failed('ZERO_AMOUNT', 'InvalidInput', amountIn, 0n);
  // Only with an empty input reserve: out == reserveOut.
  if (out >= reserveOut) return failed('INSUFFICIENT_LIQUIDITY', 'InsufficientFunds', amountIn, 0n);
  return ok(amountIn, out, swapFee);
}

/**
 * The program's swap_base_out: the user receives exactly `amountOut` and pays
 * `ceil(ceil(reserveIn * out / (reserveOut - out)) * den / (den - num))`.
 * Statuses: INACTIVE (a fee fraction the program panics on: den <= num), ZERO_AMOUNT (no output asked),
 * INSUFFICIENT_LIQUIDITY (output at or above the reserve: the program's checked_sub/ceil_div panic; a required
 * input above u64: `as_u64` panics; an empty input reserve: the input rounds to 0, InvalidInput).
 */
export function swapBaseOut(amountOut: bigint, reserveIn: bigint, reserveOut: bigint, feeNumerator: bigint, feeDenominator: bigint): AmmV4Swap {
  if (amountOut >= reserveOut) return failed('INSUFFICIENT_LIQUIDITY', 'Panic', 0n, amountOut);
  const beforeFee = ceilDiv(reserveIn * amountOut, reserveOut - amountOut);
  // swap_fee_denominator.checked_sub(numerator).unwrap(), then checked_ceil_div by it: both fail for den <= num.
  if (feeDenominator <= feeNumerator) return failed('INACTIVE', 'Panic', 0n, amountOut);
  const grossed = beforeFee * feeDenominator;
  if (grossed > U128_MAX) return failed('INSUFFICIENT_LIQUIDITY', 'Panic', 0n, amountOut);
  const inAmount = ceilDiv(grossed, feeDenominator - feeNumerator);
  if (inAmount > U64_MAX) return failed('INSUFFICIENT_LIQUIDITY', 'Panic', 0n, amountOut);
  if (amountOut === 0n) return failed('ZERO_AMOUNT', 'InvalidInput', inAmount, 0n);
  if (inAmount === 0n) return failed('INSUFFICIENT_LIQUIDITY', 'InvalidInput', 0n, amountOut);
  return ok(inAmount, amountOut, inAmount - beforeFee);
}
