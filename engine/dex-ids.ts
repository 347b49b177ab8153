/**
 * The 12 DEX identifiers used in every API field (`bestBidDex`, `dex`, filters) and as adapter folder names.
 * The index of an id in {@link DEX_IDS} is what a slab record stores; append only, never reorder.
 */
export const DEX_IDS = [
  'raydium-cpmm',
  'raydium-amm-v4',
  'raydium-clmm',
  'raydium-launchlab',
  'orca-whirlpool',
  'meteora-dlmm',
  'meteora-damm-v1',
  'meteora-damm-v2',
  'meteora-dbc',
  'pumpfun',
  'pumpswap',
  'phoenix',
] as const;

/** One DEX identifier. */
export type DexId = (typeof DEX_IDS)[number];

/** Slab index of a DEX id. */
export function dexIndex(id: DexId): number {
  return DEX_IDS.indexOf(id);
}
