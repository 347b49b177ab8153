/**
 * Float-only readers of a PumpSwap record for ranking and marginal prices: no BigInt, no allocation. The
 * estimates are the exact formulas in float, rounding included (per-fee ceilings, floors on the curve).
 */
import type { RecordF64 } from '../types.js';
import {
  F64_BUY_ENABLED,
  F64_CREATOR_FEE_BPS,
  F64_FEE_BPS,
  F64_LP_FEE_BPS,
  F64_PROTOCOL_FEE_BPS,
  F64_QUOTE_VAULT,
  F64_SELL_ENABLED,
} from './record.js';
import { PUMPSWAP_STATUS_OK } from './state.js';

const BPS = 10_000;

function tradable(rec: RecordF64, aToB: boolean): boolean {
  if (rec.status !== PUMPSWAP_STATUS_OK || !(rec.reserveA > 0) || !(rec.reserveB > 0) || !(rec.f64[F64_QUOTE_VAULT]! > 0)) return false;
  return rec.f64[aToB ? F64_SELL_ENABLED : F64_BUY_ENABLED] === 1;
}

/**
 * Output atoms per input atom for an infinitesimal input after every fee: sell Q/B x (1 - bps/1e4), buy
 * B/Q / (1 + bps/1e4) (buy_exact_quote_in takes the fees on top of the curve amount). 0 when not tradable.
 */
export function pumpswapMarginalRate(rec: RecordF64, aToB: boolean): number {
  if (!tradable(rec, aToB)) return 0;
  const bps = rec.f64[F64_FEE_BPS]!;
  if (aToB) return bps >= BPS ? 0 : (rec.reserveB / rec.reserveA) * ((BPS - bps) / BPS);
  return (rec.reserveA / rec.reserveB) * (BPS / (BPS + bps));
}

function fees(q: number, rec: RecordF64): number {
  const f = rec.f64;
  return Math.ceil((q * f[F64_LP_FEE_BPS]!) / BPS) + Math.ceil((q * f[F64_PROTOCOL_FEE_BPS]!) / BPS) + Math.ceil((q * f[F64_CREATOR_FEE_BPS]!) / BPS);
}

/** 2^64 as a float: a vault plus what a swap pays into it at or above this cannot be transferred (u64). */
const TWO_POW_64 = 18_446_744_073_709_551_616;

/**
 * Float mirror of the exact exact-in quote (sell exact base in / buy_exact_quote_in). 0 when not tradable, or when
 * what the swap pays into a vault (a sell's base; a buy's budget, which bounds the curve amount plus the LP fee)
 * would take it to u64 or above, which the exact quote refuses (within float precision near 2^64).
 */
export function pumpswapEstimateOut(rec: RecordF64, aToB: boolean, amountIn: number): number {
  if (!tradable(rec, aToB) || !(amountIn >= 1) || !Number.isFinite(amountIn)) return 0;
  const x = Math.floor(amountIn);
  if ((aToB ? rec.reserveA : rec.f64[F64_QUOTE_VAULT]!) + x >= TWO_POW_64) return 0;
  const b = rec.reserveA;
  const q = rec.reserveB;
  if (aToB) {
    let cq = Math.floor((q * x) / (b + x));
    if (cq >= q) cq = q - 1;
    const lp = Math.ceil((cq * rec.f64[F64_LP_FEE_BPS]!) / BPS);
    if (cq - lp > rec.f64[F64_QUOTE_VAULT]!) return 0;
    const out = cq - fees(cq, rec);
    return out > 0 ? out : 0;
  }
  let eff = Math.floor((x * BPS) / (BPS + rec.f64[F64_FEE_BPS]!));
  const over = eff + fees(eff, rec) - x;
  if (over > 0) eff -= over;
  if (!(eff > 1)) return 0;
  let out = Math.floor((b * (eff - 1)) / (q + eff - 1));
  if (out >= b) out = b - 1;
  return out > 0 ? out : 0;
}

/** Fee in basis points as shown in the API: LP + protocol + coin-creator. */
export function pumpswapFeeBps(rec: RecordF64): number {
  return rec.f64[F64_FEE_BPS]!;
}
