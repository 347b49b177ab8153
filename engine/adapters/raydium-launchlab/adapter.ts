/**
 * The Raydium LaunchLab adapter: the {@link DexAdapter} contract assembled from this folder's parts.
 */
import type { DexAdapter, PoolDescriptor, ProgramFilter } from '../types.js';
import { launchlabEstimateOut, launchlabFeeBps, launchlabEffectiveReserve, launchlabMarginalRate } from './estimate.js';
import { launchlabExecute } from './execute.js';
import { launchlabSwapInstruction } from './instruction.js';
import {
  GLOBAL_CONFIG_DISCRIMINATOR,
  GLOBAL_CONFIG_SIZE,
  LAUNCHLAB_PROGRAM_ID,
  PLATFORM_CONFIG_DISCRIMINATOR,
  POOL_STATE_DISCRIMINATOR,
  POOL_STATE_SIZE,
  decodeLaunchlabPool,
  isLaunchlabPoolAccount,
} from './layout.js';
import { launchlabQuote } from './quote.js';
import { launchlabFromRecord, launchlabToRecord } from './record.js';
import { buildLaunchlabState, type LaunchlabState } from './state.js';

/** Filter that discovers every LaunchLab PoolState (size + discriminator; the owner tells it from CPMM/CLMM). */
export const LAUNCHLAB_POOL_FILTERS: readonly ProgramFilter[] = [
  { name: 'raydium-launchlab-pools', dataSize: POOL_STATE_SIZE, memcmp: [{ offset: 0, bytes: POOL_STATE_DISCRIMINATOR }] },
];

/**
 * Filters for the configs the pools read their curve type and fee rates from. PlatformConfig has no dataSize
 * filter: the account ends in a Vec and has grown over program upgrades.
 */
export const LAUNCHLAB_AUX_FILTERS: readonly ProgramFilter[] = [
  { name: 'raydium-launchlab-global-configs', dataSize: GLOBAL_CONFIG_SIZE, memcmp: [{ offset: 0, bytes: GLOBAL_CONFIG_DISCRIMINATOR }] },
  { name: 'raydium-launchlab-platform-configs', memcmp: [{ offset: 0, bytes: PLATFORM_CONFIG_DISCRIMINATOR }] },
];

/**
 * Decodes a LaunchLab pool: A = base mint (the launched token), B = quote mint; decimals from the pool account.
 * Dependencies, in this order (buildState relies on it): GlobalConfig, PlatformConfig, and for a Token-2022 base
 * mint (`mint_program_flag` 1) the mint A account, whose transfer fee makes the pool INACTIVE.
 */
function decodePool(address: string, data: Uint8Array): PoolDescriptor | null {
  if (!isLaunchlabPoolAccount(data)) return null;
  const p = decodeLaunchlabPool(data);
  const dependencies = p.mintProgramFlag === 1 ? [p.globalConfig, p.platformConfig, p.mintA] : [p.globalConfig, p.platformConfig];
  return {
    address,
    dex: 'raydium-launchlab',
    programId: LAUNCHLAB_PROGRAM_ID,
    mintA: p.mintA,
    mintB: p.mintB,
    decimalsA: p.mintDecimalsA,
    decimalsB: p.mintDecimalsB,
    dependencies,
  };
}

/** The Raydium LaunchLab adapter. `aToB` is a sell of the launched token; quotes use share fee rate 0. */
export const raydiumLaunchlabAdapter: DexAdapter<LaunchlabState> = {
  dex: 'raydium-launchlab',
  // buy_exact_out / sell_exact_out; 18 accounts, fixed.
  exactOut: true,
  exactOutBToA: true,
  accountsPerSwap: 18,
  dynamicAccounts: false,
  unidirectional: false,
  programId: LAUNCHLAB_PROGRAM_ID,
  poolFilters: LAUNCHLAB_POOL_FILTERS,
  auxFilters: LAUNCHLAB_AUX_FILTERS,
  isPool: isLaunchlabPoolAccount,
  decodePool,
  buildState: buildLaunchlabState,
  toRecord: launchlabToRecord,
  fromRecord: launchlabFromRecord,
  marginalRate: launchlabMarginalRate,
  effectiveReserve: launchlabEffectiveReserve,
  estimateOut: launchlabEstimateOut,
  quote: launchlabQuote,
  feeBps: launchlabFeeBps,
  swapInstruction: launchlabSwapInstruction,
  execute: launchlabExecute,
};
