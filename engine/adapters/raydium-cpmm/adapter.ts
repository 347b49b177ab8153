/**
 * The Raydium CPMM (cp-swap) adapter: the {@link DexAdapter} contract assembled from this folder's parts.
 */
import { TOKEN_2022_PROGRAM_ID } from '../common/spl-layouts.js';
import type { DexAdapter, PoolDescriptor, ProgramFilter } from '../types.js';
import { cpmmEstimateOut, cpmmFeeBps, cpmmMarginalRate } from './estimate.js';
import { cpmmExecute } from './execute.js';
import { cpmmSwapInstruction } from './instruction.js';
import {
  AMM_CONFIG_DISCRIMINATOR,
  AMM_CONFIG_SIZE,
  CPMM_PROGRAM_ID,
  POOL_STATE_DISCRIMINATOR,
  POOL_STATE_SIZE,
  decodePoolState,
  isPoolStateAccount,
  poolAuthority,
} from './layout.js';
import { cpmmQuote } from './quote.js';
import { cpmmFromRecord, cpmmToRecord } from './record.js';
import { buildCpmmState, type CpmmState } from './state.js';

/** Filter that discovers every CPMM PoolState (size + discriminator). */
export const CPMM_POOL_FILTERS: readonly ProgramFilter[] = [
  { name: 'raydium-cpmm-pools', dataSize: POOL_STATE_SIZE, memcmp: [{ offset: 0, bytes: POOL_STATE_DISCRIMINATOR }] },
];

/** Filter for the AmmConfig accounts the pools read their fee rates from (a handful on mainnet). */
export const CPMM_AUX_FILTERS: readonly ProgramFilter[] = [
  { name: 'raydium-cpmm-configs', dataSize: AMM_CONFIG_SIZE, memcmp: [{ offset: 0, bytes: AMM_CONFIG_DISCRIMINATOR }] },
];

/**
 * Decodes a CPMM pool: mints and decimals come from the pool account itself; the dependencies are, in this
 * order, the AmmConfig, the token 0 vault and the token 1 vault (buildState relies on the order), then each mint
 * owned by Token-2022 (its transfer fee applies to the swap).
 */
function decodePool(address: string, data: Uint8Array): PoolDescriptor | null {
  if (!isPoolStateAccount(data)) return null;
  const p = decodePoolState(data);
  return {
    address,
    dex: 'raydium-cpmm',
    programId: CPMM_PROGRAM_ID,
    mintA: p.token0Mint,
    mintB: p.token1Mint,
    decimalsA: p.mint0Decimals,
    decimalsB: p.mint1Decimals,
    dependencies: [
      p.ammConfig,
      p.token0Vault,
      p.token1Vault,
      ...(p.token0Program === TOKEN_2022_PROGRAM_ID ? [p.token0Mint] : []),
      ...(p.token1Program === TOKEN_2022_PROGRAM_ID ? [p.token1Mint] : []),
    ],
  };
}

/** The Raydium CPMM adapter. Token A/B are the pool's token 0/1; `aToB` is ZeroForOne. */
export const raydiumCpmmAdapter: DexAdapter<CpmmState> = {
  dex: 'raydium-cpmm',
  // swap_base_input / swap_base_output: exact either way; 13 accounts, fixed.
  exactOut: true,
  exactOutBToA: true,
  accountsPerSwap: 13,
  dynamicAccounts: false,
  unidirectional: false,
  // A swap writes the pool state (fees, observation index) and both vaults.
  swapWrites: (d) => [d.address, d.dependencies[1]!, d.dependencies[2]!],
  programId: CPMM_PROGRAM_ID,
  poolFilters: CPMM_POOL_FILTERS,
  auxFilters: CPMM_AUX_FILTERS,
  // Both vaults of every pool are token accounts of the program's one authority PDA (`AUTH_SEED`).
  vaultAuthorities: () => [poolAuthority()],
  isPool: isPoolStateAccount,
  decodePool,
  buildState: buildCpmmState,
  // A mint's newer transfer fee schedule starts at an epoch: rebuild on clock updates until it has.
  clockSensitive: (s) => s.transferFeeChanges,
  toRecord: cpmmToRecord,
  fromRecord: cpmmFromRecord,
  marginalRate: cpmmMarginalRate,
  estimateOut: cpmmEstimateOut,
  quote: cpmmQuote,
  feeBps: cpmmFeeBps,
  swapInstruction: cpmmSwapInstruction,
  execute: cpmmExecute,
};
