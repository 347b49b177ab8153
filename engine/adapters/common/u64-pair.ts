/**
 * u64 arithmetic without bigint: a value is a pair of f64 integers, `hi * 2^32 + lo` with `0 <= lo < 2^32` (and
 * `hi < 2^32` for a u64; some results allow `hi` a little past it, as noted). Every operation here is exact: its
 * intermediate values are integers below 2^53, where f64 arithmetic is exact, and a quotient `Math.floor(n / d)`
 * of integers `n < 2^53`, `d >= 1` is exact (see `exact-f64.ts`). Results go to {@link PAIR} (no allocation);
 * the caller copies `PAIR.hi` / `PAIR.lo` out before the next call.
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

/**
 * `floor(x * m / d)`, or the ceiling when `ceil`, for `x = hi * 2^32 + lo` with `hi < 2^32`, and integers
 * `m >= 0`, `d >= 1` with `m + d <= 2^21` (fee rates and their denominator 1e6). Result in {@link PAIR}; its
 * `hi` passes 2^32 - 1 when the result passes u64 (possible only for `m > d`).
 *
 * Exact: `hi * m < 2^52` is divided first, `hi * m = qh * d + rh`; then `rh * 2^32 + lo * m
 * < (d + m) * 2^32 <= 2^53` is divided, `= ql * d + rl`; `x * m / d = qh * 2^32 + ql + rl / d`. Every value is an
 * integer below 2^53.
 */
export function mulDivSmall(hi: number, lo: number, m: number, d: number, ceil: boolean): void {
  const th = hi * m;
  const qh = Math.floor(th / d);
  const tl = (th - qh * d) * TWO32 + lo * m;
  let ql = Math.floor(tl / d);
  if (ceil && ql * d !== tl) ql += 1;
  // ql < 2^53 / d + 1: carry its part above 2^32 into hi.
  if (ql < TWO32) {
    PAIR.hi = qh;
    PAIR.lo = ql;
  } else {
    const carry = Math.floor(ql / TWO32);
    PAIR.hi = qh + carry;
    PAIR.lo = ql - carry * TWO32;
  }
}

/** `a - b` for pairs with `a >= b` (the caller knows it), into {@link PAIR}. */
export function subPair(aHi: number, aLo: number, bHi: number, bLo: number): void {
  const lo = aLo - bLo;
  if (lo < 0) {
    PAIR.hi = aHi - bHi - 1;
    PAIR.lo = lo + TWO32;
  } else {
    PAIR.hi = aHi - bHi;
    PAIR.lo = lo;
  }
}

/** `a + b` for pairs, into {@link PAIR}; `hi` reaches 2^32 when the sum passes u64 (a 65-bit value). */
export function addPair(aHi: number, aLo: number, bHi: number, bLo: number): void {
  const lo = aLo + bLo;
  if (lo >= TWO32) {
    PAIR.hi = aHi + bHi + 1;
    PAIR.lo = lo - TWO32;
  } else {
    PAIR.hi = aHi + bHi;
    PAIR.lo = lo;
  }
}

/** True when the pair `a` is at least the pair `b`. */
export function pairAtLeast(aHi: number, aLo: number, bHi: number, bLo: number): boolean {
  return aHi > bHi || (aHi === bHi && aLo >= bLo);
}
