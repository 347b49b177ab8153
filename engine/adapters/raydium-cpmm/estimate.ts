/**
 * Float-only readers of a CPMM record for ranking and marginal prices: no BigInt, no allocation.
 */
import type { RecordF64 } from '../types.js';
import {
  F64_CREATOR_FEE_ON,
  F64_CREATOR_FEE_RATE,
  F64_TRADE_FEE_RATE,
  F64_TRANSFER_FEE_BPS,
  F64_TRANSFER_FEE_MAX_0,
  F64_TRANSFER_FEE_MAX_1,
  F64_VAULT_0,
  F64_VAULT_1,
  cpmmKeep,
} from './record.js';
import { CPMM_STATUS_OK } from './state.js';

/** Kept fraction of one direction's input (`output` false) or curve output (true), from the record's rates. */
function keep(f: RecordF64['f64'], aToB: boolean, output: boolean): number {
  return cpmmKeep(f[F64_TRADE_FEE_RATE]!, f[F64_CREATOR_FEE_RATE]!, f[F64_CREATOR_FEE_ON]!, aToB, output);
}

/** 2^64 as a float: an input vault plus what the user sends at or above it cannot be transferred (u64). */
const TWO_POW_64 = 18_446_744_073_709_551_616;

/** Transfer fee basis points of token 0 (`side0`) or token 1 from the packed f64 word (0 without one). */
function transferBps(f: RecordF64['f64'], side0: boolean): number {
  const packed = f[F64_TRANSFER_FEE_BPS]!;
  return side0 ? packed % 65_536 : Math.floor(packed / 65_536);
}

/** Float mirror of the token program's fee: min(ceil(x x bps / 1e4), max). */
function transferFeeF(x: number, bps: number, max: number): number {
  if (bps === 0 || x === 0) return 0;
  const raw = Math.ceil((x * bps) / 10_000);
  return raw < max ? raw : max;
}

/**
 * Output atoms per input atom for an infinitesimal input after every fee: reserveOut / reserveIn x
 * (1 - trade - creatorIfInput) x (1 - creatorIfOutput) x the kept fraction of both mints' transfer fees (an
 * infinitesimal amount never reaches a nonzero maximum fee). 0 when not tradable.
 */
export function cpmmMarginalRate(rec: RecordF64, aToB: boolean): number {
  if (rec.status !== CPMM_STATUS_OK) return 0;
  const rin = aToB ? rec.reserveA : rec.reserveB;
  const rout = aToB ? rec.reserveB : rec.reserveA;
  if (!(rin > 0) || !(rout > 0)) return 0;
  const f = rec.f64;
  const transferKeep = (1 - transferBps(f, aToB) / 10_000) * (1 - transferBps(f, !aToB) / 10_000);
  return (rout / rin) * keep(f, aToB, false) * keep(f, aToB, true) * transferKeep;
}

/**
 * Float mirror of the exact exact-in quote, rounding included (ceil on fees, floor on the curve), so that it
 * agrees with the exact result to within float error rather than within a few atoms. 0 when not tradable, when
 * the output rounds to zero, or when what reaches the input vault would take it to 2^64 or above (the token
 * program's transfer fails; the exact quote refuses it; within float precision near 2^64, a few thousand atoms).
 */
export function cpmmEstimateOut(rec: RecordF64, aToB: boolean, amountIn: number): number {
  if (rec.status !== CPMM_STATUS_OK || !(amountIn >= 1)) return 0;
  const rin = aToB ? rec.reserveA : rec.reserveB;
  const rout = aToB ? rec.reserveB : rec.reserveA;
  if (!(rin > 0) || !(rout > 0)) return 0;
  const f = rec.f64;
  const x = Math.floor(amountIn);
  // The input mint's transfer fee comes off before the pool sees the amount.
  const actual = x - transferFeeF(x, transferBps(f, aToB), f[aToB ? F64_TRANSFER_FEE_MAX_0 : F64_TRANSFER_FEE_MAX_1]!);
  // The vault is credited the amount less the input mint's transfer fee (the token program withholds the fee).
  if (f[aToB ? F64_VAULT_0 : F64_VAULT_1]! + actual >= TWO_POW_64) return 0;
  // x - ceil(x * fee) == floor(x * keep) in exact arithmetic; the keep form avoids cancellation.
  const less = Math.floor(actual * keep(f, aToB, false));
  if (!(less > 0)) return 0;
  let swapped = Math.floor((less * rout) / (rin + less));
  // The exact floor is always below the reserve; float rounding can reach it for huge inputs (above 2^53
  // `rout - 1` may round back to `rout`: the estimate then equals the reserve, never exceeds it).
  if (swapped >= rout) swapped = rout - 1;
  const sent = Math.floor(swapped * keep(f, aToB, true));
  // The output mint's transfer fee comes off what the vault sends.
  const out = sent - transferFeeF(sent, transferBps(f, !aToB), f[aToB ? F64_TRANSFER_FEE_MAX_1 : F64_TRANSFER_FEE_MAX_0]!);
  return out > 0 ? out : 0;
}

/** Fee in basis points as shown in the API: trade fee plus creator fee (charged on one side or the other). */
export function cpmmFeeBps(rec: RecordF64): number {
  return (rec.f64[F64_TRADE_FEE_RATE]! + rec.f64[F64_CREATOR_FEE_RATE]!) / 100;
}
