/**
 * Market data over the slabs: pool listings (by token, pair, DEX; sorted by liquidity or recency; keyset cursors),
 * one pool, the tracked tokens, a token's page (price, pools, venues per DEX) and search. Everything is read from the
 * slabs at request time; the service's own prices value the pools.
 */
import type { DexAdapter } from '../adapters/types.js';
import type { Catalog } from '../catalog/catalog.js';
import type { CatalogToken } from '../catalog/tokens.js';
import { DEX_IDS } from '../dex-ids.js';
import { isPrice, type PriceEntry } from '../router/price-types.js';
import type { MintTable } from '../slab/mint-table.js';
import type { PoolSlab } from '../slab/pool-slab.js';
import { Topology } from '../slab/topology.js';
import { decodeCursor, page, sortRecords, type PoolCursor, type PoolSort } from './pool-listing.js';
import { PoolRecords, type PoolRecord, type UsdPriceOf } from './pool-records.js';
import type { PriceService, ResolvedToken } from './price-service-types.js';
import { searchTokens, type SearchEnvelope } from './token-search.js';

/** Options of {@link MarketData}. */
export interface MarketDataOptions {
  readonly slab: PoolSlab;
  readonly mints: MintTable;
  readonly adapters: readonly (DexAdapter | undefined)[];
  readonly catalog: Catalog;
  readonly prices: PriceService;
  /** A price as derived, not counted as asked by the price history (listings value many mints nobody asked for). */
  readonly rawPrice?: (token: ResolvedToken, optimistic: boolean, nowMs: number) => PriceEntry;
  /** How long an unfiltered listing's sorted records are reused (default 2,000 ms). */
  readonly listingReuseMs?: number;
  /** A pool with no update for this long is dead (`GET /v1/pools/dead`; default 24 h). */
  readonly deadAfterMs?: number;
  readonly now?: () => number;
}

/** A pools query. `token` / `pair` are symbols or mints, already checked by the route. */
export interface PoolsQuery {
  readonly token?: ResolvedToken;
  readonly pair?: readonly [ResolvedToken, ResolvedToken];
  /** A DEX id of `DEX_IDS`. */
  readonly dex?: string;
  readonly sort: PoolSort;
  readonly limit: number;
  readonly cursor: PoolCursor | null;
}

/** A page of pools. */
export interface PoolsPage {
  readonly pools: PoolRecord[];
  readonly count: number;
  /** Records matching the query, over every page. */
  readonly total: number;
  readonly nextCursor: string | null;
  readonly sort: PoolSort;
}

/** A tracked token as `GET /v1/tokens` lists it. */
export interface TrackedToken {
  readonly symbol: string;
  readonly name: string;
  readonly mint: string;
  readonly decimals: number;
  readonly category: string;
  readonly aliases: readonly string[];
}

/** Liquidity of one DEX for a token. */
export interface Venue {
  readonly dex: string;
  readonly poolCount: number;
  readonly activePools: number;
  readonly liquidityUsd: number;
}

/** `GET /v1/token/:mint`. */
export interface TokenPage {
  readonly token: {
    readonly mint: string;
    readonly symbol: string | null;
    readonly name: string | null;
    readonly decimals: number | null;
    readonly category: string | null;
    readonly tracked: boolean;
  };
  readonly price: PriceEntry;
  readonly poolCount: number;
  /** The token's pools, deepest first (at most {@link TOKEN_PAGE_POOLS}). */
  readonly pools: PoolRecord[];
  readonly venues: Venue[];
  readonly timestamp: number;
}

/** Why a pool is listed as dead. */
export type DeadReason = 'not-tradable' | 'empty' | 'idle';

/** A dead pool: its record and why. */
export type DeadPool = PoolRecord & { readonly deadReason: DeadReason };

/** Default of {@link MarketDataOptions.deadAfterMs}. */
export const DEFAULT_DEAD_AFTER_MS = 24 * 3_600_000;

/** One page of the bulk export (`GET /v1/pools/seed`), in index order. */
export interface SeedPage {
  readonly pools: PoolRecord[];
  readonly count: number;
  /** Pools indexed when the page was read (the export's end moves as pools are discovered). */
  readonly indexed: number;
  /** The next page's cursor (a pool index as a string), or null at the end. */
  readonly nextCursor: string | null;
}

/** Pools shown on a token page. */
export const TOKEN_PAGE_POOLS = 20;

/** Market data of one service instance (main thread). */
export class MarketData {
  readonly records: PoolRecords;
  private readonly topology: Topology;
  private readonly now: () => number;
  private readonly startedAt: number;
  /** Epoch ms each pool was first seen changing (0 = not yet). */
  private stamps = new Float64Array(1024);
  private listing: { atMs: number; sort: PoolSort; sorted: PoolRecord[] } | null = null;
  /** When the startup snapshot was in: pools first seen after it are new (0 until then). */
  private readyAt = 0;
  private readonly discoveryListeners = new Set<(record: PoolRecord) => void>();

  constructor(private readonly o: MarketDataOptions) {
    this.now = o.now ?? Date.now;
    this.startedAt = this.now();
    this.topology = new Topology(o.slab);
    this.records = new PoolRecords({
      slab: o.slab,
      mints: o.mints,
      adapters: o.adapters,
      symbolOf: (mint) => o.catalog.byMintAddress(mint)?.symbol,
      discoveredAt: (pool) => this.discoveredAt(pool),
    });
  }

  /**
   * Ingest changed these pools: the first change of a pool is its discovery (the startup snapshot's pools are
   * stamped while it loads). Call for every change run, confirmed or not.
   */
  noteChanged(pools: readonly number[]): void {
    const now = this.now();
    let found: number[] | null = null;
    for (const p of pools) {
      if (p >= this.stamps.length) {
        const next = new Float64Array(Math.max(p + 1, this.stamps.length * 2));
        next.set(this.stamps);
        this.stamps = next;
      }
      if (this.stamps[p] !== 0) continue;
      this.stamps[p] = now;
      if (this.readyAt > 0 && this.discoveryListeners.size > 0) (found ??= []).push(p);
    }
    if (found === null) return;
    const usd = this.usdPrices();
    for (const p of found) {
      const r = this.records.record(p, now, usd);
      if (r === null) continue;
      for (const l of this.discoveryListeners) l(r);
    }
  }

  /**
   * Calls `listener` with the record of every pool discovered after the startup snapshot, as ingest publishes it
   * (`GET /v1/stream/pools`). Returns the unsubscribe function.
   */
  onDiscovered(listener: (record: PoolRecord) => void): () => void {
    this.discoveryListeners.add(listener);
    return () => this.discoveryListeners.delete(listener);
  }

  /** The startup snapshot is in: pools seen changing for the first time from now on are discoveries. */
  markReady(): void {
    if (this.readyAt !== 0) return;
    this.readyAt = this.now();
    // Every pool indexed by now came with the snapshot, also one whose change is still on its way through the ring
    // (the ready message and the ring are two channels): stamped now, it is not mistaken for a discovery later.
    const n = this.o.slab.count();
    const unstamped: number[] = [];
    for (let p = 0; p < n; p++) if (p >= this.stamps.length || this.stamps[p] === 0) unstamped.push(p);
    this.noteChanged(unstamped);
  }

  /** Pools discovered since the startup snapshot, newest first (`GET /v1/pools/new`). */
  newPools(q: Pick<PoolsQuery, 'dex' | 'limit' | 'cursor'>): PoolsPage {
    const nowMs = this.now();
    const usd = this.usdPrices();
    const out: PoolRecord[] = [];
    if (this.readyAt > 0) {
      const n = Math.min(this.o.slab.count(), this.stamps.length);
      for (let p = 0; p < n; p++) {
        if (this.stamps[p]! <= this.readyAt) continue;
        const r = this.records.record(p, nowMs, usd);
        if (r !== null && (q.dex === undefined || r.dex === q.dex)) out.push(r);
      }
    }
    sortRecords(out, 'recency');
    const { pools, nextCursor } = page(out, 'recency', q.cursor, q.limit);
    return { pools, count: pools.length, total: out.length, nextCursor, sort: 'recency' };
  }

  /**
   * Dead pools (`GET /v1/pools/dead`): a pool that cannot trade (`not-tradable`), one with an empty side (`empty`),
   * or one with no update for {@link MarketDataOptions.deadAfterMs} (`idle`), in that order of precedence.
   */
  deadPools(q: Pick<PoolsQuery, 'dex' | 'limit' | 'cursor' | 'sort'>): PoolsPage & { readonly deadAfterMs: number } {
    const deadAfterMs = this.o.deadAfterMs ?? DEFAULT_DEAD_AFTER_MS;
    const out: DeadPool[] = [];
    for (const r of this.allSorted(q.sort, this.now())) {
      if (q.dex !== undefined && r.dex !== q.dex) continue;
      const deadReason: DeadReason | null =
        r.status !== 'active' ? 'not-tradable' : r.reserveA === '0' || r.reserveB === '0' ? 'empty' : r.poolCacheAgeMs > deadAfterMs ? 'idle' : null;
      if (deadReason !== null) out.push({ ...r, deadReason });
    }
    const { pools, nextCursor } = page(out, q.sort, q.cursor, q.limit);
    return { pools, count: pools.length, total: out.length, nextCursor, sort: q.sort, deadAfterMs };
  }

  /** Pools `from` .. `from + limit - 1` in index order (the bulk export; an index is never reused). */
  seed(from: number, limit: number): SeedPage {
    const nowMs = this.now();
    const usd = this.usdPrices();
    const indexed = this.o.slab.count();
    const pools: PoolRecord[] = [];
    let p = from;
    for (; p < indexed && pools.length < limit; p++) {
      const r = this.records.record(p, nowMs, usd);
      if (r !== null) pools.push(r);
    }
    return { pools, count: pools.length, indexed, nextCursor: p < indexed ? String(p) : null };
  }

  /** When the pool was first indexed by this instance (the instance's start when it has not been seen changing). */
  discoveredAt(pool: number): number {
    const t = pool < this.stamps.length ? this.stamps[pool]! : 0;
    return t > 0 ? t : this.startedAt;
  }

  /** A per-request USD price lookup by mint id (confirmed prices, memoized for the request). */
  usdPrices(): UsdPriceOf {
    const memo = new Map<number, number | null>();
    const nowMs = this.now();
    return (mintId) => {
      let v = memo.get(mintId);
      if (v !== undefined) return v;
      const resolved = this.o.prices.resolve(this.o.mints.mintOf(mintId));
      const e = resolved ? (this.o.rawPrice ?? ((t, o, n) => this.o.prices.price(t, o, n)))(resolved, false, nowMs) : null;
      v = e !== null && isPrice(e) && Number.isFinite(e.priceUsd) && e.poolCacheAgeMs >= 0 ? e.priceUsd : null;
      memo.set(mintId, v);
      return v;
    };
  }

  /** The pool indices of `token` (every pool of its mint), or none when the mint is not indexed. */
  private poolsOfToken(t: ResolvedToken): readonly number[] {
    const id = this.o.mints.idOf(t.mint);
    return id === undefined ? [] : this.topology.poolsOf(id);
  }

  /** A page of pools matching `q`. */
  pools(q: PoolsQuery): PoolsPage {
    const nowMs = this.now();
    let sorted: PoolRecord[];
    if (q.token === undefined && q.pair === undefined) {
      sorted = this.allSorted(q.sort, nowMs);
    } else {
      let candidates: readonly number[];
      if (q.pair) {
        const a = this.o.mints.idOf(q.pair[0].mint);
        const b = this.o.mints.idOf(q.pair[1].mint);
        candidates = a === undefined || b === undefined ? [] : this.topology.poolsBetween(a, b);
      } else candidates = this.poolsOfToken(q.token!);
      const usd = this.usdPrices();
      sorted = [];
      for (const p of candidates) {
        const r = this.records.record(p, nowMs, usd);
        if (r !== null) sorted.push(r);
      }
      sortRecords(sorted, q.sort);
    }
    const matching = q.dex === undefined ? sorted : sorted.filter((r) => r.dex === q.dex);
    const { pools, nextCursor } = page(matching, q.sort, q.cursor, q.limit);
    return { pools, count: pools.length, total: matching.length, nextCursor, sort: q.sort };
  }

  /** Every pool's record sorted, reused for a short while (a full listing at mainnet scale reads every record). */
  private allSorted(sort: PoolSort, nowMs: number): PoolRecord[] {
    const reuse = this.o.listingReuseMs ?? 2000;
    const l = this.listing;
    // Reused only briefly and for one sort: pools added or moved since show at the next rebuild.
    if (l !== null && l.sort === sort && nowMs - l.atMs < reuse) return l.sorted;
    const usd = this.usdPrices();
    const n = this.o.slab.count();
    const sorted: PoolRecord[] = [];
    for (let p = 0; p < n; p++) {
      const r = this.records.record(p, nowMs, usd);
      if (r !== null) sorted.push(r);
    }
    sortRecords(sorted, sort);
    this.listing = { atMs: nowMs, sort, sorted };
    return sorted;
  }

  /** One pool by address, or null. */
  pool(address: string): PoolRecord | null {
    const p = this.records.indexOf(address);
    return p === undefined ? null : this.records.record(p, this.now(), this.usdPrices());
  }

  /** Every tracked token. */
  tokens(): TrackedToken[] {
    return this.o.catalog.tokens.map((t: CatalogToken) => ({ symbol: t.symbol, name: t.name, mint: t.mint, decimals: t.decimals, category: t.category, aliases: t.aliases }));
  }

  /** A token's page, or null when the mint is neither tracked nor indexed. */
  tokenPage(t: ResolvedToken): TokenPage | null {
    if (!t.tracked && !t.indexed) return null;
    const nowMs = this.now();
    const usd = this.usdPrices();
    const records: PoolRecord[] = [];
    for (const p of this.poolsOfToken(t)) {
      const r = this.records.record(p, nowMs, usd);
      if (r !== null) records.push(r);
    }
    sortRecords(records, 'liquidity');
    const venues = new Map<string, { poolCount: number; activePools: number; liquidityUsd: number }>();
    for (const r of records) {
      const v = venues.get(r.dex) ?? { poolCount: 0, activePools: 0, liquidityUsd: 0 };
      v.poolCount++;
      if (r.status === 'active') v.activePools++;
      v.liquidityUsd += r.liquidityUsd ?? 0;
      venues.set(r.dex, v);
    }
    const cat = this.o.catalog.byMintAddress(t.mint);
    const id = this.o.mints.idOf(t.mint);
    return {
      token: {
        mint: t.mint,
        symbol: cat?.symbol ?? null,
        name: cat?.name ?? null,
        decimals: cat?.decimals ?? (id === undefined ? null : this.o.mints.decimals(id)),
        category: cat?.category ?? null,
        tracked: t.tracked,
      },
      price: this.o.prices.price(t, false, nowMs),
      poolCount: records.length,
      pools: records.slice(0, TOKEN_PAGE_POOLS),
      venues: [...venues].map(([dex, v]) => ({ dex, ...v })).sort((a, b) => b.liquidityUsd - a.liquidityUsd || (a.dex < b.dex ? -1 : 1)),
      timestamp: nowMs,
    };
  }

  /** Search over the tracked tokens, indexed mints and pool addresses. */
  search(query: string, limit: number): SearchEnvelope {
    const nowMs = this.now();
    const usd = this.usdPrices();
    return searchTokens(query, limit, {
      tokens: this.o.catalog.tokens,
      token: (mint) => {
        const resolved = this.o.prices.resolve(mint);
        if (!resolved || (!resolved.tracked && !resolved.indexed)) return null;
        const price = this.o.prices.price(resolved, false, nowMs);
        const pools = this.poolsOfToken(resolved);
        let active = 0;
        for (const p of pools) if (this.records.record(p, nowMs, usd)?.status === 'active') active++;
        return { price, poolCount: pools.length, activePools: active };
      },
      pool: (address) => {
        const p = this.records.indexOf(address);
        return p === undefined ? null : this.records.record(p, nowMs, usd);
      },
    });
  }

  /** True when `dex` names a DEX of this build. */
  static isDex(dex: string): boolean {
    return (DEX_IDS as readonly string[]).includes(dex);
  }

  /** Decodes a listing cursor for `sort` (null when malformed or issued for another sort). */
  static cursor(raw: string, sort: PoolSort): PoolCursor | null {
    return decodeCursor(raw, sort);
  }
}
