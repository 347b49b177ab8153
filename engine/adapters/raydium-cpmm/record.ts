/**
 * The slab-record image of a CPMM state: which u64 and f64 parameter words mean what (the table is in
 * this folder's README and must stay in step with these constants).
 */
import { PARAM_F64_WORDS, PARAM_U64_WORDS, type RecordFields } from '../types.js';
import { FEE_RATE_DENOMINATOR, isCreatorFeeOnInput } from './math.js';
import type { CpmmState } from './state.js';

/** u64 word indices. */
export const U64_TRADE_FEE_RATE = 0;
/** Effective creator fee rate (0 when the pool disabled the creator fee). */
export const U64_CREATOR_FEE_RATE = 1;
/** Protocol share of the trade fee (per 1e6). */
export const U64_PROTOCOL_FEE_RATE = 2;
/** Fund share of the trade fee (per 1e6). */
export const U64_FUND_FEE_RATE = 3;
/** creator_fee_on: 0 both, 1 token 0 only, 2 token 1 only. */
export const U64_CREATOR_FEE_ON = 4;
/** open_time (unix seconds). */
export const U64_OPEN_TIME = 5;
/** The pool's raw status bits. */
export const U64_POOL_STATUS_BITS = 6;
/** u64 word: bit 0 token 0 has a transfer fee, bit 1 token 1 has one (the schedules at the build's epoch). */
export const U64_TRANSFER_FEE_FLAGS = 7;
/** u64 words: token 0 transfer fee basis points and maximum fee; then token 1's. */
export const U64_TRANSFER_FEE_BPS_0 = 8;
export const U64_TRANSFER_FEE_MAX_0 = 9;
export const U64_TRANSFER_FEE_BPS_1 = 10;
export const U64_TRANSFER_FEE_MAX_1 = 11;

/** u64 words: the vaults' own amounts (reserve plus accrued fees), token 0 then token 1. */
export const U64_VAULT_0 = 12;
export const U64_VAULT_1 = 13;

/**
 * f64 word: the trade fee rate (per 1e6) as a float. Float readers derive each direction's kept fractions from
 * the two rates and `creator_fee_on` ({@link cpmmKeep}), with the same float operations the record used to
 * store, so that the vault amounts fit the eight words.
 */
export const F64_TRADE_FEE_RATE = 0;
/** f64 word: the effective creator fee rate (per 1e6) as a float. */
export const F64_CREATOR_FEE_RATE = 1;
/** f64 word: `creator_fee_on` (0 both tokens, 1 token 0 only, 2 token 1 only). */
export const F64_CREATOR_FEE_ON = 2;
/** f64 words: the vaults' own amounts (float readers refuse an input that would take its vault to 2^64). */
export const F64_VAULT_0 = 3;
export const F64_VAULT_1 = 4;
/** f64 word: transfer fee basis points of token 0 plus 65,536 x those of token 1 (0 where there is none, or where the
 * maximum fee is 0). */
export const F64_TRANSFER_FEE_BPS = 5;
/** f64 words: maximum transfer fee of token 0, of token 1. */
export const F64_TRANSFER_FEE_MAX_0 = 6;
export const F64_TRANSFER_FEE_MAX_1 = 7;

const D = Number(FEE_RATE_DENOMINATOR);

/**
 * Kept fraction of the input that reaches the curve (`output: false`: (1e6 - trade - creatorIfInput) / 1e6) or of
 * the curve output the user keeps (`output: true`: (1e6 - creatorIfOutput) / 1e6), for one direction, from the
 * float rates and `creator_fee_on`. A direction the program rejects (creator fee on the input with
 * trade + creator == 0: split_creator_fee divides by zero; or rates at or above 1e6) keeps 0 on both sides, so
 * that float readers see a zero rate without a special case. Kept fractions, not fees, so that a float reader
 * computes `floor(x * keep)` (equal to the program's `x - ceil(x * fee)`) without cancellation at high rates.
 */
export function cpmmKeep(trade: number, creator: number, creatorFeeOn: number, zeroForOne: boolean, output: boolean): number {
  if (isCreatorFeeOnInput(creatorFeeOn, zeroForOne)) {
    if (trade + creator === 0 || trade + creator >= D) return 0;
    return output ? 1 : (D - trade - creator) / D;
  }
  if (trade >= D || creator >= D) return 0;
  return output ? (D - creator) / D : (D - trade) / D;
}

/** Writes a CPMM state into a slab record image (reserveA = token 0). */
export function cpmmToRecord(state: CpmmState, out: RecordFields): void {
  out.status = state.status;
  out.reserveA = state.reserve0;
  out.reserveB = state.reserve1;
  const u = out.u64;
  u.fill(0n, 0, PARAM_U64_WORDS);
  u[U64_TRADE_FEE_RATE] = state.rates.tradeFeeRate;
  u[U64_CREATOR_FEE_RATE] = state.rates.creatorFeeRate;
  u[U64_PROTOCOL_FEE_RATE] = state.rates.protocolFeeRate;
  u[U64_FUND_FEE_RATE] = state.rates.fundFeeRate;
  u[U64_CREATOR_FEE_ON] = BigInt(state.creatorFeeOn);
  u[U64_OPEN_TIME] = state.openTime;
  u[U64_POOL_STATUS_BITS] = BigInt(state.poolStatusBits);
  const t0 = state.transferFee0;
  const t1 = state.transferFee1;
  u[U64_TRANSFER_FEE_FLAGS] = (t0 ? 1n : 0n) | (t1 ? 2n : 0n);
  u[U64_TRANSFER_FEE_BPS_0] = BigInt(t0?.basisPoints ?? 0);
  u[U64_TRANSFER_FEE_MAX_0] = t0?.maximumFee ?? 0n;
  u[U64_TRANSFER_FEE_BPS_1] = BigInt(t1?.basisPoints ?? 0);
  u[U64_TRANSFER_FEE_MAX_1] = t1?.maximumFee ?? 0n;
  u[U64_VAULT_0] = state.vault0;
  u[U64_VAULT_1] = state.vault1;
  const f = out.f64;
  f.fill(0, 0, PARAM_F64_WORDS);
  f[F64_TRADE_FEE_RATE] = Number(state.rates.tradeFeeRate);
  f[F64_CREATOR_FEE_RATE] = Number(state.rates.creatorFeeRate);
  f[F64_CREATOR_FEE_ON] = state.creatorFeeOn;
  f[F64_VAULT_0] = Number(state.vault0);
  f[F64_VAULT_1] = Number(state.vault1);
  const bps = (t: CpmmState['transferFee0']): number => (t && t.maximumFee > 0n ? t.basisPoints : 0);
  f[F64_TRANSFER_FEE_BPS] = bps(t0) + 65_536 * bps(t1);
  f[F64_TRANSFER_FEE_MAX_0] = Number(t0?.maximumFee ?? 0n);
  f[F64_TRANSFER_FEE_MAX_1] = Number(t1?.maximumFee ?? 0n);
}

/** Reads a CPMM state back from a slab record image (exact path; the f64 words are not needed). */
export function cpmmFromRecord(rec: Readonly<RecordFields>): CpmmState {
  const u = rec.u64;
  return {
    status: rec.status,
    reserve0: rec.reserveA,
    reserve1: rec.reserveB,
    vault0: u[U64_VAULT_0]!,
    vault1: u[U64_VAULT_1]!,
    rates: {
      tradeFeeRate: u[U64_TRADE_FEE_RATE]!,
      creatorFeeRate: u[U64_CREATOR_FEE_RATE]!,
      protocolFeeRate: u[U64_PROTOCOL_FEE_RATE]!,
      fundFeeRate: u[U64_FUND_FEE_RATE]!,
    },
    creatorFeeOn: Number(u[U64_CREATOR_FEE_ON]!),
    openTime: u[U64_OPEN_TIME]!,
    poolStatusBits: Number(u[U64_POOL_STATUS_BITS]!),
    // The epoch of a schedule does not matter once chosen: the record holds the one in force.
    transferFee0: (u[U64_TRANSFER_FEE_FLAGS]! & 1n) !== 0n ? { epoch: 0n, basisPoints: Number(u[U64_TRANSFER_FEE_BPS_0]!), maximumFee: u[U64_TRANSFER_FEE_MAX_0]! } : null,
    transferFee1: (u[U64_TRANSFER_FEE_FLAGS]! & 2n) !== 0n ? { epoch: 0n, basisPoints: Number(u[U64_TRANSFER_FEE_BPS_1]!), maximumFee: u[U64_TRANSFER_FEE_MAX_1]! } : null,
    transferFeeChanges: false,
  };
}
