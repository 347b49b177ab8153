/**
 * The slab-record image of a PumpSwap state: which u64 and f64 parameter words mean what (the table is in this
 * folder's README and must stay in step with these constants). reserveA = base vault, reserveB = effective quote.
 */
import { PARAM_F64_WORDS, PARAM_U64_WORDS, type RecordFields } from '../types.js';
import { DISABLE_BUY, DISABLE_SELL } from './layout.js';
import type { PumpswapState } from './state.js';

/** u64 word: LP fee, bps. */
export const U64_LP_FEE_BPS = 0;
/** u64 word: protocol fee, bps. */
export const U64_PROTOCOL_FEE_BPS = 1;
/** u64 word: effective coin-creator fee, bps (0 without a coin creator). */
export const U64_CREATOR_FEE_BPS = 2;
/** u64 word: the quote vault's own amount (sells pay out of it). */
export const U64_QUOTE_VAULT = 3;
/** u64 word: GlobalConfig disable flags (bit 3 buy, bit 4 sell). */
export const U64_DISABLE_FLAGS = 4;
/** u64 word: fee schedule kind (`SCHEDULE_*`). */
export const U64_SCHEDULE = 5;
/** u64 word: tier index within the schedule. */
export const U64_TIER_INDEX = 6;

/** f64 word: LP fee, bps. */
export const F64_LP_FEE_BPS = 0;
/** f64 word: protocol fee, bps. */
export const F64_PROTOCOL_FEE_BPS = 1;
/** f64 word: coin-creator fee, bps. */
export const F64_CREATOR_FEE_BPS = 2;
/** f64 word: the quote vault's amount. */
export const F64_QUOTE_VAULT = 3;
/** f64 word: total fee bps (the API's `feeBps`). */
export const F64_FEE_BPS = 4;
/** f64 word: 1 when sells (A -> B) are enabled, else 0. */
export const F64_SELL_ENABLED = 5;
/** f64 word: 1 when buys (B -> A) are enabled, else 0. */
export const F64_BUY_ENABLED = 6;

/** Writes a PumpSwap state into a slab record image. */
export function pumpswapToRecord(state: PumpswapState, out: RecordFields): void {
  out.status = state.status;
  out.reserveA = state.baseReserve;
  out.reserveB = state.quoteReserve;
  out.ext = null;
  const u = out.u64;
  u.fill(0n, 0, PARAM_U64_WORDS);
  u[U64_LP_FEE_BPS] = state.fees.lpFeeBps;
  u[U64_PROTOCOL_FEE_BPS] = state.fees.protocolFeeBps;
  u[U64_CREATOR_FEE_BPS] = state.fees.creatorFeeBps;
  u[U64_QUOTE_VAULT] = state.quoteVault;
  u[U64_DISABLE_FLAGS] = BigInt(state.disableFlags);
  u[U64_SCHEDULE] = BigInt(state.schedule);
  u[U64_TIER_INDEX] = BigInt(state.tierIndex);
  const f = out.f64;
  f.fill(0, 0, PARAM_F64_WORDS);
  f[F64_LP_FEE_BPS] = Number(state.fees.lpFeeBps);
  f[F64_PROTOCOL_FEE_BPS] = Number(state.fees.protocolFeeBps);
  f[F64_CREATOR_FEE_BPS] = Number(state.fees.creatorFeeBps);
  f[F64_QUOTE_VAULT] = Number(state.quoteVault);
  f[F64_FEE_BPS] = Number(state.fees.lpFeeBps + state.fees.protocolFeeBps + state.fees.creatorFeeBps);
  f[F64_SELL_ENABLED] = (state.disableFlags & DISABLE_SELL) === 0 ? 1 : 0;
  f[F64_BUY_ENABLED] = (state.disableFlags & DISABLE_BUY) === 0 ? 1 : 0;
}

/** Reads a PumpSwap state back from a slab record image (exact path; the f64 words are not needed). */
export function pumpswapFromRecord(rec: Readonly<RecordFields>): PumpswapState {
  const u = rec.u64;
  return {
    status: rec.status,
    baseReserve: rec.reserveA,
    quoteReserve: rec.reserveB,
    quoteVault: u[U64_QUOTE_VAULT]!,
    fees: { lpFeeBps: u[U64_LP_FEE_BPS]!, protocolFeeBps: u[U64_PROTOCOL_FEE_BPS]!, creatorFeeBps: u[U64_CREATOR_FEE_BPS]! },
    disableFlags: Number(u[U64_DISABLE_FLAGS]!),
    schedule: Number(u[U64_SCHEDULE]!),
    tierIndex: Number(u[U64_TIER_INDEX]!),
  };
}
