/**
 * Float-only readers of a LaunchLab record for ranking and marginal prices: no BigInt, no allocation. The
 * estimate mirrors the exact path step by step (fee floor, curve rounding, the cap, the pool's checks) so that it
 * agrees with the exact quote to float precision rather than to a few atoms.
 */
import type { RecordF64 } from '../types.js';
import {
  F64_CURVE_TYPE,
  F64_KEEP,
  F64_REAL_A,
  F64_REAL_B,
  F64_TOTAL_SELL_A,
  F64_VIRTUAL_A,
  F64_VIRTUAL_B,
  F64_VAULT_B,
} from './record.js';
import { LAUNCHLAB_STATUS_OK } from './state.js';

const Q64 = 2 ** 64;
/** 2^64 as a float: vault B plus a buy's input at or above it cannot be transferred (u64). */
const TWO_POW_64 = Q64;

function finite(x: number): number {
  return Number.isFinite(x) && x > 0 ? x : 0;
}

/** The curve's price in B atoms per A atom; 0 for an unknown curve. The linear curve's price at real_a = 0 is
 * taken at one atom (its inverse is unbounded). */
function curvePrice(f: RecordF64['f64']): number {
  const vA = f[F64_VIRTUAL_A]!;
  const vB = f[F64_VIRTUAL_B]!;
  const rA = f[F64_REAL_A]!;
  switch (f[F64_CURVE_TYPE]) {
    case 0: return (vB + f[F64_REAL_B]!) / (vA - rA);
    case 1: return vB / vA;
    case 2: return (vA * Math.max(rA, 1)) / Q64;
    default: return 0;
  }
}

/**
 * Output atoms per input atom for an infinitesimal input after the fee: the curve's price (B per A) for sells,
 * its inverse for buys: the price the curve sets, whatever its real reserves (a fresh curve has no B to pay a
 * seller yet; its depth, `launchlabEffectiveReserve`, says so). 0 when not tradable or nothing is left to buy.
 */
export function launchlabMarginalRate(rec: RecordF64, aToB: boolean): number {
  if (rec.status !== LAUNCHLAB_STATUS_OK) return 0;
  const f = rec.f64;
  if (!(f[F64_TOTAL_SELL_A]! - f[F64_REAL_A]! > 0)) return 0;
  const priceBPerA = curvePrice(f);
  if (!(priceBPerA > 0) || !Number.isFinite(priceBPerA)) return 0;
  const keep = f[F64_KEEP]!;
  return finite(aToB ? priceBPerA * keep : keep / priceBPerA);
}

/**
 * Reserves of the equivalent constant-product pool: the constant-product curve's virtual reserves
 * (virtual_a - real_a, virtual_b + real_b); for the fixed-price and linear curves, the A left to sell and its
 * value at the current price.
 */
export function launchlabEffectiveReserve(rec: RecordF64, sideA: boolean): number {
  const f = rec.f64;
  if (f[F64_CURVE_TYPE] === 0) return finite(sideA ? f[F64_VIRTUAL_A]! - f[F64_REAL_A]! : f[F64_VIRTUAL_B]! + f[F64_REAL_B]!);
  const left = f[F64_TOTAL_SELL_A]! - f[F64_REAL_A]!;
  return finite(sideA ? left : left * curvePrice(f));
}

/** Float mirror of the exact-in quote's output (rounding included); 0 when not tradable or nothing comes out. */
export function launchlabEstimateOut(rec: RecordF64, aToB: boolean, amountIn: number): number {
  if (rec.status !== LAUNCHLAB_STATUS_OK || !(amountIn >= 1) || !Number.isFinite(amountIn)) return 0;
  const f = rec.f64;
  const vA = f[F64_VIRTUAL_A]!;
  const vB = f[F64_VIRTUAL_B]!;
  const rA = f[F64_REAL_A]!;
  const rB = f[F64_REAL_B]!;
  const keep = f[F64_KEEP]!;
  const curve = f[F64_CURVE_TYPE];
  const x = Math.floor(amountIn);
  if (aToB) {
    if (x > rA) return 0;
    let gross: number;
    if (curve === 0) gross = Math.floor((x * (vB + rB)) / (vA - rA + x));
    else if (curve === 1) gross = Math.floor((vB * x) / vA);
    else if (curve === 2) { const base = rA - x; gross = rB - Math.ceil((vA * base * base) / (2 * Q64)); }
    else return 0;
    if (!(gross <= rB)) return 0;
    // gross - ceil(gross * rate / 1e6) == floor(gross * keep): the kept fraction avoids cancellation.
    return finite(Math.floor(gross * keep));
  }
  // The whole input goes into vault B first (the exact quote refuses it past u64; float precision near 2^64).
  if (f[F64_VAULT_B]! + x >= TWO_POW_64) return 0;
  // x - ceil(x * rate) == floor(x * keep): the B that reaches the curve.
  const less = Math.floor(x * keep);
  let out: number;
  if (curve === 0) out = Math.floor((less * (vA - rA)) / (vB + rB + less));
  else if (curve === 1) out = Math.floor((vA * less) / vB);
  else if (curve === 2) out = Math.round(Math.sqrt(Math.floor((2 * (rB + less) * Q64) / vA))) - rA;
  else return 0;
  const left = f[F64_TOTAL_SELL_A]! - rA;
  return finite(out > left ? left : out);
}

/** Total fee in basis points (trade + platform + creator), as shown in the API. */
export function launchlabFeeBps(rec: RecordF64): number {
  // The record keeps (1e6 - rate) / 1e6 (negative above 1e6); the rate is an integer, so rounding recovers it.
  return Math.round(1e6 - rec.f64[F64_KEEP]! * 1e6) / 100;
}
