/**
 * The quotable state of a CPMM pool, built from the pool account, its AmmConfig and its two vaults as of
 * one slot, exactly as the program's swap instructions read them.
 */
import { tokenAccountAmount, TOKEN_ACCOUNT_SIZE } from '../common/spl-layouts.js';
import { epochTransferFee, mintTransferFeeConfig, transferFeeChangesAfter, type TransferFee } from '../common/transfer-fee.js';
import type { ChainClock, PoolDescriptor } from '../types.js';
import {
  AMM_CONFIG_OFFSET,
  POOL_OFFSET,
  POOL_STATUS_SWAP_DISABLED,
  isAmmConfigAccount,
  isPoolStateAccount,
} from './layout.js';
import { type CpmmFeeRates, FEE_RATE_DENOMINATOR } from './math.js';

/** Record status: the pool can trade. */
export const CPMM_STATUS_OK = 0;
/** Record status: bit 2 of the pool's `status` is set (swaps disabled by the admin). */
export const CPMM_STATUS_SWAP_DISABLED = 1;
/** Record status: the chain clock is before `open_time`; re-evaluate when the clock passes it. */
export const CPMM_STATUS_NOT_OPEN = 2;
/** Record status: `creator_fee_on` is not 0/1/2; the program fails every swap with InvalidFeeModel. */
export const CPMM_STATUS_BAD_FEE_MODEL = 3;
/** Record status: trade + creator fee rate >= 1e6; the program's fee math fails (a config it forbids). */
export const CPMM_STATUS_BAD_FEE_CONFIG = 4;

/** Decoded, quotable state of one CPMM pool (token 0 = A, token 1 = B). */
export interface CpmmState {
  /** One of the `CPMM_STATUS_*` values; nonzero means quotes return INACTIVE. */
  readonly status: number;
  /** Vault amounts net of accrued protocol, fund and creator fees (saturating at 0). */
  readonly reserve0: bigint;
  readonly reserve1: bigint;
  /** The vaults' own amounts (reserves plus accrued fees): the token program refuses a transfer that takes the
   * input vault above u64. */
  readonly vault0: bigint;
  readonly vault1: bigint;
  /** Rates from the AmmConfig; `creatorFeeRate` is 0 when the pool's `enableCreatorFee` is false. */
  readonly rates: CpmmFeeRates;
  /** 0 both tokens (creator fee always on the input), 1 token 0 only, 2 token 1 only. */
  readonly creatorFeeOn: number;
  /** Unix time from which swaps are allowed. */
  readonly openTime: bigint;
  /** The pool's raw status bits (bit 0 deposit, 1 withdraw, 2 swap disabled). */
  readonly poolStatusBits: number;
  /** Token-2022 transfer fee of each mint at the clock's epoch (null: none, or an SPL Token mint). */
  readonly transferFee0: TransferFee | null;
  readonly transferFee1: TransferFee | null;
  /** True while a mint's newer transfer fee schedule is still ahead of the clock's epoch. */
  readonly transferFeeChanges: boolean;
}

function view(data: Uint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
}

/** Reserve of one side: vault minus accrued fees, 0 when the fees exceed the vault (the program fails then). */
function netReserve(vault: bigint, protocol: bigint, fund: bigint, creator: bigint): bigint {
  const fees = protocol + fund + creator;
  return vault > fees ? vault - fees : 0n;
}

/** Record status of a pool from its raw fields and the clock. */
export function cpmmStatus(poolStatusBits: number, openTime: bigint, creatorFeeOn: number, rates: CpmmFeeRates, clock: ChainClock): number {
  if ((poolStatusBits & POOL_STATUS_SWAP_DISABLED) !== 0) return CPMM_STATUS_SWAP_DISABLED;
  // The program compares `unix_timestamp as u64` with open_time; a negative timestamp never occurs.
  if (clock.unixTimestamp < openTime) return CPMM_STATUS_NOT_OPEN;
  if (creatorFeeOn > 2) return CPMM_STATUS_BAD_FEE_MODEL;
  if (rates.tradeFeeRate + rates.creatorFeeRate >= FEE_RATE_DENOMINATOR) return CPMM_STATUS_BAD_FEE_CONFIG;
  return CPMM_STATUS_OK;
}

/**
 * Builds the state from the pool account and its dependencies (`ammConfig`, `token0Vault`, `token1Vault` of
 * `pool.dependencies`, then the Token-2022 mints among the pool's two: their transfer fees). Null while a
 * dependency is missing or is not the expected kind of account. Reads fixed offsets directly: this runs on every
 * vault update.
 */
export function buildCpmmState(
  pool: PoolDescriptor,
  poolData: Uint8Array,
  deps: ReadonlyMap<string, Uint8Array>,
  clock: ChainClock,
): CpmmState | null {
  const [configKey, vault0Key, vault1Key] = pool.dependencies;
  if (configKey === undefined || vault0Key === undefined || vault1Key === undefined) return null;
  const config = deps.get(configKey);
  const vault0 = deps.get(vault0Key);
  const vault1 = deps.get(vault1Key);
  if (!config || !vault0 || !vault1 || !isPoolStateAccount(poolData) || !isAmmConfigAccount(config)) return null;
  if (vault0.length < TOKEN_ACCOUNT_SIZE || vault1.length < TOKEN_ACCOUNT_SIZE) return null;
  // One DataView per account (a view per field read was a measurable share of a rebuild).
  const cv = view(config);
  const pv = view(poolData);
  const fee0 = mintFee(pool, pool.mintA, deps, clock.epoch);
  const fee1 = mintFee(pool, pool.mintB, deps, clock.epoch);
  if (!fee0 || !fee1) return null;

  const enableCreatorFee = poolData[POOL_OFFSET.enableCreatorFee] !== 0;
  const rates: CpmmFeeRates = {
    tradeFeeRate: cv.getBigUint64(AMM_CONFIG_OFFSET.tradeFeeRate, true),
    // adjust_creator_fee_rate: the config's rate applies only to pools that enabled the creator fee.
    creatorFeeRate: enableCreatorFee ? cv.getBigUint64(AMM_CONFIG_OFFSET.creatorFeeRate, true) : 0n,
    protocolFeeRate: cv.getBigUint64(AMM_CONFIG_OFFSET.protocolFeeRate, true),
    fundFeeRate: cv.getBigUint64(AMM_CONFIG_OFFSET.fundFeeRate, true),
  };
  const poolStatusBits = poolData[POOL_OFFSET.status]!;
  const openTime = pv.getBigUint64(POOL_OFFSET.openTime, true);
  const creatorFeeOn = poolData[POOL_OFFSET.creatorFeeOn]!;
  const amount0 = tokenAccountAmount(vault0);
  const amount1 = tokenAccountAmount(vault1);
  return {
    status: cpmmStatus(poolStatusBits, openTime, creatorFeeOn, rates, clock),
    reserve0: netReserve(
      amount0,
      pv.getBigUint64(POOL_OFFSET.protocolFeesToken0, true),
      pv.getBigUint64(POOL_OFFSET.fundFeesToken0, true),
      pv.getBigUint64(POOL_OFFSET.creatorFeesToken0, true),
    ),
    reserve1: netReserve(
      amount1,
      pv.getBigUint64(POOL_OFFSET.protocolFeesToken1, true),
      pv.getBigUint64(POOL_OFFSET.fundFeesToken1, true),
      pv.getBigUint64(POOL_OFFSET.creatorFeesToken1, true),
    ),
    vault0: amount0,
    vault1: amount1,
    rates,
    creatorFeeOn,
    openTime,
    poolStatusBits,
    transferFee0: fee0.fee,
    transferFee1: fee1.fee,
    transferFeeChanges: fee0.changes || fee1.changes,
  };
}

/** The transfer fee of a mint the pool lists as a dependency (a Token-2022 mint); null when the mint is missing. */
function mintFee(pool: PoolDescriptor, mint: string, deps: ReadonlyMap<string, Uint8Array>, epoch: bigint): { fee: TransferFee | null; changes: boolean } | null {
  if (!pool.dependencies.includes(mint)) return { fee: null, changes: false };
  const data = deps.get(mint);
  if (!data) return null;
  const config = mintTransferFeeConfig(data);
  return { fee: config ? epochTransferFee(config, epoch) : null, changes: transferFeeChangesAfter(config, epoch) };
}
