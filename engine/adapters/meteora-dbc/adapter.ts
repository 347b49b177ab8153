/**
 * The Meteora Dynamic Bonding Curve adapter: the {@link DexAdapter} contract assembled from this folder's parts.
 */
import type { DescriptorInput, DexAdapter, PoolDescriptor, ProgramFilter } from '../types.js';
import { describeDbcPool } from './descriptor.js';
import { dbcEffectiveReserve, dbcEstimateOut, dbcFeeBps, dbcMarginalRate } from './estimate.js';
import { dbcExecute } from './execute.js';
import { dbcSwapInstruction } from './instruction.js';
import {
  DBC_PROGRAM_ID,
  POOL_CONFIG_DISCRIMINATOR,
  POOL_CONFIG_SIZE,
  VIRTUAL_POOL_DISCRIMINATOR,
  VIRTUAL_POOL_SIZE,
  decodeVirtualPool,
  isVirtualPoolAccount,
} from './layout.js';
import { dbcQuote } from './quote.js';
import { dbcFromRecord, dbcToRecord } from './record.js';
import { buildDbcState, type DbcState } from './state.js';

/** Filter that discovers every DBC VirtualPool (size + discriminator). */
export const DBC_POOL_FILTERS: readonly ProgramFilter[] = [
  { name: 'meteora-dbc-pools', dataSize: VIRTUAL_POOL_SIZE, memcmp: [{ offset: 0, bytes: VIRTUAL_POOL_DISCRIMINATOR }] },
];

/** Filter for the PoolConfig accounts the pools read their curve and fees from. */
export const DBC_AUX_FILTERS: readonly ProgramFilter[] = [
  { name: 'meteora-dbc-configs', dataSize: POOL_CONFIG_SIZE, memcmp: [{ offset: 0, bytes: POOL_CONFIG_DISCRIMINATOR }] },
];

/** The PoolConfig a VirtualPool names: it holds the quote mint and the base decimals (ingest reads it first). */
function descriptorInputs(data: Uint8Array): readonly string[] {
  return isVirtualPoolAccount(data) ? [decodeVirtualPool(data).config] : [];
}

/**
 * Decodes a DBC pool: A = base mint, B = quote mint, the PoolConfig as the only dependency (reserves live in the
 * pool account). With the config among `inputs` (as ingest passes it) the descriptor is exact; without it the quote
 * mint comes from the quote vault PDA over the known quote mints (see descriptor.ts).
 */
function decodePool(
  address: string,
  data: Uint8Array,
  mintDecimals?: (mint: string) => number | undefined,
  inputs?: ReadonlyMap<string, DescriptorInput>,
): PoolDescriptor | null {
  const config = isVirtualPoolAccount(data) ? inputs?.get(decodeVirtualPool(data).config) : undefined;
  return describeDbcPool(address, data, config?.owner === DBC_PROGRAM_ID ? config.data : undefined, mintDecimals);
}

/** The Meteora DBC adapter. Token A is the base mint, B the quote mint; `aToB` sells base (swap_base_for_quote). */
export const meteoraDbcAdapter: DexAdapter<DbcState> = {
  dex: 'meteora-dbc',
  // swap2 mode 2 is exact-out either way. Accounts: 15, 16 with the instructions sysvar (rate limiter, first swap
  // with min fee), which the config fixes.
  exactOut: true,
  exactOutBToA: true,
  accountsPerSwap: 16,
  dynamicAccounts: false,
  unidirectional: false,
  programId: DBC_PROGRAM_ID,
  poolFilters: DBC_POOL_FILTERS,
  auxFilters: DBC_AUX_FILTERS,
  isPool: isVirtualPoolAccount,
  descriptorInputs,
  decodePool,
  buildState: buildDbcState,
  toRecord: dbcToRecord,
  fromRecord: dbcFromRecord,
  marginalRate: dbcMarginalRate,
  effectiveReserve: dbcEffectiveReserve,
  estimateOut: dbcEstimateOut,
  quote: dbcQuote,
  clockSensitive: (s) => s.clockSensitive,
  feeBps: dbcFeeBps,
  swapInstruction: dbcSwapInstruction,
  execute: dbcExecute,
};
