/**
 * Adapters indexed by the DEX index that slab records store, for readers that go from a record to its math.
 */
import { dexIndex } from '../dex-ids.js';
import { ADAPTERS } from './registry.js';
import type { DexAdapter } from './types.js';

/** `ADAPTERS_BY_DEX_INDEX[record.dex]` is that record's adapter. */
export const ADAPTERS_BY_DEX_INDEX: readonly (DexAdapter | undefined)[] = (() => {
  const out: (DexAdapter | undefined)[] = [];
  for (const a of ADAPTERS) out[dexIndex(a.dex)] = a;
  return out;
})();
