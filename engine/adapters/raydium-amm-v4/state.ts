/**
 * The quotable state of an AMM v4 pool, built from the AmmInfo and its two vaults as of one slot, exactly as the
 * program's swap instructions read them (status and open time, `calc_total_without_take_pnl_no_orderbook`).
 */
import { TOKEN_ACCOUNT_SIZE, tokenAccountAmount } from '../common/spl-layouts.js';
import type { ChainClock, PoolDescriptor } from '../types.js';
import { AMM_OFFSET, AMM_STATUS, isAmmInfoAccount } from './layout.js';

/** Record status: the pool can trade. */
export const AMM_V4_STATUS_OK = 0;
/** Record status: the pool's AmmStatus forbids swaps (0, 2, 3, 4, 5 or an unknown value): InvalidStatus. */
export const AMM_V4_STATUS_SWAP_DISABLED = 1;
/** Record status: WaitingTrade (7) before `pool_open_time`: InvalidStatus until the clock reaches it. */
export const AMM_V4_STATUS_NOT_OPEN = 2;
/** Record status: swap fee denominator 0 or numerator >= denominator: the program's fee math panics. */
export const AMM_V4_STATUS_BAD_FEE = 3;
/** Record status: need_take_pnl above a vault amount: the program fails every swap with CheckedSubOverflow. */
export const AMM_V4_STATUS_PNL_EXCEEDS_VAULT = 4;
/** Record status: coin and pc vault mints are equal: the program fails with NotAllowed. */
export const AMM_V4_STATUS_SAME_MINT = 5;

/** Decoded, quotable state of one AMM v4 pool (coin = A, pc = B). */
export interface AmmV4State {
  /** One of the `AMM_V4_STATUS_*` values; nonzero means quotes return INACTIVE. */
  readonly status: number;
  /** coin vault amount - need_take_pnl_coin (0 when the pool is PNL_EXCEEDS_VAULT). */
  readonly reserveCoin: bigint;
  /** pc vault amount - need_take_pnl_pc. */
  readonly reservePc: bigint;
  /** The coin and pc vaults' own amounts: an input that would take its vault above u64 fails the token transfer. */
  readonly vaultCoin: bigint;
  readonly vaultPc: bigint;
  /** The pool's own `fees.swap_fee_numerator / swap_fee_denominator` (usually 25 / 10000). */
  readonly swapFeeNumerator: bigint;
  readonly swapFeeDenominator: bigint;
  /** The raw AmmStatus. */
  readonly ammStatus: bigint;
  /** `state_data.pool_open_time`, unix seconds (matters for status 7 only). */
  readonly poolOpenTime: bigint;
}

function u64At(data: Uint8Array, offset: number): bigint {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true);
}

/** True when the program's `swap_permission` allows this AmmStatus (1 Initialized, 6 SwapOnly, 7 WaitingTrade). */
export function swapPermitted(ammStatus: bigint): boolean {
  return ammStatus === AMM_STATUS.Initialized || ammStatus === AMM_STATUS.SwapOnly || ammStatus === AMM_STATUS.WaitingTrade;
}

/** Inputs of {@link ammV4Status}, the raw fields the program checks before its math. */
export interface AmmV4StatusInputs {
  readonly ammStatus: bigint;
  readonly poolOpenTime: bigint;
  readonly swapFeeNumerator: bigint;
  readonly swapFeeDenominator: bigint;
  readonly pnlExceedsVault: boolean;
  readonly sameMint: boolean;
}

/** Record status of a pool from its raw fields and the clock, in the program's order of checks. */
export function ammV4Status(s: AmmV4StatusInputs, clock: ChainClock): number {
  // load_mut_checked rejects an uninitialized pool before the same-mint check.
  if (s.ammStatus === AMM_STATUS.Uninitialized) return AMM_V4_STATUS_SWAP_DISABLED;
  if (s.sameMint) return AMM_V4_STATUS_SAME_MINT;
  if (!swapPermitted(s.ammStatus)) return AMM_V4_STATUS_SWAP_DISABLED;
  // `(clock.unix_timestamp as u64) < pool_open_time`; a negative timestamp never occurs.
  if (s.ammStatus === AMM_STATUS.WaitingTrade && clock.unixTimestamp < s.poolOpenTime) return AMM_V4_STATUS_NOT_OPEN;
  if (s.pnlExceedsVault) return AMM_V4_STATUS_PNL_EXCEEDS_VAULT;
  if (s.swapFeeDenominator === 0n || s.swapFeeNumerator >= s.swapFeeDenominator) return AMM_V4_STATUS_BAD_FEE;
  return AMM_V4_STATUS_OK;
}

function sameKey(data: Uint8Array, a: number, b: number): boolean {
  for (let i = 0; i < 32; i++) if (data[a + i] !== data[b + i]) return false;
  return true;
}

/**
 * Builds the state from the AmmInfo and its dependencies (`coinVault`, `pcVault` of `pool.dependencies`). Null
 * while a vault is missing or is not a token account. Reads fixed offsets directly: this runs on every vault update.
 */
export function buildAmmV4State(
  pool: PoolDescriptor,
  poolData: Uint8Array,
  deps: ReadonlyMap<string, Uint8Array>,
  clock: ChainClock,
): AmmV4State | null {
  const [coinKey, pcKey] = pool.dependencies;
  if (coinKey === undefined || pcKey === undefined || !isAmmInfoAccount(poolData)) return null;
  const coinVault = deps.get(coinKey);
  const pcVault = deps.get(pcKey);
  if (!coinVault || !pcVault || coinVault.length < TOKEN_ACCOUNT_SIZE || pcVault.length < TOKEN_ACCOUNT_SIZE) return null;
  const coinAmount = tokenAccountAmount(coinVault);
  const pcAmount = tokenAccountAmount(pcVault);
  const pnlCoin = u64At(poolData, AMM_OFFSET.needTakePnlCoin);
  const pnlPc = u64At(poolData, AMM_OFFSET.needTakePnlPc);
  const pnlExceedsVault = pnlCoin > coinAmount || pnlPc > pcAmount;
  const ammStatus = u64At(poolData, AMM_OFFSET.status);
  const poolOpenTime = u64At(poolData, AMM_OFFSET.poolOpenTime);
  const swapFeeNumerator = u64At(poolData, AMM_OFFSET.swapFeeNumerator);
  const swapFeeDenominator = u64At(poolData, AMM_OFFSET.swapFeeDenominator);
  const sameMint = sameKey(poolData, AMM_OFFSET.coinVaultMint, AMM_OFFSET.pcVaultMint);
  return {
    status: ammV4Status({ ammStatus, poolOpenTime, swapFeeNumerator, swapFeeDenominator, pnlExceedsVault, sameMint }, clock),
    reserveCoin: pnlExceedsVault ? 0n : coinAmount - pnlCoin,
    reservePc: pnlExceedsVault ? 0n : pcAmount - pnlPc,
    vaultCoin: coinAmount,
    vaultPc: pcAmount,
    swapFeeNumerator,
    swapFeeDenominator,
    ammStatus,
    poolOpenTime,
  };
}
