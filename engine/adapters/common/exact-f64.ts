/**
 * Exact integer arithmetic on f64 for the quote fast paths: values are non-negative integers below 2^53 (every
 * one of them exactly representable), products up to 2^106 are kept exact as a (rounded product, error) pair
 * (Dekker's two-product with Veltkamp's split), and `floor(a * b / c)` / `ceil(a * b / c)` are exact, checked
 * against that exact product, not estimated. A function that cannot answer exactly within these bounds returns
 * {@link NO_F64} and the caller takes its bigint path, so the fast path never trades exactness for speed.
 *
 * Why the shortcut `Math.floor(p / c)` is exact when `p = a * b < 2^53`: p is then the exact product, and for
 * integers p < 2^53 and c >= 1 the correctly rounded quotient p / c is off p / c by at most p * 2^-53 < 1 / c
 * relative to c, less than the distance from a non-integer p / c to the next integer ((c - r) / c, r the
 * remainder), so it never rounds across an integer; an integer quotient is exact.
 */

/** 2^53: every integer below it is exact in f64. */
export const TWO53 = 9_007_199_254_740_992;
/** 2^53 as a bigint. */
export const TWO53_BIG = 9_007_199_254_740_992n;
/** Returned where the f64 path cannot answer exactly (the caller falls back to bigint). */
export const NO_F64 = -1;

/** Veltkamp's splitter for binary64: 2^27 + 1. */
const SPLITTER = 134_217_729;

/**
 * The exact error `a * b - fl(a * b)` of the rounded product `p = fl(a * b)` (Dekker's two-product), for
 * integers 0 <= a, b < 2^53: a * b = p + err exactly, and err is an integer of magnitude <= ulp(p) / 2.
 */
export function productError(a: number, b: number, p: number): number {
  let t = SPLITTER * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLITTER * b;
  const bh = t - (t - b);
  const bl = b - bh;
  return ah * bh - p + ah * bl + al * bh + al * bl;
}

/**
 * True when q * c <= p + e (the exact product p + e of {@link productError}), q, c integers < 2^53. Exact: the
 * rounded products compare as the exact ones do (rounding is monotonic), and on a tie the errors decide.
 */
function productAtMost(q: number, c: number, p: number, e: number): boolean {
  const p2 = q * c;
  if (p2 !== p) return p2 < p;
  return productError(q, c, p2) <= e;
}

/** Below this, a remainder of a few divisors stays below 2^53 (the direct remainder of {@link mulDivFloor}). */
const REMAINDER_DIVISOR = 2 ** 50;
/** Below this a divisor's square is below 2^53 (the small-divisor split of {@link mulDivFloor}). */
const SMALL_DIVISOR = 67_108_864;

/**
 * floor(a * b / c) for integers 0 <= a, b < 2^53 and 1 <= c < 2^53, exactly; {@link NO_F64} when the quotient
 * is 2^53 - 16 or more (the caller's bigint path handles it).
 *
 * Three cases: a product below 2^53 is exact (the file header's shortcut); a divisor below 2^26 (fee
 * denominators and rates) splits b = bq * c + br and a = ah * c + al, so a * b / c = a * bq + ah * br + al * br / c
 * with al * br < c^2 < 2^52: every term exact; otherwise the float quotient is corrected against the exact
 * two-product.
 */
export function mulDivFloor(a: number, b: number, c: number): number {
  const p = a * b;
  // The common case stays small enough for the engine to inline; the wide cases are a call.
  return p < TWO53 ? Math.floor(p / c) : mulDivFloorWide(a, b, c, p);
}

/** {@link mulDivFloor} for a product p = fl(a * b) of 2^53 or more. */
function mulDivFloorWide(a: number, b: number, c: number, p: number): number {
  if (c < SMALL_DIVISOR) {
    const bq = Math.floor(b / c);
    const br = b - bq * c;
    const ah = Math.floor(a / c);
    const q = a * bq + ah * br + Math.floor(((a - ah * c) * br) / c);
    return q < TWO53 - 16 ? q : NO_F64;
  }
  let q = Math.floor(p / c);
  // The float quotient is within a few units of the true one (two roundings of 2^-53 each on a value < 2^53).
  if (q >= TWO53 - 8) return NO_F64;
  const e = productError(a, b, p);
  if (c < REMAINDER_DIVISOR) {
    // The remainder a * b - q * c = (p - p2) + (e - e2), each part exact: p2 = fl(q * c) is within a few c of p
    // (Sterbenz: p - p2 exact), |e|, |e2| <= ulp(p) / 2 <= 2^52 (so e - e2 is an integer of at most 2^53), and the
    // remainder itself is below a few c < 2^53 in magnitude (so the sum is exact too).
    const p2 = q * c;
    const r = p - p2 + (e - productError(q, c, p2));
    return q + Math.floor(r / c);
  }
  while (q > 0 && !productAtMost(q, c, p, e)) q--;
  while (productAtMost(q + 1, c, p, e)) q++;
  return q;
}

/** ceil(a * b / c) for integers 0 <= a, b < 2^53 and 1 <= c < 2^53, exactly; {@link NO_F64} at 2^53 - 16 or more. */
export function mulDivCeil(a: number, b: number, c: number): number {
  const p = a * b;
  if (p >= TWO53) return mulDivCeilWide(a, b, c, p);
  const q = Math.floor(p / c);
  // q * c <= p < 2^53: exact.
  return q * c === p ? q : q + 1;
}

/** {@link mulDivCeil} for a product p = fl(a * b) of 2^53 or more. */
function mulDivCeilWide(a: number, b: number, c: number, p: number): number {
  const q = mulDivFloorWide(a, b, c, p);
  if (q === NO_F64) return NO_F64;
  if (c < SMALL_DIVISOR) {
    // Exact iff the last term's division was: (al * br) a multiple of c, as b = bq * c + br, a = ah * c + al.
    const bq = Math.floor(b / c);
    const br = b - bq * c;
    const rem = ((a - Math.floor(a / c) * c) * br) % c;
    return rem === 0 ? q : q + 1;
  }
  const p2 = q * c;
  if (p2 === p && productError(q, c, p2) === productError(a, b, p)) return q;
  return q + 1 >= TWO53 ? NO_F64 : q + 1;
}

/**
 * floor(n / d) and ceil(n / d) for integers 0 <= n < 2^53, 1 <= d < 2^53 (the shortcut of the file header).
 */
export function divFloor(n: number, d: number): number {
  return Math.floor(n / d);
}

/** ceil(n / d) for integers 0 <= n < 2^53, 1 <= d < 2^53. */
export function divCeil(n: number, d: number): number {
  const q = Math.floor(n / d);
  return q * d === n ? q : q + 1;
}

/** The value of a bigint as an f64 when it is an integer in [0, 2^53), else {@link NO_F64}. */
export function smallF64(x: bigint): number {
  return x >= 0n && x < TWO53_BIG ? Number(x) : NO_F64;
}

const U64_WORD = new BigUint64Array(1);
const U32_HALVES = new Uint32Array(U64_WORD.buffer);
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
const LO = LITTLE_ENDIAN ? 0 : 1;
const HI = 1 - LO;

/**
 * The value of a u64 (0 <= x < 2^64: an amount already checked against u64, or an account's u64 field) as an f64
 * when it is below 2^53, else {@link NO_F64}. `Number(x)` is a runtime call of about 15 ns here; storing x into
 * a BigUint64Array and reading its two 32-bit halves is about 2 ns and allocates nothing. A negative x reads as
 * x + 2^64 (>= 2^53: NO_F64); the caller must not pass x >= 2^64, which would read as x mod 2^64.
 */
export function u64F64(x: bigint): number {
  U64_WORD[0] = x;
  const hi = U32_HALVES[HI]!;
  return hi < 2_097_152 ? hi * 4_294_967_296 + U32_HALVES[LO]! : NO_F64;
}

/**
 * The bigint of an integer 0 <= n < 2^53. `BigInt(n)` of a number the engine holds as a double (every result of
 * float arithmetic, small or not) is a runtime call of about 25 ns here; writing n's two 32-bit halves into the
 * same 8 bytes and reading them back as one u64 is about 9 ns (one allocation, the bigint itself).
 */
export function toBig(n: number): bigint {
  U32_HALVES[LO] = n >>> 0;
  U32_HALVES[HI] = (n / 4_294_967_296) >>> 0;
  return U64_WORD[0]!;
}
