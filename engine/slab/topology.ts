/**
 * Per-thread pool indices by mint and by mint pair, derived from the pool slab's immutable mint ids and refreshed
 * only when the slab's generation (topology version) has moved.
 */
import type { PoolSlab } from './pool-slab.js';

const NONE: readonly number[] = Object.freeze([]);

/**
 * Appends `pool` to the list under `key`. Copy-on-write: the first touch in a sync copies the frozen list that
 * callers may still hold into a fresh array (recorded in `fresh`), later touches push into that copy.
 */
function append<K>(map: Map<K, readonly number[]>, key: K, pool: number, fresh: Set<readonly number[]>): void {
  const prev = map.get(key);
  if (prev !== undefined && fresh.has(prev)) {
    (prev as number[]).push(pool);
    return;
  }
  const next = prev === undefined ? [pool] : [...prev, pool];
  fresh.add(next);
  map.set(key, next);
}

/**
 * Reader-side topology over one {@link PoolSlab}: which pools trade a mint, and which pools trade a pair. Each
 * thread owns its instance. Every call costs one atomic load of the generation; when it differs from the one
 * indexed, the pools added since are indexed (pools are append-only and their mints immutable).
 */
export class Topology {
  private readonly slab: PoolSlab;
  private builtGeneration = -1;
  private indexed = 0;
  private readonly byMint = new Map<number, readonly number[]>();
  /** Smaller mint id -> larger mint id -> pools. */
  private readonly byPair = new Map<number, Map<number, readonly number[]>>();

  /** Builds nothing yet: the first query indexes the slab. */
  constructor(slab: PoolSlab) {
    this.slab = slab;
  }

  /** Generation this instance last indexed (-1 before the first query). */
  generation(): number {
    return this.builtGeneration;
  }

  /** Pools that have `mintId` as token A or token B, in pool-index order. The array is frozen. */
  poolsOf(mintId: number): readonly number[] {
    this.sync();
    return this.byMint.get(mintId) ?? NONE;
  }

  /** Pools between two mints, either direction, in pool-index order. The array is frozen. */
  poolsBetween(mintA: number, mintB: number): readonly number[] {
    this.sync();
    const lo = mintA < mintB ? mintA : mintB;
    const hi = mintA < mintB ? mintB : mintA;
    return this.byPair.get(lo)?.get(hi) ?? NONE;
  }

  /** Re-indexes when the slab's generation moved since the last call. */
  private sync(): void {
    const g = this.slab.generation();
    if (g === this.builtGeneration) return;
    // Generation is bumped after the count is published, so count() covers at least every pool that g counts.
    // A pool added between the two loads is indexed now and the next call sees a newer generation: harmless.
    const n = this.slab.count();
    const fresh = new Set<readonly number[]>();
    for (let pool = this.indexed; pool < n; pool++) {
      const { mintA, mintB } = this.slab.poolMints(pool);
      append(this.byMint, mintA, pool, fresh);
      if (mintB !== mintA) append(this.byMint, mintB, pool, fresh);
      const lo = mintA < mintB ? mintA : mintB;
      const hi = mintA < mintB ? mintB : mintA;
      let inner = this.byPair.get(lo);
      if (inner === undefined) this.byPair.set(lo, (inner = new Map()));
      append(inner, hi, pool, fresh);
    }
    for (const list of fresh) Object.freeze(list);
    this.indexed = n;
    this.builtGeneration = g;
  }
}
