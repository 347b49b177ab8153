/**
 * The integer square root exactly as the SDK's linear curve takes it:
 * `new BN(new Decimal(n.toString()).sqrt().toFixed(0))` with decimal.js defaults (20 significant digits,
 * ROUND_HALF_UP). decimal.js rounds the root correctly to 20 significant digits, then `toFixed(0)` rounds that
 * half-up to an integer: a double rounding that, for roots of 19-20 digits, rounds up from a fraction of .45.
 * The program's own rounding is not public (see the README); this mirrors the SDK bit for bit.
 */

/** Significant digits of decimal.js's default `precision`. */
export const SDK_DECIMAL_PRECISION = 20;

/** floor(sqrt(n)) for n >= 0 (Newton on bigint). */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  // The float seed is within a few ulps; settle with Newton steps, then fix the last unit.
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x - 1n && y <= x + 1n) { x = y; break; }
    x = y;
  }
  while (x * x > n) x -= 1n;
  while ((x + 1n) * (x + 1n) <= n) x += 1n;
  return x;
}

function pow10(k: number): bigint {
  return 10n ** BigInt(k);
}

/** The SDK's rounded square root of `n` (n >= 0). */
export function sdkSqrt(n: bigint): bigint {
  if (n <= 0n) return 0n;
  const floorRoot = isqrt(n);
  const digits = floorRoot.toString().length;
  // p = decimal places kept by the first rounding (negative: the root is rounded to a multiple of 10^-p).
  const p = SDK_DECIMAL_PRECISION - digits;
  let k: bigint;
  if (p >= 0) {
    const m = n * pow10(2 * p);
    k = isqrt(m);
    // Half-up on sqrt(m): round up when sqrt(m) >= k + 1/2, i.e. 4m >= (2k + 1)^2.
    if (4n * m >= (2n * k + 1n) * (2n * k + 1n)) k += 1n;
    const unit = pow10(p);
    const q = k / unit;
    return 2n * (k % unit) >= unit ? q + 1n : q;
  }
  const unit2 = pow10(-2 * p);
  k = isqrt(n / unit2);
  if (4n * n >= (2n * k + 1n) * (2n * k + 1n) * unit2) k += 1n;
  return k * pow10(-p);
}
