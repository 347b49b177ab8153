/**
 * The slab-record image of an AMM v4 state: which u64 and f64 parameter words mean what (the table is in this
 * folder's README and must stay in step with these constants).
 */
import { PARAM_F64_WORDS, PARAM_U64_WORDS, type RecordFields } from '../types.js';
import type { AmmV4State } from './state.js';

/** u64 word: the pool's swap fee numerator. */
export const U64_SWAP_FEE_NUMERATOR = 0;
/** u64 word: the pool's swap fee denominator. */
export const U64_SWAP_FEE_DENOMINATOR = 1;
/** u64 word: the raw AmmStatus. */
export const U64_AMM_STATUS = 2;
/** u64 word: pool_open_time (unix seconds). */
export const U64_POOL_OPEN_TIME = 3;
/** u64 word: the coin vault's own amount (the reserve plus need_take_pnl_coin). */
export const U64_COIN_VAULT = 4;
/** u64 word: the pc vault's own amount. */
export const U64_PC_VAULT = 5;

/**
 * f64 word: fraction of the input that reaches the curve, (den - num) / den; 0 when the fee fraction is one the
 * program rejects. Stored as the kept fraction so that float readers compute `floor(x * keep)` (equal to the
 * program's `x - ceil(x * num / den)`) without cancellation.
 */
export const F64_IN_KEEP = 0;
/** f64 word: swap fee in basis points, num / den x 1e4 (25 / 10000 -> 25). */
export const F64_FEE_BPS = 1;
/** f64 word: the coin vault's own amount (float readers refuse an input that would take it above u64). */
export const F64_COIN_VAULT = 2;
/** f64 word: the pc vault's own amount. */
export const F64_PC_VAULT = 3;

/** Writes an AMM v4 state into a slab record image (reserveA = coin, reserveB = pc). */
export function ammV4ToRecord(state: AmmV4State, out: RecordFields): void {
  out.status = state.status;
  out.reserveA = state.reserveCoin;
  out.reserveB = state.reservePc;
  out.ext = null;
  const u = out.u64;
  u.fill(0n, 0, PARAM_U64_WORDS);
  u[U64_SWAP_FEE_NUMERATOR] = state.swapFeeNumerator;
  u[U64_SWAP_FEE_DENOMINATOR] = state.swapFeeDenominator;
  u[U64_AMM_STATUS] = state.ammStatus;
  u[U64_POOL_OPEN_TIME] = state.poolOpenTime;
  u[U64_COIN_VAULT] = state.vaultCoin;
  u[U64_PC_VAULT] = state.vaultPc;
  const f = out.f64;
  f.fill(0, 0, PARAM_F64_WORDS);
  const num = state.swapFeeNumerator;
  const den = state.swapFeeDenominator;
  const valid = den > 0n && num < den;
  // Exact ratios as far as f64 goes: divide the bigints' difference, not 1 - num/den.
  f[F64_IN_KEEP] = valid ? Number(den - num) / Number(den) : 0;
  f[F64_FEE_BPS] = valid ? (Number(num) / Number(den)) * 10_000 : 0;
  f[F64_COIN_VAULT] = Number(state.vaultCoin);
  f[F64_PC_VAULT] = Number(state.vaultPc);
}

/** Reads an AMM v4 state back from a slab record image (exact path; the f64 words are not needed). */
export function ammV4FromRecord(rec: Readonly<RecordFields>): AmmV4State {
  const u = rec.u64;
  return {
    status: rec.status,
    reserveCoin: rec.reserveA,
    reservePc: rec.reserveB,
    swapFeeNumerator: u[U64_SWAP_FEE_NUMERATOR]!,
    swapFeeDenominator: u[U64_SWAP_FEE_DENOMINATOR]!,
    ammStatus: u[U64_AMM_STATUS]!,
    poolOpenTime: u[U64_POOL_OPEN_TIME]!,
    vaultCoin: u[U64_COIN_VAULT]!,
    vaultPc: u[U64_PC_VAULT]!,
  };
}
