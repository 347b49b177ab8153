/**
 * Exact bigint port of the DBC program's curve primitives (`curve.rs`, `u128x128_math.rs`): token deltas over a
 * sqrt-price range at constant liquidity and the next sqrt price after an input or output, Q64.64 prices,
 * U256/U512 intermediates. A failure the program raises (an overflow, a u64 cast, a failed assert) is returned as
 * the program's error name instead of a value; callers check `typeof r === 'string'`.
 */

/** Names of the program errors a quote can end in (IDL 0.2.1 error names). */
export type DbcError =
  | 'MathOverflow'
  | 'TypeCastFailed'
  | 'InsufficientLiquidity'
  | 'AmountLeftIsNotZero'
  | 'AmountIsZero'
  | 'PoolIsCompleted'
  | 'UndeterminedError';

/** Largest u64. */
export const U64_MAX = 0xffff_ffff_ffff_ffffn;
/** Largest u128. */
export const U128_MAX = (1n << 128n) - 1n;
/** Largest U256. */
export const U256_MAX = (1n << 256n) - 1n;
/** 1.0 in Q64.64. */
export const ONE_Q64 = 1n << 64n;

/** `mul_div_u256`: x * y / d (U512 product), rounded up or down; null on d = 0 or a result above U256. */
export function mulDivU256(x: bigint, y: bigint, d: bigint, up: boolean): bigint | null {
  if (d === 0n) return null;
  const prod = x * y;
  // ceil(prod / d) as (prod + d - 1) / d: one addition instead of multiplying the quotient back (x, y, d >= 0).
  const q = up ? (prod + d - 1n) / d : prod / d;
  return q > U256_MAX ? null : q;
}

/** `get_delta_amount_base_unsigned_256`: liquidity * (upper - lower) / (lower * upper), as U256. */
export function deltaBase256(lower: bigint, upper: bigint, liquidity: bigint, up: boolean): bigint | DbcError {
  // `upper_sqrt_price - lower_sqrt_price` on u128 and `assert!(denominator > 0)` panic in the program.
  if (upper < lower) return 'MathOverflow';
  const den = lower * upper;
  if (den === 0n) return 'MathOverflow';
  return mulDivU256(liquidity, upper - lower, den, up) ?? 'MathOverflow';
}

/** `get_delta_amount_base_unsigned`: as {@link deltaBase256}, which must fit a u64 (else MathOverflow). */
export function deltaBase(lower: bigint, upper: bigint, liquidity: bigint, up: boolean): bigint | DbcError {
  const r = deltaBase256(lower, upper, liquidity, up);
  if (typeof r === 'string') return r;
  return r > U64_MAX ? 'MathOverflow' : r;
}

/** `get_delta_amount_quote_unsigned_256`: liquidity * (upper - lower) >> 128, rounded up or down. */
export function deltaQuote256(lower: bigint, upper: bigint, liquidity: bigint, up: boolean): bigint | DbcError {
  if (upper < lower) return 'MathOverflow';
  const prod = liquidity * (upper - lower);
  // Rounded up as (prod + 2^128 - 1) >> 128 (prod >= 0).
  return up ? (prod + U128_MAX) >> 128n : prod >> 128n;
}

/** `get_delta_amount_quote_unsigned`: as {@link deltaQuote256}, which must fit a u64 (else MathOverflow). */
export function deltaQuote(lower: bigint, upper: bigint, liquidity: bigint, up: boolean): bigint | DbcError {
  const r = deltaQuote256(lower, upper, liquidity, up);
  if (typeof r === 'string') return r;
  return r > U64_MAX ? 'MathOverflow' : r;
}

/**
 * `get_next_sqrt_price_from_input`: base in moves the price down (rounded up), quote in moves it up (rounded
 * down). The program asserts a positive price and liquidity (a panic: reported as MathOverflow).
 */
export function nextSqrtPriceFromInput(sqrtPrice: bigint, liquidity: bigint, amountIn: bigint, baseForQuote: boolean): bigint | DbcError {
  if (sqrtPrice <= 0n || liquidity <= 0n) return 'MathOverflow';
  if (baseForQuote) {
    if (amountIn === 0n) return sqrtPrice;
    // Always the U256 form sqrt * L / (L + x * sqrt), rounded up (the SDK switches forms above u128).
    const r = mulDivU256(liquidity, sqrtPrice, liquidity + amountIn * sqrtPrice, true);
    if (r === null) return 'MathOverflow';
    return r > U128_MAX ? 'TypeCastFailed' : r;
  }
  const r = sqrtPrice + (amountIn << 128n) / liquidity;
  return r > U128_MAX ? 'TypeCastFailed' : r;
}

/**
 * `get_next_sqrt_price_from_output`: quote out moves the price down (sqrt - ceil(out << 128 / L)), base out moves
 * it up (sqrt * L / (L - out * sqrt), rounded up).
 */
export function nextSqrtPriceFromOutput(sqrtPrice: bigint, liquidity: bigint, amountOut: bigint, baseForQuote: boolean): bigint | DbcError {
  if (sqrtPrice <= 0n || liquidity <= 0n) return 'MathOverflow';
  if (baseForQuote) {
    // ceil((out << 128) / L), liquidity > 0.
    const quotient = ((amountOut << 128n) + liquidity - 1n) / liquidity;
    const r = sqrtPrice - quotient;
    return r < 0n ? 'MathOverflow' : r;
  }
  if (amountOut === 0n) return sqrtPrice;
  const den = liquidity - amountOut * sqrtPrice;
  if (den < 0n) return 'MathOverflow';
  const r = mulDivU256(liquidity, sqrtPrice, den, true);
  if (r === null || r > U128_MAX) return 'TypeCastFailed';
  return r;
}
