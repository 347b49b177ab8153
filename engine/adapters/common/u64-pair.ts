/**
 * u64 arithmetic without bigint: a value is a pair of f64 integers, `hi * 2^32 + lo` with `0 <= lo < 2^32` (and
 * `hi < 2^32` for a u64; some results allow `hi` a little past it, as noted). Every operation here is exact: its
 * intermediate values are integers below 2^53, where f64 arithmetic is exact, and a quotient `Math.floor(n / d)`
 * of integers `n < 2^53`, `d >= 1` is exact (see `exact-f64.ts`). Results go to {@link PAIR} (no allocation);
 * the caller copies `PAIR.hi` / `PAIR.lo` out before the next call.
 *
 * Why a shared object rather than arguments and return values: a call that the engine does not inline passes an
 * f64 that is not a small integer (half of all `lo` halves are 2^31 or more) as a freshly allocated heap number,
 * and a function returns one value. Fields of one object that only ever holds numbers are stored unboxed.
 *
 * The wide product-quotient `floor/ceil(a * b / d)` with a 128-bit product is in `u64-mul-div.ts`.
 */

/** 2^32, the weight of `hi`. */
export const TWO32 = 4_294_967_296;

/** The result of the last pair operation (one shared object: read it before the next call). */
export const PAIR = { hi: 0, lo: 0 };

const WORD = new BigUint64Array(1);
const HALVES = new Uint32Array(WORD.buffer);
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
const LO = LITTLE_ENDIAN ? 0 : 1;
const HI = 1 - LO;

/** Small bigints handed out without allocating (the same values `BigInt(i)` gives). */
const SMALL_BIG: readonly bigint[] = Array.from({ length: 256 }, (_, i) => BigInt(i));

/**
 * Reads a u64 (0 <= x < 2^64, checked by the caller: a larger x reads modulo 2^64, a negative one as x + 2^64)
 * into {@link PAIR}. Storing x into a BigUint64Array and reading its halves is a few ns and allocates nothing.
 */
export function readU64(x: bigint): void {
  WORD[0] = x;
  PAIR.hi = HALVES[HI]!;
  PAIR.lo = HALVES[LO]!;
}

/**
 * The bigint of the u64 `hi * 2^32 + lo` (`hi`, `lo` integers in [0, 2^32)): the two halves written into 8
 * bytes read back as one u64 (one allocation; `BigInt(number)` is a slower runtime call). Values below 256 come
 * from a table (no allocation).
 */
export function pairBig(hi: number, lo: number): bigint {
  if (hi === 0 && lo < 256) return SMALL_BIG[lo]!;
  HALVES[LO] = lo;
  HALVES[HI] = hi;
  return WORD[0]!;
}

/** 2^-32 (exact): `Math.floor(x * INV32)` is the exact `floor(x / 2^32)` of an integer x, with no branch. */
const INV32 = 1 / TWO32;
const TWO53 = 9_007_199_254_740_992;

/**
 * {@link PAIR} becomes `floor(x * m / d)`, or the ceiling when `ceil`, for the pair `x` it holds (`hi < 2^32`),
 * and integers `m >= 0`, `d >= 1` with `m + d <= 2^21` (fee rates and their denominator 1e6). Its `hi` passes
 * 2^32 - 1 when the result passes u64 (possible only for `m > d`).
 *
 * Exact: when `fl(x) * m` is below 2^53 it is the exact product (x is then below 2^53 too, or m is 0), and the
 * floor (ceiling) of a correctly rounded quotient of integers below 2^53 is the exact one (`exact-f64.ts`: the
 * rounded quotient never crosses an integer). Otherwise `hi * m < 2^52` is divided first, `hi * m = qh * d + rh`;
 * then `rh * 2^32 + lo * m < (d + m) * 2^32 <= 2^53` is divided; `x * m / d = qh * 2^32 + (rh * 2^32 + lo * m) / d`.
 */
export function mulDivSmall(m: number, d: number, ceil: boolean): void {
  const hi = PAIR.hi;
  const lo = PAIR.lo;
  const p = (hi * TWO32 + lo) * m;
  let qh = 0;
  let ql: number;
  if (p < TWO53) ql = ceil ? Math.ceil(p / d) : Math.floor(p / d);
  else {
    const th = hi * m;
    qh = Math.floor(th / d);
    const tl = (th - qh * d) * TWO32 + lo * m;
    ql = ceil ? Math.ceil(tl / d) : Math.floor(tl / d);
  }
  // ql < 2^53: carry its part above 2^32 into hi.
  const carry = Math.floor(ql * INV32);
  PAIR.hi = qh + carry;
  PAIR.lo = ql - carry * TWO32;
}

/** The bigint of the u64 pair in {@link PAIR} ({@link pairBig} without arguments). */
export function bigOfPair(): bigint {
  return pairBig(PAIR.hi, PAIR.lo);
}

/** `a - b` for pairs with `a >= b` (the caller knows it), into {@link PAIR}. */
export function subPair(aHi: number, aLo: number, bHi: number, bLo: number): void {
  const lo = aLo - bLo;
  // -1 when lo borrowed, else 0 (no branch).
  const borrow = Math.floor(lo * INV32);
  PAIR.hi = aHi - bHi + borrow;
  PAIR.lo = lo - borrow * TWO32;
}

/** `a + b` for pairs, into {@link PAIR}; `hi` reaches 2^32 when the sum passes u64 (a 65-bit value). */
export function addPair(aHi: number, aLo: number, bHi: number, bLo: number): void {
  const lo = aLo + bLo;
  const carry = Math.floor(lo * INV32);
  PAIR.hi = aHi + bHi + carry;
  PAIR.lo = lo - carry * TWO32;
}

/** True when the pair `a` is at least the pair `b`. */
export function pairAtLeast(aHi: number, aLo: number, bHi: number, bLo: number): boolean {
  return aHi > bHi || (aHi === bHi && aLo >= bLo);
}
