/**
 * The quotable state of a LaunchLab pool, built from the pool account (which holds the virtual and real reserves)
 * and its GlobalConfig and PlatformConfig, as of one slot.
 */
import type { ChainClock, PoolDescriptor } from '../types.js';
import {
  GLOBAL_CONFIG_OFFSET,
  PLATFORM_CONFIG_CREATOR_FEE_END,
  PLATFORM_CONFIG_OFFSET,
  POOL_OFFSET,
  POOL_STATUS_FUND,
  POOL_STATUS_MIGRATE,
  POOL_STATUS_TRADE,
  isGlobalConfigAccount,
  isLaunchlabPoolAccount,
  isPlatformConfigAccount,
} from './layout.js';
import { FEE_RATE_DENOMINATOR, type LaunchlabCurveState, type LaunchlabRates, totalFeeRate } from './math.js';
import { hasTransferFee } from './transfer-fee.js';

/** Record status: the curve is trading (pool status Fund). */
export const LAUNCHLAB_STATUS_OK = 0;
/** Record status: the curve is full and waits for migration (pool status Migrate). */
export const LAUNCHLAB_STATUS_MIGRATE = 1;
/** Record status: migrated to an AMM (pool status Trade). */
export const LAUNCHLAB_STATUS_MIGRATED = 2;
/** Record status: a pool status byte other than 0/1/2. */
export const LAUNCHLAB_STATUS_UNKNOWN = 3;
/** Record status: a curve type other than 0/1/2 (the SDK throws "find curve error"). */
export const LAUNCHLAB_STATUS_BAD_CURVE = 4;
/** Record status: trade + platform + creator fee rate above 1e6 (the SDK throws). */
export const LAUNCHLAB_STATUS_BAD_FEE = 5;
/** Record status: the base mint is Token-2022 with a transfer fee, which is not modelled. */
export const LAUNCHLAB_STATUS_TRANSFER_FEE = 6;

/** Decoded, quotable state of one LaunchLab pool (A = base mint, B = quote mint). */
export interface LaunchlabState extends LaunchlabCurveState {
  /** One of the `LAUNCHLAB_STATUS_*` values; nonzero means quotes return INACTIVE. */
  readonly status: number;
  /** GlobalConfig `curve_type`: 0 constant product, 1 fixed price, 2 linear price. */
  readonly curveType: number;
  readonly rates: LaunchlabRates;
  /** The pool's raw `status` byte. */
  readonly poolStatus: number;
  /**
   * Vault B's amount as the pool account accounts for it: `real_b + protocol_fee + platform_fee` (the protocol fee
   * stays in vault B; `platform_fee` is the legacy accrual). A buy's transfer into vault B must fit u64 on top.
   */
  readonly vaultB: bigint;
}

function u64At(data: Uint8Array, offset: number): bigint {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true);
}

/** Record status from the raw pool status, curve type and rates. */
export function launchlabStatus(poolStatus: number, curveType: number, rates: LaunchlabRates, transferFee: boolean): number {
  if (poolStatus === POOL_STATUS_MIGRATE) return LAUNCHLAB_STATUS_MIGRATE;
  if (poolStatus === POOL_STATUS_TRADE) return LAUNCHLAB_STATUS_MIGRATED;
  if (poolStatus !== POOL_STATUS_FUND) return LAUNCHLAB_STATUS_UNKNOWN;
  if (curveType > 2) return LAUNCHLAB_STATUS_BAD_CURVE;
  if (totalFeeRate(rates) > FEE_RATE_DENOMINATOR) return LAUNCHLAB_STATUS_BAD_FEE;
  if (transferFee) return LAUNCHLAB_STATUS_TRANSFER_FEE;
  return LAUNCHLAB_STATUS_OK;
}

/**
 * Builds the state from the pool account and `pool.dependencies` (GlobalConfig, PlatformConfig and, for a
 * Token-2022 base mint, the mint). Null while one is missing or not the expected kind of account. The
 * PlatformConfig is gated on its size: `creator_fee_rate` counts only when the account reaches it.
 */
export function buildLaunchlabState(
  pool: PoolDescriptor,
  poolData: Uint8Array,
  deps: ReadonlyMap<string, Uint8Array>,
  _clock: ChainClock,
): LaunchlabState | null {
  const [configKey, platformKey, mintKey] = pool.dependencies;
  if (configKey === undefined || platformKey === undefined) return null;
  const config = deps.get(configKey);
  const platform = deps.get(platformKey);
  if (!config || !platform || !isLaunchlabPoolAccount(poolData) || !isGlobalConfigAccount(config) || !isPlatformConfigAccount(platform)) return null;
  let transferFee = false;
  if (mintKey !== undefined) {
    const mint = deps.get(mintKey);
    if (!mint) return null;
    transferFee = hasTransferFee(mint);
  }
  const rates: LaunchlabRates = {
    tradeFeeRate: u64At(config, GLOBAL_CONFIG_OFFSET.tradeFeeRate),
    platformFeeRate: u64At(platform, PLATFORM_CONFIG_OFFSET.feeRate),
    creatorFeeRate: platform.length >= PLATFORM_CONFIG_CREATOR_FEE_END ? u64At(platform, PLATFORM_CONFIG_OFFSET.creatorFeeRate) : 0n,
  };
  const curveType = config[GLOBAL_CONFIG_OFFSET.curveType]!;
  const poolStatus = poolData[POOL_OFFSET.status]!;
  return {
    status: launchlabStatus(poolStatus, curveType, rates, transferFee),
    curveType,
    rates,
    poolStatus,
    virtualA: u64At(poolData, POOL_OFFSET.virtualA),
    virtualB: u64At(poolData, POOL_OFFSET.virtualB),
    realA: u64At(poolData, POOL_OFFSET.realA),
    realB: u64At(poolData, POOL_OFFSET.realB),
    totalSellA: u64At(poolData, POOL_OFFSET.totalSellA),
    vaultB: u64At(poolData, POOL_OFFSET.realB) + u64At(poolData, POOL_OFFSET.protocolFee) + u64At(poolData, POOL_OFFSET.platformFee),
  };
}
