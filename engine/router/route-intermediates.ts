/**
 * Which mints a route may pass through, and in what order to try them: SOL, USDC, USDT first, then the mints whose
 * pools against those anchors hold the most liquidity (`connector-liquidity.ts`; ties by pool count, then id).
 * `restrictIntermediateTokens` keeps to that liquid set; otherwise any mint connected by a usable pool may be an
 * intermediate (3-hop routes try the most liquid ones first, capped). The ranking is redone when the topology moves,
 * at most once per `rankEveryMs` (a pass over every pool); a mint added since the last ranking ranks after the
 * ranked ones, by pool count.
 */
import { USDC_MINT, USDT_MINT, WSOL_MINT } from '../catalog/tokens.js';
import { connectorLiquidity } from './connector-liquidity.js';
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
  /** Per mint id: its place in the last liquidity ranking (-1: not ranked). */
  private rankOf: Int32Array = new Int32Array(0);
  /** `performance.now()` of the last ranking (-Infinity: none yet). */
  private rankedAt = -Infinity;

  constructor(
    private readonly src: PoolSideSource,
    private readonly liquidConnectors: number,
    private readonly rankEveryMs = 10_000,
  ) {}

  /** Rank of `mint` as an intermediate (lower is tried first): anchors 0..2, then by liquidity, then new mints. */
  priority(mint: number): number {
    this.refresh();
    return this.rank(mint);
  }

  private rank(mint: number): number {
    const a = this.anchors.indexOf(mint);
    if (a >= 0) return a;
    const r = mint < this.rankOf.length ? this.rankOf[mint]! : -1;
    return r >= 0 ? 3 + r : 1e9 - this.src.topology.poolsOf(mint).length;
  }

  /** True when `mint` may be an intermediate of a search (`restricted`: only the liquid set). */
  allowed(mint: number, restricted: boolean): boolean {
    if (!restricted) return true;
    this.refresh();
    return this.liquid.has(mint);
  }

  /** The liquid set (SOL, USDC, USDT, then the `liquidConnectors` most liquid mints), in priority order. */
  liquidMints(): readonly number[] {
    this.refresh();
    return this.liquidOrdered;
  }

  /** `mints` sorted by {@link priority} (then id), in place. */
  order(mints: number[]): number[] {
    this.refresh();
    return mints.sort((x, y) => this.rank(x) - this.rank(y) || x - y);
  }

  /** Recomputes anchors and, at most once per `rankEveryMs`, the liquidity ranking, when pools were added. */
  private refresh(): void {
    const g = this.src.slab.generation();
    if (g === this.generation) return;
    const now = performance.now();
    if (now - this.rankedAt < this.rankEveryMs) return;
    this.generation = g;
    this.rankedAt = now;
    this.anchors = [];
    for (const m of ANCHOR_MINTS) {
      const id = this.src.mints.idOf(m);
      if (id !== undefined) this.anchors.push(id);
    }
    const sol = this.src.mints.idOf(WSOL_MINT);
    const usd = [USDC_MINT, USDT_MINT].map((m) => this.src.mints.idOf(m)).filter((m): m is number => m !== undefined);
    const liq = connectorLiquidity(this.src, { sol, usd });
    const n = this.src.mints.count();
    const ranked: { mint: number; liq: number; pools: number }[] = [];
    for (let m = 0; m < n; m++) {
      if (this.anchors.includes(m)) continue;
      const pools = this.src.topology.poolsOf(m).length;
      if (pools > 0) ranked.push({ mint: m, liq: liq[m] ?? 0, pools });
    }
    ranked.sort((x, y) => y.liq - x.liq || y.pools - x.pools || x.mint - y.mint);
    this.rankOf = new Int32Array(n).fill(-1);
    ranked.forEach((r, i) => (this.rankOf[r.mint] = i));
    this.liquidOrdered = [...this.anchors, ...ranked.slice(0, this.liquidConnectors).map((r) => r.mint)];
    this.liquid = new Set(this.liquidOrdered);
  }
}
