/**
 * Price derivation over the slabs: bestBid and bestAsk are marginal prices after pool fees across every valid
 * pool of the token against USDC or USDT; when the token has none, multi-hop through an intermediate chosen
 * automatically (SOL preferred, then the connector with the deepest pools). Pure reads, any thread.
 */
import bs58 from 'bs58';
import type { Catalog } from '../catalog/catalog.js';
import { newF64Snapshot } from '../slab/pool-snapshot.js';
import { VIEW_CONFIRMED, VIEW_LATEST } from '../slab/pool-slab.js';
import { DEFAULT_OUTLIER_RULE, excludeOutliers, type OutlierRule } from './outliers.js';
import { readPoolSides, type PoolSide, type PoolSideSource } from './pool-side.js';
import type { PriceEntry, PriceObject } from './price-types.js';

/** Knobs of price derivation. */
export interface PriceConfig {
  readonly outliers: OutlierRule;
  /** `poolCacheAgeMs` is -1 when the freshest pool used is older than this. */
  readonly staleAfterMs: number;
}

/** Defaults: the default outlier rule, stale after 5 minutes. */
export const DEFAULT_PRICE_CONFIG: PriceConfig = { outliers: DEFAULT_OUTLIER_RULE, staleAfterMs: 300_000 };

interface Leg {
  readonly sides: PoolSide[];
  readonly bestBid: PoolSide;
  readonly bestAsk: PoolSide;
}

/** Derives prices from one thread's view of the slabs. */
export class PriceDeriver {
  private readonly scratch = newF64Snapshot();
  private readonly usdIds: number[] = [];
  private solId: number | undefined;
  /** USD legs of intermediates while a {@link batch} runs (key: mint id * 2 + view). */
  private usdLegs: Map<number, Leg | null> | null = null;

  constructor(
    private readonly src: PoolSideSource,
    private readonly catalog: Catalog,
    private readonly config: PriceConfig = DEFAULT_PRICE_CONFIG,
  ) {}

  /**
   * The price of `mint` labelled `token`. `optimistic` reads the latest (processed) view, otherwise the confirmed
   * view.
   */
  price(token: string, mint: string, optimistic: boolean, nowMs = Date.now()): PriceEntry {
    const id = this.src.mints.idOf(mint);
    if (id === undefined) return { token, status: 'unavailable', reason: 'no indexed pool for this mint' };
    const view = optimistic ? VIEW_LATEST : VIEW_CONFIRMED;
    this.refreshAnchors();
    const anchors = this.usdIds.filter((a) => a !== id);
    const direct = this.directLeg(id, anchors, view);
    if (direct) return this.build(token, mint, [direct], [direct], 'direct', view, nowMs);
    for (const inter of this.intermediates(id, anchors)) {
      const usd = this.usdLeg(inter, view);
      if (!usd) continue;
      const mid = (usd.bestBid.bid + usd.bestAsk.ask) / 2;
      const hop = this.leg(id, [inter], view, mid);
      if (!hop) continue;
      const anchor = this.src.mints.mintOf(this.anchorOf(usd.bestBid.pool, inter));
      const route = `${this.label(mint)}/${this.label(this.src.mints.mintOf(inter))} × ${this.label(this.src.mints.mintOf(inter))}/${this.label(anchor)}`;
      return this.build(token, mint, [hop, usd], [hop], route, view, nowMs, usd);
    }
    return { token, status: 'unavailable', reason: 'no valid pool against USDC or USDT, directly or through an intermediate' };
  }

  /**
   * Runs `fn` with each intermediate's USD leg (SOL/USD...) read once and shared by every price `fn` derives: the
   * prices of one change, or of one batch request, read the same moment of the slabs. Nested calls join the outer
   * batch.
   */
  batch<T>(fn: () => T): T {
    if (this.usdLegs !== null) return fn();
    this.usdLegs = new Map();
    try {
      return fn();
    } finally {
      this.usdLegs = null;
    }
  }

  /** The USD leg of intermediate `inter` (memoized inside a batch). */
  private usdLeg(inter: number, view: number): Leg | null {
    const memo = this.usdLegs;
    const key = inter * 2 + view;
    if (memo !== null) {
      const known = memo.get(key);
      if (known !== undefined) return known;
    }
    const leg = this.directLeg(inter, this.usdIds.filter((a) => a !== inter), view);
    memo?.set(key, leg);
    return leg;
  }

  private refreshAnchors(): void {
    if (this.usdIds.length === 2 && this.solId !== undefined) return;
    this.usdIds.length = 0;
    for (const m of this.catalog.usdMints) {
      const id = this.src.mints.idOf(m);
      if (id !== undefined) this.usdIds.push(id);
    }
    this.solId = this.src.mints.idOf(this.catalog.solMint);
  }

  private directLeg(id: number, anchors: readonly number[], view: number): Leg | null {
    return this.leg(id, anchors, view, 1);
  }

  /** Valid pools of `id` against the quote mints (each worth `quoteUsd`), with the best bid and ask. */
  private leg(id: number, quotes: readonly number[], view: number, quoteUsd: number): Leg | null {
    const all: PoolSide[] = [];
    for (const q of quotes) all.push(...readPoolSides(this.src, id, q, view, this.scratch));
    const sides = excludeOutliers(all, quoteUsd, this.config.outliers);
    if (sides.length === 0) return null;
    let bestBid = sides[0]!;
    let bestAsk = sides[0]!;
    for (const s of sides) {
      if (s.bid > bestBid.bid) bestBid = s;
      if (s.ask < bestAsk.ask) bestAsk = s;
    }
    return { sides, bestBid, bestAsk };
  }

  /** Candidate intermediates: SOL first, then other connected mints by depth of their pools with `id`. */
  private intermediates(id: number, anchors: readonly number[]): number[] {
    const depth = new Map<number, number>();
    for (const pool of this.src.topology.poolsOf(id)) {
      const { mintA, mintB } = this.src.slab.poolMints(pool);
      const other = mintA === id ? mintB : mintA;
      if (anchors.includes(other) || other === id) continue;
      depth.set(other, (depth.get(other) ?? 0) + 1);
    }
    const ordered = [...depth.keys()].sort((x, y) => depth.get(y)! - depth.get(x)!);
    if (this.solId !== undefined && depth.has(this.solId)) return [this.solId, ...ordered.filter((m) => m !== this.solId)];
    return ordered;
  }

  private anchorOf(pool: number, inter: number): number {
    const { mintA, mintB } = this.src.slab.poolMints(pool);
    return mintA === inter ? mintB : mintA;
  }

  private label(mint: string): string {
    return this.catalog.byMintAddress(mint)?.symbol ?? mint;
  }

  private build(token: string, mint: string, legs: Leg[], shown: Leg[], route: string, view: number, nowMs: number, usd?: Leg): PriceObject {
    const first = shown[0]!;
    const bestBid = first.bestBid.bid * (usd ? usd.bestBid.bid : 1);
    const bestAsk = first.bestAsk.ask * (usd ? usd.bestAsk.ask : 1);
    let freshest = 0;
    let newestUnconfirmed = 0;
    let poolCount = 0;
    for (const leg of legs) {
      poolCount += leg.sides.length;
      for (const s of leg.sides) {
        if (s.updatedAtMs > freshest) freshest = s.updatedAtMs;
        if (!s.confirmed && s.updatedAtMs > newestUnconfirmed) newestUnconfirmed = s.updatedAtMs;
      }
    }
    const age = Math.max(0, nowMs - freshest);
    const optimistic = view === VIEW_LATEST && newestUnconfirmed > 0;
    const p: PriceObject = {
      token,
      mint,
      priceUsd: (bestBid + bestAsk) / 2,
      bestBid,
      bestAsk,
      bestBidPool: this.address(first.bestBid.pool),
      bestAskPool: this.address(first.bestAsk.pool),
      bestBidDex: first.bestBid.dex,
      bestAskDex: first.bestAsk.dex,
      bestBidFeeBps: first.bestBid.feeBps,
      bestAskFeeBps: first.bestAsk.feeBps,
      poolCacheAgeMs: age > this.config.staleAfterMs ? -1 : age,
      confidence: optimistic ? 'optimistic' : 'confirmed',
      poolCount,
      timestamp: nowMs,
      route,
    };
    if (optimistic) p.optimisticAgeMs = Math.max(0, nowMs - newestUnconfirmed);
    return p;
  }

  private readonly addresses = new Map<number, string>();

  private address(pool: number): string {
    let a = this.addresses.get(pool);
    if (a === undefined) {
      a = bs58.encode(this.src.slab.address(pool));
      this.addresses.set(pool, a);
    }
    return a;
  }
}
