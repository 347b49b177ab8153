/**
 * The pools one route search may use, read in place from the slab: tradable (record status 0, tradable flag),
 * of an allowed DEX with an adapter, and fresh. Memoized for the length of one search only.
 */
import { FLAG_TRADABLE } from '../slab/layout.js';
import type { PoolF64Snapshot } from '../slab/pool-snapshot.js';
import type { PoolSideSource } from './pool-side.js';

/** One usable pool as a leg from `from` to `to`. */
export interface PoolLeg {
  readonly pool: number;
  readonly aToB: boolean;
  /** Marginal rate of this direction (output atoms per input atom after fees). */
  readonly marginal: number;
}

/** Which pools a search may use and how they connect, memoized per search (call {@link reset} per request). */
export class RoutePools {
  /** Pool -> usable (1) or not (0). */
  private readonly usable = new Map<number, number>();
  private readonly pairs = new Map<number, readonly PoolLeg[]>();
  private allowedDex: ReadonlySet<number> | null = null;
  private view = 0;
  private oldestMs = 0;

  constructor(
    private readonly src: PoolSideSource,
    private readonly scratch: PoolF64Snapshot,
    private readonly maxPoolsPerPair: number,
  ) {}

  /** Starts a search: slab view, DEX filter (null: every DEX), and the oldest acceptable update time. */
  reset(view: number, allowedDex: ReadonlySet<number> | null, oldestMs: number): void {
    this.usable.clear();
    this.pairs.clear();
    this.view = view;
    this.allowedDex = allowedDex;
    this.oldestMs = oldestMs;
  }

  /** True when `pool` can trade in this search; fills the scratch snapshot as a side effect. */
  isUsable(pool: number): boolean {
    const known = this.usable.get(pool);
    if (known !== undefined) return known === 1;
    const ok = this.check(pool);
    this.usable.set(pool, ok ? 1 : 0);
    return ok;
  }

  private check(pool: number): boolean {
    const s = this.scratch;
    if (!this.src.slab.readF64(pool, this.view, s)) return false;
    if (s.status !== 0 || (s.flags & FLAG_TRADABLE) === 0) return false;
    if (!(s.updatedAtMs >= this.oldestMs)) return false;
    if (this.allowedDex !== null && !this.allowedDex.has(s.dex)) return false;
    return this.src.adapters[s.dex] !== undefined;
  }

  /** Mints that usable pools connect to `mint` (each once, in pool order). */
  neighbours(mint: number): number[] {
    const out: number[] = [];
    for (const pool of this.src.topology.poolsOf(mint)) {
      if (!this.isUsable(pool)) continue;
      const { mintA, mintB } = this.src.slab.poolMints(pool);
      const other = mintA === mint ? mintB : mintA;
      if (other !== mint && !out.includes(other)) out.push(other);
    }
    return out;
  }

  /** Usable pools trading `from` into `to`, best marginal rate first, at most `maxPoolsPerPair`. */
  legs(from: number, to: number): readonly PoolLeg[] {
    const key = from * 4294967296 + to;
    const known = this.pairs.get(key);
    if (known !== undefined) return known;
    const out: PoolLeg[] = [];
    for (const pool of this.src.topology.poolsBetween(from, to)) {
      if (!this.isUsable(pool)) continue;
      const s = this.scratch;
      this.src.slab.readF64(pool, this.view, s);
      const aToB = s.mintA === from;
      const rate = this.src.adapters[s.dex]!.marginalRate(s, aToB);
      out.push({ pool, aToB, marginal: Number.isFinite(rate) && rate > 0 ? rate : 0 });
    }
    out.sort((x, y) => y.marginal - x.marginal || x.pool - y.pool);
    if (out.length > this.maxPoolsPerPair) out.length = this.maxPoolsPerPair;
    this.pairs.set(key, out);
    return out;
  }
}
