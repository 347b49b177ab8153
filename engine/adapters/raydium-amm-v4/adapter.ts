/**
 * The Raydium AMM v4 adapter: the {@link DexAdapter} contract assembled from this folder's parts.
 */
import type { DexAdapter, PoolDescriptor, ProgramFilter } from '../types.js';
import { ammV4EstimateOut, ammV4FeeBps, ammV4MarginalRate } from './estimate.js';
import { ammV4Execute } from './execute.js';
import { ammV4SwapInstruction } from './instruction.js';
import { AMM_INFO_SIZE, AMM_OFFSET, AMM_V4_PROGRAM_ID, ammAuthority, canonicalAmmAuthority, isAmmInfoAccount } from './layout.js';
import { ammV4Quote } from './quote.js';
import { ammV4FromRecord, ammV4ToRecord } from './record.js';
import { type AmmV4State, buildAmmV4State } from './state.js';
import bs58 from 'bs58';

/** Filter that discovers every AmmInfo (owner = program, size 752: the account has no discriminator). */
export const AMM_V4_POOL_FILTERS: readonly ProgramFilter[] = [{ name: 'raydium-amm-v4-pools', dataSize: AMM_INFO_SIZE }];

/** AMM v4 pools depend on no other program-owned account (the fee lives in the pool). */
export const AMM_V4_AUX_FILTERS: readonly ProgramFilter[] = [];

/** The nonce of every mainnet AMM v4 pool (its authority `5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1`). */
const MAINNET_AMM_NONCE = 254;
/** The vault authorities, derived on first use. */
let authorities: readonly string[] | undefined;

/** Decimals are u64 in the account; anything above 255 is not a real mint's and is clamped for the descriptor. */
function decimals(data: Uint8Array, offset: number): number {
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true);
  return v > 255n ? 255 : Number(v);
}

/**
 * Decodes an AMM v4 pool: mints (coin = A, pc = B) and decimals come from the pool account itself; the
 * dependencies are, in this order, the coin vault and the pc vault (buildState relies on the order).
 */
function decodePool(address: string, data: Uint8Array): PoolDescriptor | null {
  if (!isAmmInfoAccount(data)) return null;
  const key = (o: number): string => bs58.encode(data.subarray(o, o + 32));
  return {
    address,
    dex: 'raydium-amm-v4',
    programId: AMM_V4_PROGRAM_ID,
    mintA: key(AMM_OFFSET.coinVaultMint),
    mintB: key(AMM_OFFSET.pcVaultMint),
    decimalsA: decimals(data, AMM_OFFSET.coinDecimals),
    decimalsB: decimals(data, AMM_OFFSET.pcDecimals),
    dependencies: [key(AMM_OFFSET.coinVault), key(AMM_OFFSET.pcVault)],
  };
}

/** The Raydium AMM v4 adapter. Token A/B are the pool's coin/pc; `aToB` is Coin2PC. */
export const raydiumAmmV4Adapter: DexAdapter<AmmV4State> = {
  dex: 'raydium-amm-v4',
  // swap_base_in_v2 / swap_base_out_v2: exact either way; 8 accounts, fixed.
  exactOut: true,
  exactOutBToA: true,
  accountsPerSwap: 8,
  dynamicAccounts: false,
  unidirectional: false,
  // A swap writes the AMM account (swap totals) and both vaults.
  swapWrites: (d) => [d.address, d.dependencies[0]!, d.dependencies[1]!],
  programId: AMM_V4_PROGRAM_ID,
  poolFilters: AMM_V4_POOL_FILTERS,
  auxFilters: AMM_V4_AUX_FILTERS,
  // The program checks that both vaults belong to the pool's authority `[AUTHORITY_AMM, nonce]`: nonce 254 on every
  // mainnet pool, and the canonical bump (what new pools use). A pool with another nonce keeps its vaults watched by
  // address (ingest reads the owner field before leaving a vault to these filters).
  vaultAuthorities: () => (authorities ??= [...new Set([ammAuthority(MAINNET_AMM_NONCE), canonicalAmmAuthority().address])].filter((a): a is string => a !== null)),
  isPool: isAmmInfoAccount,
  decodePool,
  buildState: buildAmmV4State,
  toRecord: ammV4ToRecord,
  fromRecord: ammV4FromRecord,
  marginalRate: ammV4MarginalRate,
  estimateOut: ammV4EstimateOut,
  quote: ammV4Quote,
  feeBps: ammV4FeeBps,
  swapInstruction: ammV4SwapInstruction,
  execute: ammV4Execute,
};
