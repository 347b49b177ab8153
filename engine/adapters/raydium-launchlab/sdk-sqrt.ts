/**
 * The integer square root exactly as the SDK's linear curve takes it:
 * `new BN(new Decimal(n.toString()).sqrt().toFixed(0))` with decimal.js defaults (20 significant digits,
 * ROUND_HALF_UP). decimal.js rounds the root correctly to 20 significant digits, then `toFixed(0)` rounds that
 * half-up to an integer: a double rounding that, for roots of 19-20 digits, rounds up from a fraction of .45.
 * The program's own rounding is not public (see the README); this mirrors the SDK bit for bit.
 */

/** Significant digits of decimal.js's default `precision`. */
export const SDK_DECIMAL_PRECISION = 20;

/** Below 2^104 the f64 square root of `Number(n)` is within one of the integer root (53-bit rounding twice). */
const F64_ROOT_EXACT_BELOW = 1n << 104n;
/** Below 2^200 one Newton step from the f64 root leaves less than one unit (root * 2^-105 error, root < 2^100). */
const ONE_NEWTON_STEP_BELOW = 1n << 200n;

/**
 * floor(sqrt(n)) for n >= 0. Below 2^104 the f64 root is within one unit and two bigint squares settle it; below
 * 2^200, one Newton step from the f64 root (53 correct bits) leaves less than one unit and the same settling
 * follows; above, Newton steps until they stop moving. The settling loops make the result exact whatever the
 * estimate.
 */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  if (n >= ONE_NEWTON_STEP_BELOW) {
    for (;;) {
      const y = (x + n / x) >> 1n;
      if (y >= x - 1n && y <= x + 1n) { x = y; break; }
      x = y;
    }
  } else if (n >= F64_ROOT_EXACT_BELOW) x = (x + n / x) >> 1n;
  while (x * x > n) x -= 1n;
  for (let y = x + 1n; y * y <= n; y += 1n) x = y;
  return x;
}

/** 10^k for k in 0..(2 * 80): the exponents the SDK's rounding needs, precomputed (no bigint power per quote). */
const POW10: readonly bigint[] = Array.from({ length: 161 }, (_v, k) => 10n ** BigInt(k));

function pow10(k: number): bigint {
  return POW10[k] ?? 10n ** BigInt(k);
}

/** Number of decimal digits of x >= 1 (the float log10 guess corrected against the exact powers of ten). */
function decimalDigits(x: bigint): number {
  let d = Math.floor(Math.log10(Number(x))) + 1;
  if (d < 1) d = 1;
  while (d > 1 && x < pow10(d - 1)) d--;
  while (x >= pow10(d)) d++;
  return d;
}

/** The SDK's rounded square root of `n` (n >= 0). */
export function sdkSqrt(n: bigint): bigint {
  if (n <= 0n) return 0n;
  const floorRoot = isqrt(n);
  const digits = decimalDigits(floorRoot);
  // p = decimal places kept by the first rounding (negative: the root is rounded to a multiple of 10^-p).
  const p = SDK_DECIMAL_PRECISION - digits;
  let k: bigint;
  if (p >= 0) {
    const m = n * pow10(2 * p);
    k = isqrt(m);
    // Half-up on sqrt(m): round up when sqrt(m) >= k + 1/2, i.e. 4m >= (2k + 1)^2.
    const twoK1 = 2n * k + 1n;
    if (4n * m >= twoK1 * twoK1) k += 1n;
    const unit = pow10(p);
    const q = k / unit;
    return 2n * (k - q * unit) >= unit ? q + 1n : q;
  }
  const unit2 = pow10(-2 * p);
  k = isqrt(n / unit2);
  const twoK1 = 2n * k + 1n;
  if (4n * n >= twoK1 * twoK1 * unit2) k += 1n;
  return k * pow10(-p);
}
