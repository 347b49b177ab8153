/**
 * The three LaunchLab bonding curves without fees, as exact bigint ports of the SDK's
 * `launchpad/curve/{constantProductCurve,fixedPriceCurve,linearPriceCurve}.ts`. JS bigint division truncates
 * towards zero exactly as bn.js `div` does, and `ceilDivSdk` is the SDK's `ceilDivBN`, so even states the
 * program would never reach give the SDK's numbers. `null` stands for the SDK throwing (a division by zero).
 */
import { CURVE_CONSTANT_PRODUCT, CURVE_FIXED_PRICE, CURVE_LINEAR_PRICE } from './layout.js';
import { sdkSqrt } from './sdk-sqrt.js';

/** The pool amounts a curve reads. */
export interface CurvePoint {
  readonly virtualA: bigint;
  readonly virtualB: bigint;
  readonly realA: bigint;
  readonly realB: bigint;
}

/** 2^64: the linear curve's slope `virtual_a` is a Q64.64 price per atom. */
export const Q64 = 1n << 64n;

/** The SDK's `ceilDivBN`: 0 for a zero numerator, at least 1 otherwise; null on a zero divisor. */
export function ceilDivSdk(n: bigint, d: bigint): bigint | null {
  if (n === 0n) return 0n;
  if (d === 0n) return null;
  const q = n / d;
  if (q === 0n) return 1n;
  return n % d > 0n ? q + 1n : q;
}

function div(n: bigint, d: bigint): bigint | null {
  return d === 0n ? null : n / d;
}

/** The four curve operations of one curve type. */
export interface LaunchCurve {
  /** A out for `amount` B in (fees already taken). */
  buyExactIn(p: CurvePoint, amount: bigint): bigint | null;
  /** B in (before fees) for `amount` A out. */
  buyExactOut(p: CurvePoint, amount: bigint): bigint | null;
  /** B out (before fees) for `amount` A in. */
  sellExactIn(p: CurvePoint, amount: bigint): bigint | null;
  /** A in for `amount` B out of the curve (fees included). */
  sellExactOut(p: CurvePoint, amount: bigint): bigint | null;
}

/** Constant product on (virtual_b + real_b) x (virtual_a - real_a). */
export const constantProductCurve: LaunchCurve = {
  buyExactIn: (p, x) => div(x * (p.virtualA - p.realA), p.virtualB + p.realB + x),
  buyExactOut: (p, a) => ceilDivSdk((p.virtualB + p.realB) * a, p.virtualA - p.realA - a),
  sellExactIn: (p, a) => div(a * (p.virtualB + p.realB), p.virtualA - p.realA + a),
  sellExactOut: (p, b) => ceilDivSdk((p.virtualA - p.realA) * b, p.virtualB + p.realB - b),
};

/** Fixed price virtual_b / virtual_a (B per A). */
export const fixedPriceCurve: LaunchCurve = {
  buyExactIn: (p, x) => div(p.virtualA * x, p.virtualB),
  buyExactOut: (p, a) => ceilDivSdk(p.virtualB * a, p.virtualA),
  sellExactIn: (p, a) => div(p.virtualB * a, p.virtualA),
  sellExactOut: (p, b) => ceilDivSdk(p.virtualA * b, p.virtualB),
};

const TWO_Q64 = 2n * Q64;

/** Linear price: B(A) = virtual_a * A^2 / 2^65, so the price is virtual_a * A / 2^64. */
export const linearPriceCurve: LaunchCurve = {
  buyExactIn(p, x) {
    const term = div(2n * (p.realB + x) * Q64, p.virtualA);
    return term === null ? null : sdkSqrt(term) - p.realA;
  },
  buyExactOut(p, a) {
    const base = p.realA + a;
    const quote = ceilDivSdk(p.virtualA * base * base, TWO_Q64);
    return quote === null ? null : quote - p.realB;
  },
  sellExactIn(p, a) {
    const base = p.realA - a;
    const quote = ceilDivSdk(p.virtualA * base * base, TWO_Q64);
    return quote === null ? null : p.realB - quote;
  },
  sellExactOut(p, b) {
    const term = div(2n * (p.realB - b) * Q64, p.virtualA);
    return term === null ? null : p.realA - sdkSqrt(term);
  },
};

/** The curve of a GlobalConfig `curve_type`, or null for an unknown type (the SDK throws). */
export function curveOf(curveType: number): LaunchCurve | null {
  switch (curveType) {
    case CURVE_CONSTANT_PRODUCT: return constantProductCurve;
    case CURVE_FIXED_PRICE: return fixedPriceCurve;
    case CURVE_LINEAR_PRICE: return linearPriceCurve;
    default: return null;
  }
}
