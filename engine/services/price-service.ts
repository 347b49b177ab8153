/**
 * The pricing side of the shell: resolves tokens against the catalog and the mint table, reads prices directly
 * from the slabs (a single price costs microseconds, far less than a worker round trip: bench/README.md),
 * sends large batches to the worker pool, and turns ingest changes into price-change notifications.
 */
import bs58 from 'bs58';
import type { DexAdapter } from '../adapters/types.js';
import type { Catalog } from '../catalog/catalog.js';
import { PriceDeriver, type PriceConfig } from '../router/price.js';
import type { PriceEntry } from '../router/price-types.js';
import type { MintTable } from '../slab/mint-table.js';
import type { PoolSlab } from '../slab/pool-slab.js';
import { Topology } from '../slab/topology.js';
import type { PriceChange, PriceService, ResolvedToken } from './price-service-types.js';

/** Runs a batch of prices elsewhere (the worker pool); absent: batches are read on this thread. */
export type BatchPricer = (tokens: readonly ResolvedToken[], optimistic: boolean) => Promise<PriceEntry[]>;

/** Wiring of {@link SlabPriceService}. */
/** What the price service asks of the price history (`price-history.ts`). */
export interface PriceHistoryHook {
  /** A caller asked the price of `token`. */
  noteAsked(token: ResolvedToken): void;
  /** `entry` with `change24h` when the history has a point 24 h old. */
  decorate(entry: PriceEntry, nowMs: number): PriceEntry;
}

export interface SlabPriceServiceOptions {
  readonly slab: PoolSlab;
  readonly mints: MintTable;
  readonly adapters: readonly (DexAdapter | undefined)[];
  readonly catalog: Catalog;
  readonly priceConfig?: PriceConfig;
  readonly batchPricer?: BatchPricer;
  /**
   * Above this many non-USD mints in one change (a resync), the mints they reach are gathered once per change
   * rather than checked per token against each (default 16).
   */
  readonly connectorsCheckedPerToken?: number;
  /** Batches at least this large go to `batchPricer`; smaller ones are read directly. */
  readonly batchThreshold?: number;
  /**
   * The change ring's published count (`changeCounter` of `engine/slab/change-ring.ts`): what makes
   * {@link SlabPriceService.inputsVersion} known. Absent: the version is null and prices are never memoized.
   */
  readonly changeCount?: () => number;
}

/** {@link PriceService} over the slabs. */
export class SlabPriceService implements PriceService {
  private isReady = false;
  private markReady: () => void = () => undefined;
  private readonly readyPromise = new Promise<void>((r) => (this.markReady = r));
  private readonly topology: Topology;
  private readonly deriver: PriceDeriver;
  private readonly listeners = new Set<(c: PriceChange) => void>();
  private readonly anchorIds = new Set<number>();
  private readonly tracked: ResolvedToken[];

  constructor(private readonly o: SlabPriceServiceOptions) {
    this.topology = new Topology(o.slab);
    this.deriver = new PriceDeriver({ slab: o.slab, mints: o.mints, topology: this.topology, adapters: o.adapters }, o.catalog, o.priceConfig);
    this.tracked = o.catalog.tokens.map((t) => ({ token: t.symbol, mint: t.mint, tracked: true, indexed: false }));
  }

  /** Marks the startup snapshot as loaded. */
  setReady(): void {
    this.isReady = true;
    this.markReady();
  }

  ready(): boolean {
    return this.isReady;
  }

  whenReady(): Promise<void> {
    return this.readyPromise;
  }

  poolCount(): number {
    return this.o.slab.count();
  }

  resolve(input: string): ResolvedToken | null {
    const s = input.trim();
    const bySymbol = this.o.catalog.bySymbolName(s);
    const entry = bySymbol ?? (isMint(s) ? this.o.catalog.byMintAddress(s) : undefined);
    if (entry) return { token: entry.symbol, mint: entry.mint, tracked: true, indexed: this.o.mints.idOf(entry.mint) !== undefined };
    if (!isMint(s)) return null;
    return { token: s, mint: s, tracked: false, indexed: this.o.mints.idOf(s) !== undefined };
  }

  trackedTokens(): readonly ResolvedToken[] {
    return this.tracked.map((t) => ({ ...t, indexed: this.o.mints.idOf(t.mint) !== undefined }));
  }

  price(token: ResolvedToken, optimistic: boolean, nowMs = Date.now()): PriceEntry {
    const e = this.deriver.price(token.token, token.mint, optimistic, nowMs);
    const h = this.history;
    if (h === null) return e;
    h.noteAsked(token);
    return h.decorate(e, nowMs);
  }

  /** The price as derived, without `change24h` and without counting as asked (the history's own sampling). */
  rawPrice(token: ResolvedToken, optimistic: boolean, nowMs = Date.now()): PriceEntry {
    return this.deriver.price(token.token, token.mint, optimistic, nowMs);
  }

  private history: PriceHistoryHook | null = null;

  /** Adds `change24h` from the price history to every price this service gives, and tells it what was asked. */
  setHistory(h: PriceHistoryHook): void {
    this.history = h;
  }

  inputsVersion(): number | null {
    const count = this.o.changeCount;
    if (count === undefined) return null;
    // Every pool write is announced on the ring; a pool added also moves the topology generation. Both fit in one
    // exact double: the count as an unsigned 32-bit word, the generation above it.
    return (count() >>> 0) + this.o.slab.generation() * 2 ** 32;
  }

  async prices(tokens: readonly ResolvedToken[], optimistic: boolean): Promise<PriceEntry[]> {
    const threshold = this.o.batchThreshold ?? Number.POSITIVE_INFINITY;
    const now = Date.now();
    const entries =
      this.o.batchPricer && tokens.length >= threshold
        ? await this.o.batchPricer(tokens, optimistic)
        : this.deriver.batch(() => tokens.map((t) => this.deriver.price(t.token, t.mint, optimistic, now)));
    const h = this.history;
    if (h === null) return entries;
    for (const t of tokens) h.noteAsked(t);
    return entries.map((e) => h.decorate(e, now));
  }

  onChange(listener: (change: PriceChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Ingest changed these pools: notify the listeners, which ask about the tokens they care about. A pool moves its
   * own two mints and, through a non-USD mint (an intermediate such as SOL), every mint paired with it; USD anchors
   * do not propagate. Nothing is listed per change (a SOL pool can reach every SOL-paired mint): a token is checked
   * against the changed pools' mints and their pairs, in mint ids, no text.
   */
  poolsChanged(pools: readonly number[], confirmed: boolean): void {
    // Why not before ready: listeners ignore what a partial load changed (streams get their first frames once the
    // snapshot is in), and a startup snapshot changes every pool, page by page.
    if (this.listeners.size === 0 || !this.isReady) return;
    this.refreshAnchors();
    const touched = new Set<number>();
    const connectors: number[] = [];
    for (const pool of pools) {
      const { mintA, mintB } = this.o.slab.poolMints(pool);
      for (const m of [mintA, mintB]) {
        if (touched.has(m)) continue;
        touched.add(m);
        if (!this.anchorIds.has(m)) connectors.push(m);
      }
    }
    const mints = this.o.mints;
    const topology = this.topology;
    const slab = this.o.slab;
    // Many connectors (a resync changes every pool): their pairs are gathered once, each connector's pools walked
    // once, rather than checked per token against every connector.
    let reached: Set<number> | null = null;
    const perToken = this.o.connectorsCheckedPerToken ?? MAX_CONNECTORS_CHECKED_PER_TOKEN;
    const change: PriceChange = {
      confirmed,
      affects(token: ResolvedToken): boolean {
        const id = mints.idOf(token.mint);
        if (id === undefined) return false;
        if (touched.has(id)) return true;
        if (connectors.length <= perToken) {
          for (const c of connectors) if (topology.poolsBetween(id, c).length > 0) return true;
          return false;
        }
        if (reached === null) {
          reached = new Set<number>();
          for (const c of connectors) {
            for (const p of topology.poolsOf(c)) {
              const pm = slab.poolMints(p);
              reached.add(pm.mintA);
              reached.add(pm.mintB);
            }
          }
        }
        return reached.has(id);
      },
    };
    // Listeners price the changed mints right away: one batch, so the SOL/USD leg is read once, not per mint.
    this.deriver.batch(() => {
      for (const l of this.listeners) l(change);
    });
  }

  private refreshAnchors(): void {
    if (this.anchorIds.size === this.o.catalog.usdMints.length) return;
    for (const m of this.o.catalog.usdMints) {
      const id = this.o.mints.idOf(m);
      if (id !== undefined) this.anchorIds.add(id);
    }
  }
}

/** Above this many non-USD mints in one change, the mints they reach are gathered once instead of per token. */
const MAX_CONNECTORS_CHECKED_PER_TOKEN = 16;

/** True when `s` is a base58 string of a 32-byte public key. */
export function isMint(s: string): boolean {
  if (s.length < 32 || s.length > 44) return false;
  try {
    return bs58.decode(s).length === 32;
  } catch {
    return false;
  }
}
