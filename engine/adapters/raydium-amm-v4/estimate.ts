/**
 * Float-only readers of an AMM v4 record for ranking and marginal prices: no BigInt, no allocation.
 */
import type { RecordF64 } from '../types.js';
import { F64_COIN_VAULT, F64_FEE_BPS, F64_IN_KEEP, F64_PC_VAULT } from './record.js';
import { AMM_V4_STATUS_OK } from './state.js';

/** Output atoms per input atom for an infinitesimal input after the swap fee: rOut / rIn x (den - num) / den. */
export function ammV4MarginalRate(rec: RecordF64, aToB: boolean): number {
  if (rec.status !== AMM_V4_STATUS_OK) return 0;
  const rin = aToB ? rec.reserveA : rec.reserveB;
  const rout = aToB ? rec.reserveB : rec.reserveA;
  if (!(rin > 0) || !(rout > 0)) return 0;
  return (rout / rin) * rec.f64[F64_IN_KEEP]!;
}

/** 2^64 as a float: an input vault plus the input at or above it cannot be transferred (u64). */
const TWO_POW_64 = 18_446_744_073_709_551_616;

/**
 * Float mirror of the exact exact-in quote, rounding included (ceil on the fee, floor on the curve). 0 when not
 * tradable, when the output rounds to zero, or when the input would take the input vault above u64 (the exact
 * quote refuses it; within float precision near 2^64, a few thousand atoms).
 */
export function ammV4EstimateOut(rec: RecordF64, aToB: boolean, amountIn: number): number {
  if (rec.status !== AMM_V4_STATUS_OK || !(amountIn >= 1)) return 0;
  if (rec.f64[aToB ? F64_COIN_VAULT : F64_PC_VAULT]! + Math.floor(amountIn) >= TWO_POW_64) return 0;
  const rin = aToB ? rec.reserveA : rec.reserveB;
  const rout = aToB ? rec.reserveB : rec.reserveA;
  if (!(rin > 0) || !(rout > 0)) return 0;
  // x - ceil(x * num / den) == floor(x * (den - num) / den) exactly; the keep form avoids cancellation.
  const less = Math.floor(Math.floor(amountIn) * rec.f64[F64_IN_KEEP]!);
  if (!(less > 0)) return 0;
  let out = Math.floor((less * rout) / (rin + less));
  // The exact floor is always below the reserve; float rounding can reach it above 2^53.
  if (out >= rout) out = rout - 1;
  return out > 0 ? out : 0;
}

/** The pool's swap fee in basis points (num / den x 1e4). */
export function ammV4FeeBps(rec: RecordF64): number {
  return rec.f64[F64_FEE_BPS]!;
}
