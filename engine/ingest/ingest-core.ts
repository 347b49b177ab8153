/**
 * The single writer of the slabs: turns account updates into transaction-consistent pool records. No I/O here;
 * the runner feeds it snapshot accounts, stream updates and slot statuses, and ends each event-loop turn.
 */
import type { DexAdapter } from '../adapters/types.js';
import type { MintTable } from '../slab/mint-table.js';
import type { PoolSlab } from '../slab/pool-slab.js';
import { AccountCache } from './account-cache.js';
import type { AccountUpdate } from './account-update.js';
import { CLOCK_SYSVAR, decodeClock } from './clock.js';
import { PoolDiscovery } from './pool-discovery.js';
import { PoolRegistry, type PoolEntry } from './pool-registry.js';
import { RecordWriter, type IngestChange } from './record-writer.js';
import { StreamLane, streamOfPool } from './stream-lane.js';
import { isTokenProgram } from './token-owner.js';
import { PRIMARY_STREAM, SUBSCRIBE_ADDRESS_BUDGET_BYTES, type WatchPlan } from './watch-plan.js';
import { WatchScope } from './watch-scope.js';

// Why re-exported: these were first defined here and are imported from here (fixtures, benches, tests).
export { newRecordFields, RECORD_STATUS_ABSENT, RECORD_STATUS_UNWATCHED } from './record-fields.js';
export type { IngestChange } from './record-writer.js';

/** Slot statuses the core acts on. */
export type SlotCommitment = 'processed' | 'confirmed' | 'finalized';

/** Wiring of the core. */
export interface IngestCoreOptions {
  readonly slab: PoolSlab;
  readonly mints: MintTable;
  readonly adapters: readonly DexAdapter[];
  /** Called after each applied batch and each confirmation with the pools whose records changed. */
  readonly onChange: (change: IngestChange) => void;
  /** Called when newly discovered pools depend on accounts the cache has not seen (fetch and watch them). */
  readonly onMissingAccounts?: (addresses: readonly string[]) => void;
  /** Called with pools whose mints are known only from the token accounts they own (fetch those accounts). */
  readonly onMissingOwnedTokenAccounts?: (owners: readonly string[]) => void;
  readonly now?: () => number;
  /**
   * The time stamped on records of state read at `slot` (their `updatedAtMs`, from which `poolCacheAgeMs` is
   * computed): at or before the moment the chain opened that slot, so data held back by a stalled stream is never
   * stamped as fresh. Default: the time the state is applied.
   */
  readonly dataTimeMs?: (slot: bigint, appliedAtMs: number) => number;
}

/** Slot statuses further than this below the newest processed slot count as the chain going backwards. */
export const REGRESSION_SLOTS = 64n;

/** Counters for stats and benchmarks. */
export interface IngestCounters {
  updates: number;
  applied: number;
  duplicates: number;
  recordsWritten: number;
  /** Rebuilds of clock-bound pools that produced the image the pool already held (not written). */
  unchanged: number;
  poolsDiscovered: number;
  /**
   * Updates dropped before grouping: token accounts no pool depends on (other pools' vaults a vault authority filter
   * also streams), and accounts of pools another stream carries (a pool account the primary's program filter
   * streams for a pool placed on an overflow stream).
   */
  ignored: number;
  /** Writes already applied from another stream (an account listed on several), seen again by this stream's pools. */
  shared: number;
}

/** Slot-consistent ingest into the slabs. */
export class IngestCore {
  readonly cache = new AccountCache();
  readonly registry = new PoolRegistry();
  readonly counters: IngestCounters = { updates: 0, applied: 0, duplicates: 0, recordsWritten: 0, unchanged: 0, poolsDiscovered: 0, ignored: 0, shared: 0 };
  /**
   * One lane per Subscribe stream (the primary first): its open transaction's writes, and its pools held back
   * because their transaction has brought some of their swap set (`DexAdapter.swapWrites`) and the rest may still be
   * on the wire (written when the rest arrives, when another transaction or a slot status of that stream shows the
   * transaction is over, or by {@link releaseHeld}). Writes of one stream never end, release or write another's.
   */
  private readonly lanes: StreamLane[] = [new StreamLane(PRIMARY_STREAM)];
  /** Streams of the last watch plan: above 1, each update is checked against the stream that carries its pools. */
  private streamCount = 1;
  private readonly discovery: PoolDiscovery;
  /** The vault authorities' reach and the pools left out of the subscription. */
  private readonly watch: WatchScope;
  /** Rebuilds changed pools and writes both views; holds the confirmed slot and the clock. */
  private readonly writer: RecordWriter;
  private readonly now: () => number;
  /** Slot statuses received far below the processed slot held (a chain that went backwards), and when last. */
  private behind = { count: 0, lastAtMs: 0, slot: 0n };
  /** When the processed slot last moved forward (0 before). */
  private advancedAtMs = 0;
  private processedSlot = 0n;

  constructor(private readonly opts: IngestCoreOptions) {
    this.now = opts.now ?? Date.now;
    this.discovery = new PoolDiscovery({
      cache: this.cache,
      registry: this.registry,
      slab: opts.slab,
      mints: opts.mints,
      adapters: opts.adapters,
      counters: this.counters,
      onMissingAccounts: opts.onMissingAccounts,
      onMissingOwnedTokenAccounts: opts.onMissingOwnedTokenAccounts,
    });
    this.watch = new WatchScope(opts.adapters, this.cache, opts.slab, this.now);
    this.writer = new RecordWriter({
      slab: opts.slab,
      cache: this.cache,
      registry: this.registry,
      watch: this.watch,
      counters: this.counters,
      onChange: opts.onChange,
      now: this.now,
      dataTimeMs: opts.dataTimeMs,
    });
  }

  /** Highest slot reported processed (where a reconnect resumes with `from_slot`). */
  get lastProcessedSlot(): bigint {
    return this.processedSlot;
  }

  /** When the slot stream last moved the processed slot forward (epoch ms; 0 before). */
  get slotAdvancedAtMs(): number {
    return this.advancedAtMs;
  }

  /** Pools waiting for accounts before they can be described (diagnostics). */
  get pendingPools(): number {
    return this.discovery.pendingCount;
  }

  /** Every account the pools depend on, and the Clock sysvar: what a resync re-reads. */
  watchedAccounts(): string[] {
    return [...new Set([...this.registry.dependencyAddresses(), CLOCK_SYSVAR])];
  }

  /**
   * The accounts each stream must list by address, within `budgetBytes` per stream and at most `maxStreams` streams
   * (1: the primary alone): on the primary the Clock sysvar and every dependency the vault authority filters do not
   * stream (known from its data; an account not read yet is listed), on an overflow stream every account of its
   * pools. Each pool is placed on one stream for good (`PoolEntry.stream`); from then on its writes are applied from
   * that stream only, in that stream's order. Pools whose addresses fit no stream are written as
   * {@link RECORD_STATUS_UNWATCHED} in both views and stay so: nothing would keep them fresh.
   */
  watchPlan(budgetBytes = SUBSCRIBE_ADDRESS_BUDGET_BYTES, maxStreams = 1): WatchPlan {
    const plan = this.watch.apply(this.registry.all(), budgetBytes, maxStreams);
    this.streamCount = plan.streams.length;
    while (this.lanes.length < this.streamCount) this.lanes.push(new StreamLane(this.lanes.length));
    // A pool held on the primary before it was placed elsewhere is written by its own stream from now on.
    for (const [p, s] of plan.placed) if (s !== PRIMARY_STREAM) this.lanes[PRIMARY_STREAM]!.held.delete(p);
    if (plan.newlyUnwatched.length > 0) {
      const pools: number[] = [];
      for (const p of plan.newlyUnwatched) {
        for (const lane of this.lanes) lane.held.delete(p);
        this.writer.unbind(p);
        pools.push(p.index);
      }
      this.opts.onChange({ pools, confirmed: false, slot: this.processedSlot });
      this.opts.onChange({ pools, confirmed: true, slot: this.processedSlot });
    }
    return plan;
  }

  /** Pools left out of the subscription (over its byte budget), written as not tradable. */
  get unwatchedPools(): number {
    return this.watch.unwatchedCount;
  }

  /** Streams of the last watch plan (1: the primary alone). */
  get streams(): number {
    return this.streamCount;
  }

  /** Highest slot stream `stream` reported processed (0 before): where that stream resumes. */
  streamProcessedSlot(stream: number): bigint {
    return this.lanes[stream]?.processedSlot ?? 0n;
  }

  /**
   * Applies a consistent snapshot read over RPC at `slot`: at confirmed commitment (`confirmed`, the default) both
   * views are written and marked confirmed; at processed, the latest view is written and the confirmed view follows
   * when the slot stream confirms the slot.
   */
  applySnapshot(accounts: readonly AccountUpdate[], slot: bigint, confirmed = true): void {
    const dirty = new Set<PoolEntry>();
    for (const u of accounts) this.ingest(u, dirty);
    // A pool held for the rest of its transaction on some stream is written by that stream's release (from the
    // cache, which has this read too), never half-applied by a read in between.
    for (const lane of this.lanes) if (lane.held.size > 0) for (const p of dirty) if (lane.held.has(p)) dirty.delete(p);
    // A read at processed commitment is optimistic like the stream's updates: its slot confirms on the slot stream.
    if (confirmed) this.writer.raiseConfirmedSlot(slot);
    if (slot > this.processedSlot) this.processedSlot = slot;
    this.opts.slab.setConfirmedSlot(this.writer.confirmedSlot);
    this.opts.slab.setProcessedSlot(this.processedSlot);
    this.writer.write(dirty, slot);
  }

  /**
   * A streamed account update, received on stream `stream`. The writes of one transaction are applied together, as
   * one state, when a write of another transaction on the same stream arrives or at {@link endTurn}: a pool written
   * by two transactions of one slot is seen after the first or after the second, never as a mix.
   */
  pushAccount(u: AccountUpdate, stream = PRIMARY_STREAM): void {
    this.counters.updates++;
    // With overflow streams, a pool's accounts are applied from the stream that carries the pool only: the same
    // account reaching ingest on another (a pool account through the primary's program filter) is dropped here,
    // before it can open or end a transaction's group there.
    if (this.streamCount > 1 && !this.carries(u.address, stream)) {
      this.counters.ignored++;
      return;
    }
    // The vault authority filters stream every vault of their authority, pools not known yet included: a token
    // account nothing waits for is dropped here, before it can open or end a transaction's group.
    if (this.watch.hasAuthorityFilters && isTokenProgram(u.owner) && !this.wants(u.address)) {
      this.counters.ignored++;
      return;
    }
    const lane = this.lanes[stream]!;
    const done = lane.grouper.push(u);
    if (done !== null) {
      // Another transaction began: the one before is over, whatever it wrote is all it wrote.
      this.applyBatch(done, true, stream);
      this.releaseHeld(0, stream);
    } else if (lane.held.size > 0 && lane.grouper.pending === 1) {
      // A write that opens a group after a turn ended: a transaction other than the held one's means it is over.
      if (lane.held.endedBy(u)) this.releaseHeld(0, stream);
    }
  }

  /**
   * True when stream `stream` carries the account: the Clock (every stream lists it), an account of a pool placed
   * on that stream, or, on the primary, an account no placed pool claims (discovery, pending pools).
   */
  private carries(address: string, stream: number): boolean {
    if (address === CLOCK_SYSVAR) return true;
    const pool = this.registry.get(address);
    if (pool) return streamOfPool(pool) === stream;
    const deps = this.registry.dependentsOf(address);
    for (const p of deps) if (streamOfPool(p) === stream) return true;
    return stream === PRIMARY_STREAM && (deps.length === 0 || this.discovery.waitsFor(address));
  }

  /** True when some pool, pending pool or owned-account wait needs this token account. */
  private wants(address: string): boolean {
    return this.registry.dependentsOf(address).length > 0 || this.discovery.waitsFor(address) || this.registry.get(address) !== undefined;
  }

  /** Pools held back waiting for the rest of their transaction's writes (every stream). */
  get heldCount(): number {
    let n = 0;
    for (const lane of this.lanes) n += lane.held.size;
    return n;
  }

  /**
   * Writes the held pools as they stand: every one (its transaction is over), or those held at least
   * `olderThanMs` (waited long enough: a transaction that writes only part of the set, a deposit into one vault);
   * those of one stream, or of every stream when `stream` is not given. Returns how many are still held there.
   */
  releaseHeld(olderThanMs = 0, stream?: number): number {
    if (stream !== undefined) return this.releaseLane(this.lanes[stream]!, olderThanMs);
    let left = 0;
    for (const lane of this.lanes) left += this.releaseLane(lane, olderThanMs);
    return left;
  }

  private releaseLane(lane: StreamLane, olderThanMs: number): number {
    if (lane.held.size === 0) return 0;
    const dirty = new Set<PoolEntry>();
    const slot = lane.held.release(dirty, olderThanMs);
    this.writer.write(dirty, slot);
    return lane.held.size;
  }

  /** True while writes of an open transaction (on any stream) wait for {@link endTurn}. */
  get hasOpenTransaction(): boolean {
    for (const lane of this.lanes) if (lane.grouper.pending > 0) return true;
    return false;
  }

  /**
   * The event-loop turn that delivered the streams' messages ended: each stream's open transaction's writes are
   * all in (a transaction's writes arrive together on a stream), so they are applied now.
   */
  endTurn(): void {
    for (let s = 0; s < this.lanes.length; s++) {
      const g = this.lanes[s]!.grouper.take();
      if (g !== null) this.applyBatch(g, false, s);
    }
  }

  /**
   * A slot status from stream `stream`'s slot filter. It releases that stream's pools held from the slot or before
   * (a slot's status follows every write of the slot on the same stream); the processed slot held and the
   * confirmation take the newest any stream reports (a slot confirmed is confirmed for every stream's writes).
   * Only the primary's statuses count as a chain gone backwards: an overflow stream replaying from its own resume
   * point is behind by design.
   */
  slotStatus(slot: bigint, status: SlotCommitment, stream = PRIMARY_STREAM): void {
    if (stream === PRIMARY_STREAM && slot + REGRESSION_SLOTS < this.processedSlot) this.behind = { count: this.behind.count + 1, lastAtMs: this.now(), slot };
    const lane = this.lanes[stream]!;
    // A slot's status comes after every write of the slot: a transaction held from it is over.
    if (lane.held.size > 0 && lane.held.endedBySlot(slot)) this.releaseHeld(0, stream);
    if (slot > lane.processedSlot) lane.processedSlot = slot;
    if (slot > this.processedSlot) {
      this.processedSlot = slot;
      this.advancedAtMs = this.now();
      this.opts.slab.setProcessedSlot(slot);
    }
    if ((status === 'confirmed' || status === 'finalized') && slot > this.writer.confirmedSlot) this.writer.confirm(slot);
  }

  /**
   * Slot statuses seen more than {@link REGRESSION_SLOTS} below the processed slot held: how many, the newest
   * such slot and when it arrived. A stream of these means the chain the stream follows went backwards.
   */
  get statusesBehind(): { readonly count: number; readonly lastAtMs: number; readonly slot: bigint } {
    return this.behind;
  }

  /**
   * The chain was replaced (restarted from genesis, another cluster, a restore): forgets every account version,
   * buffered update, pending confirmation and slot, so the next snapshot is applied whatever its slots. Pools keep
   * their slab indices; {@link markAbsentPools} retires those the new chain does not have.
   */
  resetChain(): void {
    this.cache.clear();
    for (const lane of this.lanes) lane.clear();
    this.writer.reset();
    this.discovery.clear();
    this.watch.forgetChain();
    for (const p of this.registry.all()) p.latestSlot = 0n;
    this.processedSlot = 0n;
    this.behind = { count: 0, lastAtMs: 0, slot: 0n };
    this.opts.slab.setProcessedSlot(0n);
    this.opts.slab.setConfirmedSlot(0n);
  }

  /**
   * After a reload: every known pool whose account the new chain does not have, or whose state cannot be built
   * from it, is written as absent (not tradable) in both views, so nothing prices from the replaced chain's data.
   * Returns how many.
   */
  markAbsentPools(): number {
    return this.writer.markAbsent();
  }

  /** Applies whatever is still held (the open transaction): before a snapshot boundary and at shutdown. */
  flush(): void {
    this.endTurn();
    this.releaseHeld();
  }

  /**
   * Applies one transaction's writes (or the part of them in so far). `over`: the transaction is known to be over
   * (another began); otherwise a pool that received only part of its swap set is held until the rest arrives.
   */
  private applyBatch(batch: readonly AccountUpdate[], over: boolean, stream: number): void {
    const dirty = new Set<PoolEntry>();
    let slot = 0n;
    for (const u of batch) {
      if (u.slot > slot) slot = u.slot;
      this.ingest(u, dirty, stream);
    }
    if (dirty.size > 0) this.lanes[stream]!.held.holdIncomplete(batch, dirty, slot, over);
    this.writer.write(dirty, slot);
  }

  /**
   * Applies one account to the cache and marks the pools it changes: those of stream `stream` when it came from a
   * stream (with one stream, every pool), every pool when read over RPC (`stream` undefined).
   */
  private ingest(u: AccountUpdate, dirty: Set<PoolEntry>, stream?: number): void {
    const only = stream === undefined || this.streamCount === 1 ? undefined : this.lanes[stream]!.owns;
    if (!this.cache.apply(u)) {
      const held = this.cache.get(u.address);
      if (only !== undefined && held !== undefined && held.slot === u.slot && held.writeVersion === u.writeVersion) {
        // The same write, applied from another stream that lists the account too (the Clock, a DEX's config, a
        // shared mint): this stream's pools take it now, in this stream's order.
        this.counters.shared++;
        if (u.address === CLOCK_SYSVAR) this.writer.clockBoundInto(dirty, only);
        else this.dependentsInto(u.address, dirty, only);
        return;
      }
      this.counters.duplicates++;
      return;
    }
    this.counters.applied++;
    if (u.address === CLOCK_SYSVAR) {
      this.writer.setClock(decodeClock(u.data), dirty, only);
      return;
    }
    const pool = this.registry.get(u.address) ?? this.discovery.poolIn(u);
    if (pool && (only === undefined || only(pool))) dirty.add(pool);
    this.dependentsInto(u.address, dirty, only);
    this.discovery.arrived(u, dirty);
  }

  /** Adds the pools that depend on `address` (those `only` accepts, when given) to `dirty`. */
  private dependentsInto(address: string, dirty: Set<PoolEntry>, only?: (p: PoolEntry) => boolean): void {
    for (const p of this.registry.dependentsOf(address)) if (only === undefined || only(p)) dirty.add(p);
  }
}
