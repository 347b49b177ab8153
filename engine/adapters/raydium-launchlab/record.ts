/**
 * The slab-record image of a LaunchLab state: which u64 and f64 parameter words mean what (the table is in this
 * folder's README and must stay in step with these constants). No extension: the curve is five numbers.
 */
import { PARAM_F64_WORDS, PARAM_U64_WORDS, type RecordFields } from '../types.js';
import { FEE_RATE_DENOMINATOR, totalFeeRate } from './math.js';
import type { LaunchlabState } from './state.js';

/** u64 word: `virtual_a`. */
export const U64_VIRTUAL_A = 0;
/** u64 word: `virtual_b`. */
export const U64_VIRTUAL_B = 1;
/** u64 word: `real_a` (A sold by the curve so far). */
export const U64_REAL_A = 2;
/** u64 word: `real_b` (B raised by the curve so far, net of fees). */
export const U64_REAL_B = 3;
/** u64 word: `total_sell_a` (the cap on real_a). */
export const U64_TOTAL_SELL_A = 4;
/** u64 word: GlobalConfig `curve_type`. */
export const U64_CURVE_TYPE = 5;
/** u64 word: GlobalConfig `trade_fee_rate` (protocol), per 1e6. */
export const U64_TRADE_FEE_RATE = 6;
/** u64 word: PlatformConfig `fee_rate`, per 1e6. */
export const U64_PLATFORM_FEE_RATE = 7;
/** u64 word: PlatformConfig `creator_fee_rate`, per 1e6 (0 when the account predates it). */
export const U64_CREATOR_FEE_RATE = 8;
/** u64 word: the pool's raw status byte. */
export const U64_POOL_STATUS = 9;
/** u64 word: vault B as the pool accounts for it (`real_b + protocol_fee + platform_fee`). */
export const U64_VAULT_B = 10;

/** f64 word: `virtual_a`. */
export const F64_VIRTUAL_A = 0;
/** f64 word: `virtual_b`. */
export const F64_VIRTUAL_B = 1;
/** f64 word: `real_a`. */
export const F64_REAL_A = 2;
/** f64 word: `real_b`. */
export const F64_REAL_B = 3;
/** f64 word: `total_sell_a`. */
export const F64_TOTAL_SELL_A = 4;
/** f64 word: fraction kept after the fee, (1e6 - total rate) / 1e6; negative when the rate exceeds 1e6 (status
 * BAD_FEE: no reader uses it then, but `feeBps` is derived from it). */
export const F64_KEEP = 5;
/** f64 word: curve type (0, 1, 2). */
export const F64_CURVE_TYPE = 6;
/** f64 word: `U64_VAULT_B` as a float (`estimateOut` is 0 for a buy that would take it to 2^64). */
export const F64_VAULT_B = 7;

const D = Number(FEE_RATE_DENOMINATOR);

/** Writes a state into a slab record image: reserveA = A left on the curve, reserveB = real_b. */
export function launchlabToRecord(state: LaunchlabState, out: RecordFields): void {
  out.status = state.status;
  const left = state.totalSellA - state.realA;
  out.reserveA = left > 0n ? left : 0n;
  out.reserveB = state.realB;
  out.ext = null;
  const u = out.u64;
  u.fill(0n, 0, PARAM_U64_WORDS);
  u[U64_VIRTUAL_A] = state.virtualA;
  u[U64_VIRTUAL_B] = state.virtualB;
  u[U64_REAL_A] = state.realA;
  u[U64_REAL_B] = state.realB;
  u[U64_TOTAL_SELL_A] = state.totalSellA;
  u[U64_CURVE_TYPE] = BigInt(state.curveType);
  u[U64_TRADE_FEE_RATE] = state.rates.tradeFeeRate;
  u[U64_PLATFORM_FEE_RATE] = state.rates.platformFeeRate;
  u[U64_CREATOR_FEE_RATE] = state.rates.creatorFeeRate;
  u[U64_POOL_STATUS] = BigInt(state.poolStatus);
  u[U64_VAULT_B] = state.vaultB;
  const f = out.f64;
  f.fill(0, 0, PARAM_F64_WORDS);
  const rate = Number(totalFeeRate(state.rates));
  f[F64_VIRTUAL_A] = Number(state.virtualA);
  f[F64_VIRTUAL_B] = Number(state.virtualB);
  f[F64_REAL_A] = Number(state.realA);
  f[F64_REAL_B] = Number(state.realB);
  f[F64_TOTAL_SELL_A] = Number(state.totalSellA);
  f[F64_KEEP] = (D - rate) / D;
  f[F64_CURVE_TYPE] = state.curveType;
  f[F64_VAULT_B] = Number(state.vaultB);
}

/** Reads a state back from a slab record image (exact path; the f64 words are not needed). */
export function launchlabFromRecord(rec: Readonly<RecordFields>): LaunchlabState {
  const u = rec.u64;
  return {
    status: rec.status,
    curveType: Number(u[U64_CURVE_TYPE]!),
    rates: {
      tradeFeeRate: u[U64_TRADE_FEE_RATE]!,
      platformFeeRate: u[U64_PLATFORM_FEE_RATE]!,
      creatorFeeRate: u[U64_CREATOR_FEE_RATE]!,
    },
    poolStatus: Number(u[U64_POOL_STATUS]!),
    virtualA: u[U64_VIRTUAL_A]!,
    virtualB: u[U64_VIRTUAL_B]!,
    realA: u[U64_REAL_A]!,
    realB: u[U64_REAL_B]!,
    totalSellA: u[U64_TOTAL_SELL_A]!,
    vaultB: u[U64_VAULT_B]!,
  };
}
