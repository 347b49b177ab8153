/**
 * The pools one route search may use, read in place from the slab: tradable (record status 0, tradable flag),
 * of an allowed DEX with an adapter, and fresh. Usability is memoized for the length of one search only (an
 * epoch-stamped array, no allocation per pool); pool mints, immutable once a pool is published, are kept across
 * searches.
 */
import { accountsPerSwapOf, quotesExactOut } from '../adapters/capabilities.js';
import { FLAG_TRADABLE } from '../slab/layout.js';
import type { PoolF64Snapshot } from '../slab/pool-snapshot.js';
import type { PoolSideSource } from './pool-side.js';

/** One usable pool as a leg from `from` to `to`. */
export interface PoolLeg {
  readonly pool: number;
  readonly aToB: boolean;
  /** Marginal rate of this direction (output atoms per input atom after fees). */
  readonly marginal: number;
  /** Accounts the leg's swap instruction references (its adapter's `accountsPerSwap`). */
  readonly accounts: number;
}

const NO_LEGS: readonly PoolLeg[] = Object.freeze([]);

/** Grows `a` (filled with `fill`) to hold index `i`. */
function ensure(a: Int32Array<ArrayBuffer>, i: number, fill: number): Int32Array<ArrayBuffer> {
  if (i < a.length) return a;
  const next = new Int32Array(Math.max(i + 1, a.length * 2, 1024)).fill(fill);
  next.set(a);
  return next;
}

/**
 * The pools a search read, each with its record's write sequence taken before the search first read it
 * (`PoolSlab.writeSeq`): a reader that sees every sequence unchanged knows the search would read the same state
 * (the quote stream's idle check). Parallel arrays.
 */
export interface WatchedPools {
  readonly pools: number[];
  readonly seqs: number[];
}

/** Which pools a search may use and how they connect (call {@link reset} per request). */
export class RoutePools {
  /** Per pool: `epoch * 2 + usable` when checked during the current search. */
  private stamps: Int32Array<ArrayBuffer> = new Int32Array(0);
  private epoch = 0;
  /** Per pool: mint ids of A and B (-1 until read; identity fields never change). */
  private mintA: Int32Array<ArrayBuffer> = new Int32Array(0);
  private mintB: Int32Array<ArrayBuffer> = new Int32Array(0);
  /** from -> to -> legs, for the current search. */
  private readonly pairs = new Map<number, Map<number, readonly PoolLeg[]>>();
  private allowedDex: ReadonlySet<number> | null = null;
  private view = 0;
  private oldestMs = 0;
  private exactOut = false;
  /** The pools checked in this search, when the search collects them (see {@link watched}). */
  private watch: WatchedPools | null = null;
  /** Parallel to `watch`: whether each checked pool was usable. */
  private readonly checkedUsable: boolean[] = [];

  constructor(
    private readonly src: PoolSideSource,
    private readonly scratch: PoolF64Snapshot,
    private readonly maxPoolsPerPair: number,
  ) {}

  /**
   * Starts a search: slab view, DEX filter (null: every DEX), the oldest acceptable update time, whether the
   * search is ExactOut (then a leg is offered only in a direction its adapter quotes exact-out exactly), and
   * `collect`: record every pool the search reads, with its write sequence (see {@link watched}).
   */
  reset(view: number, allowedDex: ReadonlySet<number> | null, oldestMs: number, exactOut = false, collect = false): void {
    this.epoch++;
    if (this.epoch >= 0x3fffffff) {
      this.epoch = 1;
      this.stamps.fill(0);
    }
    this.pairs.clear();
    this.view = view;
    this.allowedDex = allowedDex;
    this.oldestMs = oldestMs;
    this.exactOut = exactOut;
    this.watch = collect ? { pools: [], seqs: [] } : null;
    this.checkedUsable.length = 0;
  }

  /**
   * The pools whose writes can change this search's answer, with each one's write sequence from just before the
   * search first read it; null unless `reset` was asked to collect. Given the search's `candidates`: every pool of
   * a mint pair some candidate trades (a write may reorder or replace the pools of that pair, the ones past
   * `maxPoolsPerPair` included), and every pool found unusable (a write may make it usable and open a path). A
   * usable pool of a pair no candidate trades is left out: its state cannot make a path (paths follow from the
   * other pairs and the topology, whose generation the caller watches). Without `candidates`: every pool read.
   */
  watched(candidates?: readonly { readonly legs: readonly PoolLeg[] }[]): WatchedPools | null {
    const w = this.watch;
    if (w === null || candidates === undefined) return w;
    const pairs = new Set<number>();
    for (const c of candidates) for (const l of c.legs) pairs.add(this.pairKey(l.pool));
    const out: WatchedPools = { pools: [], seqs: [] };
    for (let i = 0; i < w.pools.length; i++) {
      const pool = w.pools[i]!;
      if (this.checkedUsable[i] === true && !pairs.has(this.pairKey(pool))) continue;
      out.pools.push(pool);
      out.seqs.push(w.seqs[i]!);
    }
    return out;
  }

  /** The unordered mint pair of `pool` as one number (mint ids stay below 2^26). */
  private pairKey(pool: number): number {
    this.loadMints(pool);
    const x = this.mintA[pool]!;
    const y = this.mintB[pool]!;
    return x < y ? x * 67_108_864 + y : y * 67_108_864 + x;
  }

  /** True when `pool` can trade in this search. */
  isUsable(pool: number): boolean {
    this.stamps = ensure(this.stamps, pool, 0);
    const s = this.stamps[pool]!;
    if (s >> 1 === this.epoch) return (s & 1) === 1;
    const ok = this.check(pool);
    this.stamps[pool] = this.epoch * 2 + (ok ? 1 : 0);
    return ok;
  }

  private check(pool: number): boolean {
    const s = this.scratch;
    // Why the sequence before the read: a write that lands after it moves it, so a watcher never misses a change
    // the search did not see (a sequence read after the search could hide one that landed during it).
    if (this.watch !== null) {
      this.watch.pools.push(pool);
      this.watch.seqs.push(this.src.slab.writeSeq(pool, this.view));
    }
    const ok = this.usableNow(pool, s);
    if (this.watch !== null) this.checkedUsable.push(ok);
    return ok;
  }

  private usableNow(pool: number, s: PoolF64Snapshot): boolean {
    if (!this.src.slab.readF64(pool, this.view, s)) return false;
    if (s.status !== 0 || (s.flags & FLAG_TRADABLE) === 0) return false;
    if (!(s.updatedAtMs >= this.oldestMs)) return false;
    if (this.allowedDex !== null && !this.allowedDex.has(s.dex)) return false;
    return this.src.adapters[s.dex] !== undefined;
  }

  /** Reads the mints of `pool` into the cache once (identity fields never change). */
  private loadMints(pool: number): void {
    this.mintA = ensure(this.mintA, pool, -1);
    this.mintB = ensure(this.mintB, pool, -1);
    if (this.mintA[pool] === -1) {
      const m = this.src.slab.poolMints(pool);
      this.mintA[pool] = m.mintA;
      this.mintB[pool] = m.mintB;
    }
  }

  /** The mint of `pool` other than `mint`. */
  private other(pool: number, mint: number): number {
    this.loadMints(pool);
    return this.mintA[pool] === mint ? this.mintB[pool]! : this.mintA[pool]!;
  }

  /** Number of pools (usable or not) that trade `mint`: what scanning its neighbours costs. */
  degree(mint: number): number {
    return this.src.topology.poolsOf(mint).length;
  }

  /** Mints that usable pools connect to `mint` (each once). */
  neighbours(mint: number): number[] {
    const seen = new Set<number>();
    for (const pool of this.src.topology.poolsOf(mint)) {
      if (!this.isUsable(pool)) continue;
      const other = this.other(pool, mint);
      if (other !== mint) seen.add(other);
    }
    return [...seen];
  }

  /** Usable pools trading `from` into `to`, best marginal rate first, at most `maxPoolsPerPair`. */
  legs(from: number, to: number): readonly PoolLeg[] {
    const between = this.src.topology.poolsBetween(from, to);
    if (between.length === 0) return NO_LEGS;
    let inner = this.pairs.get(from);
    if (inner === undefined) this.pairs.set(from, (inner = new Map()));
    const known = inner.get(to);
    if (known !== undefined) return known;
    const out: PoolLeg[] = [];
    for (const pool of between) {
      if (!this.isUsable(pool)) continue;
      const s = this.scratch;
      this.src.slab.readF64(pool, this.view, s);
      const aToB = s.mintA === from;
      const adapter = this.src.adapters[s.dex]!;
      // Why here: a leg without exact-out in this direction would only fail confirmation; skipping it costs nothing.
      if (this.exactOut && !quotesExactOut(adapter, aToB)) continue;
      if (!aToB && adapter.unidirectional === true) continue;
      const rate = adapter.marginalRate(s, aToB);
      out.push({ pool, aToB, marginal: Number.isFinite(rate) && rate > 0 ? rate : 0, accounts: accountsPerSwapOf(adapter) });
    }
    if (out.length > 1) out.sort((x, y) => y.marginal - x.marginal || x.pool - y.pool);
    if (out.length > this.maxPoolsPerPair) out.length = this.maxPoolsPerPair;
    inner.set(to, out);
    return out;
  }
}
