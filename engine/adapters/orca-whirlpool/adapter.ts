/**
 * The Orca Whirlpool adapter: the {@link DexAdapter} contract assembled from this folder's parts. Not registered
 * yet (`registry.ts`): the ingest side of its dynamic accounts (the tick arrays around the price) is a later step
 * (README, "Missing for ingest").
 */
import { EngineError } from '../../errors.js';
import type { ChainClock, DexAdapter, ExecuteResult, PoolDescriptor, ProgramFilter } from '../types.js';
import { whirlpoolEffectiveReserve, whirlpoolEstimateOut, whirlpoolFeeBps, whirlpoolMarginalRate } from './estimate.js';
import { SWAP_V2_ACCOUNTS, whirlpoolSwapInstruction } from './instruction.js';
import {
  DYNAMIC_TICK_ARRAY_DISCRIMINATOR, FIXED_TICK_ARRAY_DISCRIMINATOR, FIXED_TICK_ARRAY_SIZE, ORACLE_DISCRIMINATOR, ORACLE_SIZE,
  WHIRLPOOL_DISCRIMINATOR, WHIRLPOOL_PROGRAM_ID, WHIRLPOOL_SIZE, decodeWhirlpool, isWhirlpoolAccount,
} from './layout.js';
import { oracleAddress, tickArrayAddress } from './pda.js';
import { whirlpoolQuote } from './quote.js';
import { whirlpoolFromRecord, whirlpoolToRecord } from './record.js';
import { buildWhirlpoolState, hasAdaptiveFee, type WhirlpoolState } from './state.js';
import { swapTickArrayStarts } from './swap.js';
import { UNKNOWN_DECIMALS } from '../types.js';

/** Filter that discovers every Whirlpool (size + discriminator). */
export const WHIRLPOOL_POOL_FILTERS: readonly ProgramFilter[] = [
  { name: 'orca-whirlpool-pools', dataSize: WHIRLPOOL_SIZE, memcmp: [{ offset: 0, bytes: WHIRLPOOL_DISCRIMINATOR }] },
];

/** Filters of the accounts pools depend on: Oracles, fixed tick arrays, dynamic tick arrays (any size). */
export const WHIRLPOOL_AUX_FILTERS: readonly ProgramFilter[] = [
  { name: 'orca-whirlpool-oracles', dataSize: ORACLE_SIZE, memcmp: [{ offset: 0, bytes: ORACLE_DISCRIMINATOR }] },
  { name: 'orca-whirlpool-fixed-tick-arrays', dataSize: FIXED_TICK_ARRAY_SIZE, memcmp: [{ offset: 0, bytes: FIXED_TICK_ARRAY_DISCRIMINATOR }] },
  { name: 'orca-whirlpool-dynamic-tick-arrays', memcmp: [{ offset: 0, bytes: DYNAMIC_TICK_ARRAY_DISCRIMINATOR }] },
];

/**
 * Decodes a Whirlpool: mints from the pool (decimals from `mintDecimals`, else unknown); the dependencies are the
 * Oracle of an adaptive-fee pool, then the tick arrays of both directions' swap windows at the pool's tick at decode
 * time (a static list: following the price is the ingest step this adapter still lacks).
 */
function decodePool(address: string, data: Uint8Array, mintDecimals?: (mint: string) => number | undefined): PoolDescriptor | null {
  if (!isWhirlpoolAccount(data)) return null;
  const w = decodeWhirlpool(data);
  if (w.tickSpacing === 0) return null;
  const starts = new Set<number>([...swapTickArrayStarts(w.tickCurrentIndex, w.tickSpacing, true), ...swapTickArrayStarts(w.tickCurrentIndex, w.tickSpacing, false)]);
  return {
    address,
    dex: 'orca-whirlpool',
    programId: WHIRLPOOL_PROGRAM_ID,
    mintA: w.tokenMintA,
    mintB: w.tokenMintB,
    decimalsA: mintDecimals?.(w.tokenMintA) ?? UNKNOWN_DECIMALS,
    decimalsB: mintDecimals?.(w.tokenMintB) ?? UNKNOWN_DECIMALS,
    dependencies: [
      ...(hasAdaptiveFee(w.feeTierIndexSeed, w.tickSpacing) ? [oracleAddress(address)] : []),
      ...[...starts].sort((x, y) => x - y).map((s) => tickArrayAddress(address, s)),
    ],
  };
}

function notBuilt(): ExecuteResult {
  throw new EngineError('WHIRLPOOL_EXECUTE_NOT_BUILT', 'the Whirlpool state transition for the localnet is not built yet');
}

/** The Orca Whirlpool adapter. Token A/B are the pool's token A/B; `aToB` is the program's `a_to_b`. */
export const orcaWhirlpoolAdapter: DexAdapter<WhirlpoolState> = {
  dex: 'orca-whirlpool',
  // swap_v2 is exact-in or exact-out either way; 15 accounts (no supplemental arrays, no transfer hooks).
  exactOut: true,
  exactOutBToA: true,
  accountsPerSwap: SWAP_V2_ACCOUNTS,
  dynamicAccounts: true,
  unidirectional: false,
  programId: WHIRLPOOL_PROGRAM_ID,
  poolFilters: WHIRLPOOL_POOL_FILTERS,
  auxFilters: WHIRLPOOL_AUX_FILTERS,
  isPool: isWhirlpoolAccount,
  decodePool,
  buildState: (pool: PoolDescriptor, poolData: Uint8Array, deps: ReadonlyMap<string, Uint8Array>, clock: ChainClock) =>
    buildWhirlpoolState(pool, poolData, deps, clock, oracleAddress(pool.address)),
  // The adaptive fee decays with the clock.
  clockSensitive: (s) => s.adaptiveFee !== null,
  toRecord: whirlpoolToRecord,
  fromRecord: whirlpoolFromRecord,
  effectiveReserve: whirlpoolEffectiveReserve,
  marginalRate: whirlpoolMarginalRate,
  estimateOut: whirlpoolEstimateOut,
  quote: whirlpoolQuote,
  feeBps: whirlpoolFeeBps,
  swapInstruction: whirlpoolSwapInstruction,
  // The localnet's state transition (ticks' fee growth, oracle update) is not built yet.
  execute: notBuilt,
};
