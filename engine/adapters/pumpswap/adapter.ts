/**
 * The PumpSwap AMM adapter: the {@link DexAdapter} contract assembled from this folder's parts.
 */
import { UNKNOWN_DECIMALS, type DexAdapter, type PoolDescriptor, type ProgramFilter } from '../types.js';
import { pumpswapEstimateOut, pumpswapFeeBps, pumpswapMarginalRate } from './estimate.js';
import { pumpswapExecute } from './execute.js';
import { pumpswapSwapInstruction } from './instruction.js';
import { GLOBAL_CONFIG_DISCRIMINATOR, POOL_DISCRIMINATOR, PUMPSWAP_PROGRAM_ID, decodePoolAccount, isPoolAccount } from './layout.js';
import { feeConfigAddress, globalConfigAddress } from './pdas.js';
import { pumpswapQuote } from './quote.js';
import { pumpswapFromRecord, pumpswapToRecord } from './record.js';
import { buildPumpswapState, type PumpswapState } from './state.js';

/**
 * Filter that discovers every PumpSwap Pool: the discriminator only (owner = the program), since live pools have
 * seven sizes (211..300 B) and may grow again. The discriminator is shared with Meteora DAMM v1/v2, whose
 * accounts other owners hold.
 */
export const PUMPSWAP_POOL_FILTERS: readonly ProgramFilter[] = [
  { name: 'pumpswap-pools', memcmp: [{ offset: 0, bytes: POOL_DISCRIMINATOR }] },
];

/**
 * The program-owned GlobalConfig. The FeeConfig belongs to the pump-fees program: it is a dependency of every
 * pool (subscribed by account), not an owner filter of this program.
 */
export const PUMPSWAP_AUX_FILTERS: readonly ProgramFilter[] = [
  { name: 'pumpswap-global-config', memcmp: [{ offset: 0, bytes: GLOBAL_CONFIG_DISCRIMINATOR }] },
];

/**
 * Decodes a pool. Mint A is the base mint, B the quote mint. Decimals are not in the pool account: they come from
 * `mintDecimals` (`UNKNOWN_DECIMALS` otherwise: ingest then reads the mint accounts). Dependencies, in this order (buildState relies on it): GlobalConfig, FeeConfig,
 * base mint (supply: the market cap), base vault, quote vault.
 */
function decodePool(address: string, data: Uint8Array, mintDecimals?: (mint: string) => number | undefined): PoolDescriptor | null {
  if (!isPoolAccount(data)) return null;
  const p = decodePoolAccount(data);
  return {
    address,
    dex: 'pumpswap',
    programId: PUMPSWAP_PROGRAM_ID,
    mintA: p.baseMint,
    mintB: p.quoteMint,
    decimalsA: mintDecimals?.(p.baseMint) ?? UNKNOWN_DECIMALS,
    decimalsB: mintDecimals?.(p.quoteMint) ?? UNKNOWN_DECIMALS,
    dependencies: [globalConfigAddress(), feeConfigAddress(), p.baseMint, p.poolBaseTokenAccount, p.poolQuoteTokenAccount],
  };
}

/** The PumpSwap adapter. A = base, B = quote; aToB = sell. */
export const pumpswapAdapter: DexAdapter<PumpswapState> = {
  dex: 'pumpswap',
  // `buy` is exact-out; a sell has no exact-out instruction (an inverted exact-in that can overshoot). Accounts:
  // 23 (sell) to 27 (buy of a cashback coin with a coin creator), fixed per pool and direction.
  exactOut: false,
  exactOutBToA: true,
  accountsPerSwap: 27,
  dynamicAccounts: false,
  unidirectional: false,
  // A swap writes both pool vaults; the pool account itself does not change.
  swapWrites: (d) => [d.dependencies[3]!, d.dependencies[4]!],
  programId: PUMPSWAP_PROGRAM_ID,
  poolFilters: PUMPSWAP_POOL_FILTERS,
  auxFilters: PUMPSWAP_AUX_FILTERS,
  isPool: isPoolAccount,
  decodePool,
  buildState: buildPumpswapState,
  toRecord: pumpswapToRecord,
  fromRecord: pumpswapFromRecord,
  marginalRate: pumpswapMarginalRate,
  estimateOut: pumpswapEstimateOut,
  quote: pumpswapQuote,
  feeBps: pumpswapFeeBps,
  swapInstruction: pumpswapSwapInstruction,
  execute: pumpswapExecute,
};
