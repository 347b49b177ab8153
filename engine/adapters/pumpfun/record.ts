/**
 * The slab-record image of a pump.fun curve state: which u64 and f64 parameter words mean what (the table is in
 * this folder's README and must stay in step with these constants). No extension region is used: the fee tier
 * depends on the reserves only and is resolved when the state is built.
 */
import { PARAM_F64_WORDS, PARAM_U64_WORDS, type RecordFields } from '../types.js';
import type { PumpfunState } from './state.js';

/** u64 word: virtual token reserves. */
export const U64_VIRTUAL_TOKEN = 0;
/** u64 word: virtual quote (SOL) reserves. */
export const U64_VIRTUAL_QUOTE = 1;
/** u64 word: protocol fee, bps. */
export const U64_PROTOCOL_FEE_BPS = 2;
/** u64 word: creator fee, bps (0 without a creator). */
export const U64_CREATOR_FEE_BPS = 3;

/** f64 word: virtual token reserves. */
export const F64_VIRTUAL_TOKEN = 0;
/** f64 word: virtual quote reserves. */
export const F64_VIRTUAL_QUOTE = 1;
/** f64 word: protocol fee, bps. */
export const F64_PROTOCOL_FEE_BPS = 2;
/** f64 word: creator fee, bps. */
export const F64_CREATOR_FEE_BPS = 3;
/** f64 word: protocol + creator fee, bps (the API's `feeBps`). */
export const F64_FEE_BPS = 4;

/** Writes a curve state into a slab record image (reserveA = real token reserves, reserveB = real quote reserves). */
export function pumpfunToRecord(state: PumpfunState, out: RecordFields): void {
  out.status = state.status;
  out.reserveA = state.realTokenReserves;
  out.reserveB = state.realQuoteReserves;
  out.ext = null;
  const u = out.u64;
  u.fill(0n, 0, PARAM_U64_WORDS);
  u[U64_VIRTUAL_TOKEN] = state.virtualTokenReserves;
  u[U64_VIRTUAL_QUOTE] = state.virtualQuoteReserves;
  u[U64_PROTOCOL_FEE_BPS] = state.protocolFeeBps;
  u[U64_CREATOR_FEE_BPS] = state.creatorFeeBps;
  const f = out.f64;
  f.fill(0, 0, PARAM_F64_WORDS);
  f[F64_VIRTUAL_TOKEN] = Number(state.virtualTokenReserves);
  f[F64_VIRTUAL_QUOTE] = Number(state.virtualQuoteReserves);
  f[F64_PROTOCOL_FEE_BPS] = Number(state.protocolFeeBps);
  f[F64_CREATOR_FEE_BPS] = Number(state.creatorFeeBps);
  f[F64_FEE_BPS] = Number(state.protocolFeeBps + state.creatorFeeBps);
}

/** Reads a curve state back from a slab record image (exact path; the f64 words are not needed). */
export function pumpfunFromRecord(rec: Readonly<RecordFields>): PumpfunState {
  const u = rec.u64;
  return {
    status: rec.status,
    virtualTokenReserves: u[U64_VIRTUAL_TOKEN]!,
    virtualQuoteReserves: u[U64_VIRTUAL_QUOTE]!,
    realTokenReserves: rec.reserveA,
    realQuoteReserves: rec.reserveB,
    protocolFeeBps: u[U64_PROTOCOL_FEE_BPS]!,
    creatorFeeBps: u[U64_CREATOR_FEE_BPS]!,
  };
}
