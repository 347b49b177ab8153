/**
 * Pool records from the cached accounts to the slab: each changed pool is rebuilt (adapter `buildState` ->
 * `toRecord`) and written to the latest view; the confirmed view is written at once when its slot is confirmed,
 * else when the slot stream confirms it. Pools whose state depends on the clock are rebuilt on every Clock update.
 */
import type { ChainClock, RecordFields } from '../adapters/types.js';
import { VIEW_CONFIRMED, VIEW_LATEST, type PoolSlab } from '../slab/pool-slab.js';
import { newExactSnapshot } from '../slab/pool-snapshot.js';
import type { AccountCache } from './account-cache.js';
import { ConfirmTracker } from './confirm-tracker.js';
import type { PoolEntry, PoolRegistry } from './pool-registry.js';
import { newRecordFields, RECORD_STATUS_ABSENT } from './record-fields.js';
import { sameRecordFields } from './same-record.js';
import type { WatchScope } from './watch-scope.js';

/** Pools whose records changed, and in which view. */
export interface IngestChange {
  /** Slab pool indices. */
  readonly pools: readonly number[];
  /** True: the confirmed view changed; false: the latest (processed) view changed. */
  readonly confirmed: boolean;
  readonly slot: bigint;
}

/** Wiring of {@link RecordWriter}. */
export interface RecordWriterOptions {
  readonly slab: PoolSlab;
  readonly cache: AccountCache;
  readonly registry: PoolRegistry;
  /** Pools left out of the subscription are never written. */
  readonly watch: WatchScope;
  /** Counted up per record written, and per clock rebuild that gave the image already held. */
  readonly counters: { recordsWritten: number; unchanged: number };
  /** Called after each write of pools and each confirmation with the pools whose records changed. */
  readonly onChange: (change: IngestChange) => void;
  /** Epoch ms. */
  readonly now: () => number;
  /** The time stamped on records of state read at `slot` (see `IngestCoreOptions.dataTimeMs`). */
  readonly dataTimeMs?: (slot: bigint, appliedAtMs: number) => number;
}

/** Builds and writes pool records, both views. */
export class RecordWriter {
  /** Scratch for comparing a clock-bound pool's rebuilt image with the one it holds. */
  private readonly stored = newExactSnapshot();
  private readonly tracker = new ConfirmTracker();
  private clock: ChainClock = { slot: 0n, unixTimestamp: 0n, epoch: 0n };
  private confirmed = 0n;
  /** Pools whose last state depends on the clock: not tradable (an open time may pass) or clock-sensitive per
   * their adapter (fee schedulers, activation points). Each Clock update rebuilds them. Usually a handful. */
  private readonly clockBound = new Set<PoolEntry>();

  constructor(private readonly opts: RecordWriterOptions) {}

  /** Highest slot known confirmed: states at or below it are written to both views at once. */
  get confirmedSlot(): bigint {
    return this.confirmed;
  }

  /** Raises the confirmed slot to `slot` (a read at confirmed commitment) without promoting pending states. */
  raiseConfirmedSlot(slot: bigint): void {
    if (slot > this.confirmed) this.confirmed = slot;
  }

  /**
   * A new Clock: kept for builds, published to the slab, and every clock-bound pool added to `dirty` (those `only`
   * accepts, when given: the pools of the stream that delivered it).
   */
  setClock(clock: ChainClock, dirty: Set<PoolEntry>, only?: (p: PoolEntry) => boolean): void {
    this.clock = clock;
    this.opts.slab.setClock(clock);
    this.clockBoundInto(dirty, only);
  }

  /** Adds every clock-bound pool (those `only` accepts, when given) to `dirty`. */
  clockBoundInto(dirty: Set<PoolEntry>, only?: (p: PoolEntry) => boolean): void {
    for (const p of this.clockBound) if (only === undefined || only(p)) dirty.add(p);
  }

  /** Stops rebuilding `pool` on Clock updates (it is never written again). */
  unbind(pool: PoolEntry): void {
    this.clockBound.delete(pool);
  }

  /** Rebuilds and writes the latest view of every dirty pool as of `slot`. */
  write(dirty: Set<PoolEntry>, slot: bigint): void {
    if (dirty.size === 0) return;
    const { slab, counters, dataTimeMs } = this.opts;
    const appliedAt = this.opts.now();
    const now = dataTimeMs ? dataTimeMs(slot, appliedAt) : appliedAt;
    const written: number[] = [];
    const confirmedNow: number[] = [];
    let newest = slot;
    for (const p of dirty) {
      if (this.opts.watch.isUnwatched(p)) continue;
      const fields = this.build(p);
      if (!fields) continue;
      // A clock-bound pool rebuilt to the image it already holds (most slots, for a pool not open yet): nothing
      // changed, so nothing is written and no reader is woken.
      if (this.clockBound.has(p) && slab.readExact(p.index, VIEW_LATEST, this.stored) && sameRecordFields(fields, this.stored)) {
        counters.unchanged++;
        continue;
      }
      // Why the pool's own latest slot when newer: an RPC read (a resync) can be older than states the stream
      // already brought; the rebuilt record holds both, so it is as new as the newest and joins that pending state
      // (its confirmation then carries what the resync read, and the confirmed view never shows unconfirmed data).
      const at = p.latestSlot > slot ? p.latestSlot : slot;
      const time = at === slot ? now : dataTimeMs ? dataTimeMs(at, appliedAt) : appliedAt;
      const confirmed = at <= this.confirmed;
      slab.write(p.index, VIEW_LATEST, fields, at, time, confirmed);
      p.latestSlot = at;
      if (at > newest) newest = at;
      counters.recordsWritten++;
      written.push(p.index);
      if (confirmed) {
        slab.write(p.index, VIEW_CONFIRMED, fields, at, time, true);
        confirmedNow.push(p.index);
      } else {
        this.tracker.add(p.index, at, fields, time);
      }
    }
    if (written.length > 0) this.opts.onChange({ pools: written, confirmed: false, slot: newest });
    if (confirmedNow.length > 0) this.opts.onChange({ pools: confirmedNow, confirmed: true, slot: newest });
  }

  /** The slot stream confirmed `slot`: the states written at or below it move to the confirmed view. */
  confirm(slot: bigint): void {
    const slab = this.opts.slab;
    this.confirmed = slot;
    slab.setConfirmedSlot(slot);
    const writes = this.tracker.confirm(slot);
    if (writes.length === 0) return;
    const pools: number[] = [];
    for (const w of writes) {
      if (this.opts.watch.isUnwatchedIndex(w.pool)) continue;
      slab.write(w.pool, VIEW_CONFIRMED, w.fields, w.slot, w.updatedAtMs, true);
      pools.push(w.pool);
    }
    // The latest view of a pool not written since that slot is now confirmed too.
    for (const w of writes) {
      if (this.opts.registry.atIndex(w.pool)?.latestSlot === w.slot) slab.setConfirmed(w.pool, VIEW_LATEST, true);
    }
    this.opts.onChange({ pools, confirmed: true, slot });
  }

  /**
   * Writes every registered pool whose account the cache lacks, or whose state cannot be built, as
   * {@link RECORD_STATUS_ABSENT} in both views (after a reload). Returns how many.
   */
  markAbsent(): number {
    const { slab, cache } = this.opts;
    const gone: number[] = [];
    const now = this.opts.now();
    for (const p of this.opts.registry.all()) {
      if (cache.has(p.desc.address) && this.build(p) !== null) continue;
      const fields = newRecordFields();
      fields.status = RECORD_STATUS_ABSENT;
      slab.write(p.index, VIEW_LATEST, fields, 0n, now, true);
      slab.write(p.index, VIEW_CONFIRMED, fields, 0n, now, true);
      gone.push(p.index);
    }
    if (gone.length > 0) this.opts.onChange({ pools: gone, confirmed: true, slot: 0n });
    return gone.length;
  }

  /** Forgets pending confirmations, clock-bound pools and the confirmed slot (the chain was replaced). */
  reset(): void {
    this.tracker.clear();
    this.clockBound.clear();
    this.confirmed = 0n;
  }

  /** The record of `p` from the cached accounts, or null when an account is missing or the state does not build. */
  private build(p: PoolEntry): RecordFields | null {
    const cache = this.opts.cache;
    const poolData = cache.data(p.desc.address);
    if (!poolData) return null;
    const deps = new Map<string, Uint8Array>();
    for (const d of p.desc.dependencies) {
      const data = cache.data(d);
      if (!data) return null;
      deps.set(d, data);
    }
    const state = p.adapter.buildState(p.desc, poolData, deps, this.clock);
    if (state === null) return null;
    const fields = newRecordFields();
    p.adapter.toRecord(state, fields);
    if (fields.status !== 0 || p.adapter.clockSensitive?.(state) === true) this.clockBound.add(p);
    else this.clockBound.delete(p);
    return fields;
  }
}
