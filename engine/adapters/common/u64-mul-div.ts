/**
 * `floor(a * b / d)` and `ceil(a * b / d)` for u64 `a`, `b` and a divisor up to 2^65 (a sum of two u64s), with
 * the 128-bit product kept exact, without bigint: values are `u64-pair.ts` pairs (`hi * 2^32 + lo`).
 *
 * Method: an f64 estimate `q` of the quotient, then the exact remainder `r = a * b - q * d`, then a correction.
 *  1. `q = floor(fl(a) * fl(b) / fl(d))`: five roundings of relative 2^-53 each, so `q` is within 5 * 2^-53 * q + 1
 *     of the true quotient: within 2^14 for any quotient below 2^64 + 2^20. An estimate at or above 2^64 + 2^20
 *     means a true quotient of at least 2^64: the result is reported as past u64 (`false`).
 *  2. Each of `a`, `b`, `q`, `d` splits into three 24-bit limbs (the top limb of `q` and `d` up to 17 bits). Limb
 *     products are below 2^48 and each column of `a * b - q * d` sums at most six of them: below 2^51, exact. A
 *     carry pass (exact divisions by 2^24) gives `r` exactly as `r0 + r1 * 2^24 + r2 * 2^48 + h * 2^72`, with
 *     `0 <= r0, r1, r2 < 2^24` and `|h| < 2^8` (as |r| <= 2^14 * d < 2^79).
 *  3. `delta = floor(fl(r) / fl(d))` is the true `floor(r / d)` or one off (|r / d| < 2^15, relative error a few
 *     2^-53); `r - delta * d` (limb products below 2^39) is computed exactly the same way, and one more step on its
 *     sign (below 0: one less; at least `d`: one more) gives the exact floor and remainder; the ceiling adds one
 *     when the remainder is not zero.
 * When `fl(a) * fl(b)` is below 2^53 (so `a`, `b` and the product are exact), `floor(p / fl(d))` is exact
 * directly (`exact-f64.ts`, for `d` below 2^53) and steps 2-3 are skipped.
 */
import { PAIR, TWO32 } from './u64-pair.js';

const TWO24 = 16_777_216;
const TWO53 = 9_007_199_254_740_992;
/** An estimate at or past this proves a quotient of at least 2^64 (step 1). */
const PAST_U64 = 18_446_744_073_710_600_000;
const INV24 = 1 / TWO24;
const INV32 = 1 / TWO32;
/** How far from an integer the float r / d must be for its floor to be certain (its error is below 2^-36). */
const FRAC_MARGIN = 2 ** -30;

/**
 * The operands of {@link mulDivPair}: `a` (hi, lo), `b` (hi, lo), `d` (hi, lo) at indices 0 to 5. Written by the
 * caller (an array of f64: no heap number per operand, as arguments of a call that is not inlined would be).
 */
export const MUL_DIV_ARGS = new Float64Array(6);

/**
 * `floor(a * b / d)` (or the ceiling when `ceil`) for u64 pairs `a`, `b` (`hi < 2^32`) and `d` in [1, 2^65)
 * (`dHi < 2^33`), read from {@link MUL_DIV_ARGS}. Writes the quotient to {@link PAIR} and returns true; returns
 * false when the quotient is 2^64 or more (PAIR is then unspecified).
 */
export function mulDivPair(ceil: boolean): boolean {
  const aHi = MUL_DIV_ARGS[0]!;
  const aLo = MUL_DIV_ARGS[1]!;
  const bHi = MUL_DIV_ARGS[2]!;
  const bLo = MUL_DIV_ARGS[3]!;
  const dHi = MUL_DIV_ARGS[4]!;
  const dLo = MUL_DIV_ARGS[5]!;
  const af = aHi * TWO32 + aLo;
  const bf = bHi * TWO32 + bLo;
  const df = dHi * TWO32 + dLo;
  const p = af * bf;
  if (p < TWO53 && df < TWO53) {
    // a, b, the product and d are exact: the rounded quotient's floor (ceiling) is exact.
    return setSmall(ceil ? Math.ceil(p / df) : Math.floor(p / df));
  }
  const est = Math.floor(p / df);
  if (est >= PAST_U64) return false;
  const qHi = Math.floor(est / TWO32);
  let qLo = est - qHi * TWO32;
  // 24-bit limbs (x2 is the top: 16 bits for a u64, 17 for d and q below 2^65).
  const a0 = aLo & 0xff_ffff;
  const a1 = (aLo >>> 24) + (aHi & 0xffff) * 256;
  const a2 = aHi >>> 16;
  const b0 = bLo & 0xff_ffff;
  const b1 = (bLo >>> 24) + (bHi & 0xffff) * 256;
  const b2 = bHi >>> 16;
  const d2 = Math.floor(dHi / 65_536);
  const d0 = dLo & 0xff_ffff;
  const d1 = (dLo >>> 24) + (dHi - d2 * 65_536) * 256;
  const q2 = Math.floor(qHi / 65_536);
  const q0 = qLo & 0xff_ffff;
  const q1 = (qLo >>> 24) + (qHi - q2 * 65_536) * 256;
  // r = a * b - q * d, column by column (each exact, below 2^51 in magnitude).
  const c0 = a0 * b0 - q0 * d0;
  const c1 = a0 * b1 + a1 * b0 - q0 * d1 - q1 * d0;
  const c2 = a0 * b2 + a1 * b1 + a2 * b0 - q0 * d2 - q1 * d1 - q2 * d0;
  const c3 = a1 * b2 + a2 * b1 - q1 * d2 - q2 * d1;
  const c4 = a2 * b2 - q2 * d2;
  // |r| < 2^79, so c4 * 2^24 + c3 and then its * 2^24 + c2 are exact (their exact values are below 2^53); the two
  // last steps round once each: fl(r) within 2^-51 of r, relative, or exact.
  const x = ((((c4 * TWO24 + c3) * TWO24 + c2) * TWO24 + c1) * TWO24 + c0) / df;
  let delta = Math.floor(x);
  const frac = x - delta;
  if (frac > FRAC_MARGIN && frac < 1 - FRAC_MARGIN) {
    // x is within 2^-36 of r / d (|r / d| < 2^15): r / d is not an integer and its floor is delta.
    qLo += ceil ? delta + 1 : delta;
    return carry(qHi, qLo);
  }
  // r / d is an integer or close to one: the exact remainder decides. Carry the columns (exact divisions by 2^24).
  let k = Math.floor(c0 * INV24);
  let r0 = c0 - k * TWO24;
  let t = c1 + k;
  k = Math.floor(t * INV24);
  let r1 = t - k * TWO24;
  t = c2 + k;
  k = Math.floor(t * INV24);
  let r2 = t - k * TWO24;
  // The two top columns only add up to the small h (their multiples of 2^24 cancel: |r| < 2^79).
  let h = c3 + k + c4 * TWO24;
  delta = Math.floor((((h * TWO24 + r2) * TWO24 + r1) * TWO24 + r0) / df);
  if (delta !== 0) {
    // r -= delta * d exactly (|delta| < 2^15: products below 2^39).
    t = r0 - delta * d0;
    k = Math.floor(t * INV24);
    r0 = t - k * TWO24;
    t = r1 - delta * d1 + k;
    k = Math.floor(t * INV24);
    r1 = t - k * TWO24;
    t = r2 - delta * d2 + k;
    k = Math.floor(t * INV24);
    r2 = t - k * TWO24;
    h += k;
    qLo += delta;
  }
  // Now -d <= r < 2d. Below 0: one less. At least d: one more.
  let zero: boolean;
  if (h < 0) {
    qLo -= 1;
    // r + d: zero only when r == -d.
    zero = isZeroSum(r0 + d0, r1 + d1, r2 + d2, h);
  } else {
    // s = r - d: s >= 0 means one more, and s is then the remainder.
    t = r0 - d0;
    k = Math.floor(t * INV24);
    const s0 = t - k * TWO24;
    t = r1 - d1 + k;
    k = Math.floor(t * INV24);
    const s1 = t - k * TWO24;
    t = r2 - d2 + k;
    k = Math.floor(t * INV24);
    const s2 = t - k * TWO24;
    const sh = h + k;
    if (sh >= 0) {
      qLo += 1;
      zero = sh === 0 && s2 === 0 && s1 === 0 && s0 === 0;
    } else zero = h === 0 && r2 === 0 && r1 === 0 && r0 === 0;
  }
  if (ceil && !zero) qLo += 1;
  return carry(qHi, qLo);
}

/** PAIR = qHi * 2^32 + qLo for qLo within 2^16 of [0, 2^32); false past u64. */
function carry(qHi: number, qLo: number): boolean {
  const k = Math.floor(qLo * INV32);
  const hi = qHi + k;
  if (hi >= TWO32) return false;
  PAIR.hi = hi;
  PAIR.lo = qLo - k * TWO32;
  return true;
}

/** PAIR = q for an integer 0 <= q <= 2^53; true. */
function setSmall(q: number): boolean {
  const hi = Math.floor(q * INV32);
  PAIR.hi = hi;
  PAIR.lo = q - hi * TWO32;
  return true;
}

/** Whether `c0 + c1 * 2^24 + c2 * 2^48 + h * 2^72` is zero (columns below 2^26 in magnitude, not carried). */
function isZeroSum(c0: number, c1: number, c2: number, h: number): boolean {
  let t = c0;
  let k = Math.floor(t * INV24);
  if (t - k * TWO24 !== 0) return false;
  t = c1 + k;
  k = Math.floor(t * INV24);
  if (t - k * TWO24 !== 0) return false;
  t = c2 + k;
  k = Math.floor(t * INV24);
  return t - k * TWO24 === 0 && h + k === 0;
}
