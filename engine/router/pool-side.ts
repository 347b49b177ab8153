/**
 * Marginal bid and ask of each pool of a pair, read from the slab without BigInt: what an infinitesimal sale
 * or purchase of the base token gets in the quote token, after every pool fee.
 */
import type { DexAdapter } from '../adapters/types.js';
import { DEX_IDS } from '../dex-ids.js';
import type { MintTable } from '../slab/mint-table.js';
import type { PoolF64Snapshot } from '../slab/pool-snapshot.js';
import type { PoolSlab } from '../slab/pool-slab.js';
import type { Topology } from '../slab/topology.js';

/** One pool's marginal prices of `base` in `quote`, in UI units (quote per whole base token). */
export interface PoolSide {
  readonly pool: number;
  readonly dex: string;
  /** Quote received per base sold, after fees. */
  readonly bid: number;
  /** Quote paid per base bought, after fees. */
  readonly ask: number;
  /** Reserve ratio without fees. */
  readonly spot: number;
  /** Quote-side reserve in UI units (depth used for weighting and dust filtering). */
  readonly quoteReserve: number;
  readonly feeBps: number;
  readonly updatedAtMs: number;
  readonly confirmed: boolean;
}

/** What reading pool sides needs. */
export interface PoolSideSource {
  readonly slab: PoolSlab;
  readonly mints: MintTable;
  readonly topology: Topology;
  /** Adapters by DEX index. */
  readonly adapters: readonly (DexAdapter | undefined)[];
}

/** Reads the tradable pools between `base` and `quote` (mint ids) in one view. */
export function readPoolSides(src: PoolSideSource, base: number, quote: number, view: number, scratch: PoolF64Snapshot): PoolSide[] {
  const out: PoolSide[] = [];
  const scale = 10 ** (src.mints.decimals(base) - src.mints.decimals(quote));
  const quoteUnit = 10 ** src.mints.decimals(quote);
  for (const pool of src.topology.poolsBetween(base, quote)) {
    if (!src.slab.readF64(pool, view, scratch)) continue;
    if (scratch.status !== 0) continue;
    const adapter = src.adapters[scratch.dex];
    if (!adapter) continue;
    const baseIsA = scratch.mintA === base;
    // Depth: the reserves of the equivalent constant-product pool (virtual reserves for a bonding curve).
    const ra = adapter.effectiveReserve ? adapter.effectiveReserve(scratch, true) : scratch.reserveA;
    const rb = adapter.effectiveReserve ? adapter.effectiveReserve(scratch, false) : scratch.reserveB;
    if (!(ra > 0) || !(rb > 0)) continue;
    const sellRate = adapter.marginalRate(scratch, baseIsA);
    const buyRate = adapter.marginalRate(scratch, !baseIsA);
    if (!(sellRate > 0) || !(buyRate > 0)) continue;
    const rBase = baseIsA ? ra : rb;
    const rQuote = baseIsA ? rb : ra;
    out.push({
      pool,
      dex: DEX_IDS[scratch.dex] ?? 'unknown',
      bid: sellRate * scale,
      ask: scale / buyRate,
      spot: (rQuote / rBase) * scale,
      quoteReserve: rQuote / quoteUnit,
      feeBps: adapter.feeBps(scratch),
      updatedAtMs: scratch.updatedAtMs,
      confirmed: scratch.confirmed,
    });
  }
  return out;
}
