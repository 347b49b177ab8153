/**
 * Float-only readers of a pump.fun record for ranking and marginal prices: no BigInt, no allocation. The
 * estimate repeats the exact integer steps in float (floors and ceilings included), so it agrees with the exact
 * quote to within float error rather than within the fee rounding.
 */
import type { RecordF64 } from '../types.js';
import { F64_CREATOR_FEE_BPS, F64_FEE_BPS, F64_PROTOCOL_FEE_BPS, F64_VIRTUAL_QUOTE, F64_VIRTUAL_TOKEN } from './record.js';
import { PUMPFUN_STATUS_OK } from './state.js';

const ceilFee = (x: number, bps: number): number => Math.ceil((x * bps) / 10_000);

/**
 * Output atoms per input atom for an infinitesimal input after fees: sell vQ/vT x (1 - bps/1e4); buy
 * vT/vQ x 1e4/(1e4 + bps). 0 when not tradable (or no real tokens left to buy).
 */
export function pumpfunMarginalRate(rec: RecordF64, aToB: boolean): number {
  if (rec.status !== PUMPFUN_STATUS_OK) return 0;
  const f = rec.f64;
  const vT = f[F64_VIRTUAL_TOKEN]!;
  const vQ = f[F64_VIRTUAL_QUOTE]!;
  const bps = f[F64_FEE_BPS]!;
  if (!(vT > 0) || !(vQ > 0)) return 0;
  if (aToB) return bps >= 10_000 ? 0 : (vQ / vT) * (1 - bps / 10_000);
  return rec.reserveA > 0 ? (vT / vQ) * (10_000 / (10_000 + bps)) : 0;
}

/** Reserves of the equivalent constant-product pool: the curve's virtual token and quote reserves. */
export function pumpfunEffectiveReserve(rec: RecordF64, sideA: boolean): number {
  const v = rec.f64[sideA ? F64_VIRTUAL_TOKEN : F64_VIRTUAL_QUOTE]!;
  return Number.isFinite(v) && v > 0 ? v : 0;
}

/** Float mirror of the exact exact-in quote (sell tokens in, or `buy_exact_sol_in`). 0 when not tradable. */
export function pumpfunEstimateOut(rec: RecordF64, aToB: boolean, amountIn: number): number {
  if (rec.status !== PUMPFUN_STATUS_OK || !(amountIn >= 1) || !Number.isFinite(amountIn)) return 0;
  const f = rec.f64;
  const vT = f[F64_VIRTUAL_TOKEN]!;
  const vQ = f[F64_VIRTUAL_QUOTE]!;
  const p = f[F64_PROTOCOL_FEE_BPS]!;
  const c = f[F64_CREATOR_FEE_BPS]!;
  if (!(vT > 0) || !(vQ > 0)) return 0;
  const x = Math.floor(amountIn);
  if (aToB) {
    const sol = Math.floor((x * vQ) / (vT + x));
    if (sol > rec.reserveB) return 0;
    const out = sol - ceilFee(sol, p) - ceilFee(sol, c);
    return out > 0 ? out : 0;
  }
  let net = Math.floor((x * 10_000) / (10_000 + p + c));
  const total = net + ceilFee(net, p) + ceilFee(net, c);
  if (total > x) net -= total - x;
  if (!(net > 1)) return 0;
  const tokens = Math.floor(((net - 1) * vT) / (vQ + net - 1));
  const capped = tokens < rec.reserveA ? tokens : rec.reserveA;
  return capped > 0 ? capped : 0;
}

/** Fee in basis points as shown in the API: protocol + creator fee of a trade at the current market cap. */
export function pumpfunFeeBps(rec: RecordF64): number {
  return rec.f64[F64_FEE_BPS]!;
}

/** The creator part of {@link pumpfunFeeBps}. */
export function pumpfunCreatorFeeBps(rec: RecordF64): number {
  return rec.f64[F64_CREATOR_FEE_BPS]!;
}

/** The protocol part of {@link pumpfunFeeBps}. */
export function pumpfunProtocolFeeBps(rec: RecordF64): number {
  return rec.f64[F64_PROTOCOL_FEE_BPS]!;
}
