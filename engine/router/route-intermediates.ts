/**
 * Which mints a route may pass through, and in what order to try them: SOL, USDC, USDT first, then the
 * best-connected mints (most pools). `restrictIntermediateTokens` keeps to that liquid set; otherwise any mint
 * connected by a usable pool may be an intermediate (3-hop routes try the best-connected ones first, capped).
 */
import { USDC_MINT, USDT_MINT, WSOL_MINT } from '../catalog/tokens.js';
import type { PoolSideSource } from './pool-side.js';

/** Anchors in order of preference. */
const ANCHOR_MINTS = [WSOL_MINT, USDC_MINT, USDT_MINT] as const;

/** Intermediate policy of one thread's view of the slabs; the liquid set is recomputed when the topology moves. */
export class Intermediates {
  private anchors: number[] = [];
  private liquid = new Set<number>();
  /** The liquid set in priority order. */
  private liquidOrdered: number[] = [];
  private generation = -1;
  /** Priorities computed since the topology last moved. */
  private readonly ranks = new Map<number, number>();

  constructor(
    private readonly src: PoolSideSource,
    private readonly liquidConnectors: number,
  ) {}

  /** Rank of `mint` as an intermediate (lower is tried first): anchors 0..2, then by pool count. */
  priority(mint: number): number {
    this.refresh();
    let r = this.ranks.get(mint);
    if (r === undefined) {
      const a = this.anchors.indexOf(mint);
      r = a >= 0 ? a : 1e9 - this.src.topology.poolsOf(mint).length;
      this.ranks.set(mint, r);
    }
    return r;
  }

  /** True when `mint` may be an intermediate of a search (`restricted`: only the liquid set). */
  allowed(mint: number, restricted: boolean): boolean {
    if (!restricted) return true;
    this.refresh();
    return this.liquid.has(mint);
  }

  /** The liquid set (SOL, USDC, USDT, then the `liquidConnectors` best-connected mints), in priority order. */
  liquidMints(): readonly number[] {
    this.refresh();
    return this.liquidOrdered;
  }

  /** `mints` sorted by {@link priority} (then id), in place; priorities are kept until the topology moves. */
  order(mints: number[]): number[] {
    this.refresh();
    const rank = this.ranks;
    for (const m of mints) this.priority(m);
    return mints.sort((x, y) => rank.get(x)! - rank.get(y)! || x - y);
  }

  /** Recomputes anchors and the liquid set when pools were added. */
  private refresh(): void {
    const g = this.src.slab.generation();
    if (g === this.generation) return;
    this.generation = g;
    this.ranks.clear();
    this.anchors = [];
    for (const m of ANCHOR_MINTS) {
      const id = this.src.mints.idOf(m);
      if (id !== undefined) this.anchors.push(id);
    }
    const n = this.src.mints.count();
    const ranked: { mint: number; pools: number }[] = [];
    for (let m = 0; m < n; m++) {
      if (this.anchors.includes(m)) continue;
      const pools = this.src.topology.poolsOf(m).length;
      if (pools > 0) ranked.push({ mint: m, pools });
    }
    ranked.sort((x, y) => y.pools - x.pools || x.mint - y.mint);
    this.liquidOrdered = [...this.anchors, ...ranked.slice(0, this.liquidConnectors).map((r) => r.mint)];
    this.liquid = new Set(this.liquidOrdered);
  }
}
