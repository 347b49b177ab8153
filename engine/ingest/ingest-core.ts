/**
 * The single writer of the slabs: turns account updates into transaction-consistent pool records. No I/O here;
 * the runner feeds it snapshot accounts, stream updates and slot statuses, and ends each event-loop turn.
 */
import bs58 from 'bs58';
import { PARAM_F64_WORDS, PARAM_U64_WORDS, type ChainClock, type DexAdapter, type RecordFields } from '../adapters/types.js';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../adapters/common/spl-layouts.js';
import { mintDecimalsOf } from './mint-decimals.js';
import { dexIndex } from '../dex-ids.js';
import type { MintTable } from '../slab/mint-table.js';
import { VIEW_CONFIRMED, VIEW_LATEST, type PoolSlab } from '../slab/pool-slab.js';
import { AccountCache } from './account-cache.js';
import type { AccountUpdate } from './account-update.js';
import { CLOCK_SYSVAR, decodeClock } from './clock.js';
import { ConfirmTracker } from './confirm-tracker.js';
import { PoolRegistry, type PoolEntry } from './pool-registry.js';
import { sameSignature, TxGrouper } from './tx-grouper.js';
import { sameRecordFields } from './same-record.js';
import { newExactSnapshot } from '../slab/pool-snapshot.js';
import { planWatch, SUBSCRIBE_ADDRESS_BUDGET_BYTES, type WatchPlan } from './watch-plan.js';

/** Pools whose records changed, and in which view. */
export interface IngestChange {
  /** Slab pool indices. */
  readonly pools: readonly number[];
  /** True: the confirmed view changed; false: the latest (processed) view changed. */
  readonly confirmed: boolean;
  readonly slot: bigint;
}

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
  /** Token-account updates no pool depends on (other pools' vaults a vault authority filter also streams), dropped. */
  ignored: number;
}

/** Slot-consistent ingest into the slabs. */
export class IngestCore {
  readonly cache = new AccountCache();
  readonly registry = new PoolRegistry();
  readonly counters: IngestCounters = { updates: 0, applied: 0, duplicates: 0, recordsWritten: 0, unchanged: 0, poolsDiscovered: 0, ignored: 0 };
  private readonly grouper = new TxGrouper();
  /**
   * Pools held back: their transaction has brought some of their swap set (`DexAdapter.swapWrites`) and the rest
   * may still be on the wire. Written when the rest arrives, when another transaction or a slot status shows the
   * transaction is over, or by {@link releaseHeld}.
   */
  private readonly heldPools = new Map<PoolEntry, { readonly signature: Uint8Array | undefined; readonly slot: bigint; readonly written: Set<string>; readonly sinceMs: number }>();
  /** Scratch for comparing a clock-bound pool's rebuilt image with the one it holds. */
  private readonly held = newExactSnapshot();
  private readonly tracker = new ConfirmTracker();
  private readonly byProgram = new Map<string, DexAdapter>();
  private readonly now: () => number;
  /** Slot statuses received far below the processed slot held (a chain that went backwards), and when last. */
  private behind = { count: 0, lastAtMs: 0, slot: 0n };
  /** When the processed slot last moved forward (0 before). */
  private advancedAtMs = 0;
  private clock: ChainClock = { slot: 0n, unixTimestamp: 0n, epoch: 0n };
  private confirmedSlot = 0n;
  private processedSlot = 0n;
  /** Pools whose last state depends on the clock: not tradable (an open time may pass) or clock-sensitive per
   * their adapter (fee schedulers, activation points). Each Clock update rebuilds them. Usually a handful. */
  private readonly clockBound = new Set<PoolEntry>();
  /** Pools seen but not describable yet, by address: the accounts each still waits for (descriptor inputs, mint
   * accounts whose decimals the pool does not carry). */
  private readonly pending = new Map<string, { readonly adapter: DexAdapter; readonly waitingFor: Set<string> }>();
  /** Account -> pending pools waiting for it. An `owned:<pool>` key waits for a token account the pool owns. */
  private readonly waiters = new Map<string, Set<string>>();
  /** Token accounts seen per owning pool, for pools described by the token accounts they own. */
  private readonly ownedTokenAccounts = new Map<string, Set<string>>();
  /** Pools waiting for a token account they own, keyed by the pool's 32 address bytes as a latin1 string (cheap to
   * make from a token account's owner field); checked against token-account updates only while non-empty. */
  private readonly awaitingOwned = new Map<string, string>();
  /** The adapters' vault authorities, each as its 32 bytes in a latin1 string (see `awaitingOwned`). */
  private readonly authorityKeys = new Set<string>();
  /** Dependencies whose data shows a vault authority as owner: the authority filters stream them. */
  private readonly byAuthority = new Set<string>();
  /** Pools the subscription could not fit (`watchPlan`): written as {@link RECORD_STATUS_UNWATCHED}, never again. */
  private readonly unwatched = new Set<PoolEntry>();
  private readonly unwatchedIndices = new Set<number>();

  constructor(private readonly opts: IngestCoreOptions) {
    for (const a of opts.adapters) {
      this.byProgram.set(a.programId, a);
      for (const auth of a.vaultAuthorities?.() ?? []) this.authorityKeys.add(ownedKey(auth));
    }
    this.now = opts.now ?? Date.now;
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
    return this.pending.size;
  }

  /** Every account the pools depend on, and the Clock sysvar: what a resync re-reads. */
  watchedAccounts(): string[] {
    return [...new Set([...this.registry.dependencyAddresses(), CLOCK_SYSVAR])];
  }

  /**
   * The accounts the stream must list by address, within `budgetBytes`: the Clock sysvar and every dependency the
   * vault authority filters do not stream (known from its data; an account not read yet is listed). Pools whose
   * addresses do not fit are written as {@link RECORD_STATUS_UNWATCHED} in both views and stay so: nothing would
   * keep them fresh.
   */
  watchPlan(budgetBytes = SUBSCRIBE_ADDRESS_BUDGET_BYTES): WatchPlan {
    const plan = planWatch(this.registry.all(), [CLOCK_SYSVAR], (a) => this.streamedByAuthority(a), this.unwatched, budgetBytes, (p) =>
      p.desc.dependencies.some((d) => !this.cache.has(d)),
    );
    if (plan.newlyUnwatched.length > 0) {
      const fields = newRecordFields();
      fields.status = RECORD_STATUS_UNWATCHED;
      const now = this.now();
      const pools: number[] = [];
      for (const p of plan.newlyUnwatched) {
        this.unwatched.add(p);
        this.unwatchedIndices.add(p.index);
        this.heldPools.delete(p);
        this.clockBound.delete(p);
        this.opts.slab.write(p.index, VIEW_LATEST, fields, p.latestSlot, now, true);
        this.opts.slab.write(p.index, VIEW_CONFIRMED, fields, p.latestSlot, now, true);
        pools.push(p.index);
      }
      this.opts.onChange({ pools, confirmed: false, slot: this.processedSlot });
      this.opts.onChange({ pools, confirmed: true, slot: this.processedSlot });
    }
    return plan;
  }

  /** Pools left out of the subscription (over its byte budget), written as not tradable. */
  get unwatchedPools(): number {
    return this.unwatched.size;
  }

  /** True when a vault authority filter streams the account: its data is a token account of such an authority. */
  private streamedByAuthority(address: string): boolean {
    if (this.byAuthority.has(address)) return true;
    if (this.authorityKeys.size === 0) return false;
    const acc = this.cache.get(address);
    if (!acc || !isTokenProgram(acc.owner) || acc.data.length < TOKEN_ACCOUNT_SIZE) return false;
    // A Token-2022 account longer than the base layout says what it is at byte 165 (2: a token account, not a mint).
    if (acc.data.length > TOKEN_ACCOUNT_SIZE && acc.data[TOKEN_ACCOUNT_SIZE] !== TOKEN_2022_ACCOUNT_TYPE_ACCOUNT) return false;
    if (!this.authorityKeys.has(Buffer.from(acc.data.buffer, acc.data.byteOffset + 32, 32).toString('latin1'))) return false;
    this.byAuthority.add(address);
    return true;
  }

  /**
   * Applies a consistent snapshot read over RPC at `slot`: at confirmed commitment (`confirmed`, the default) both
   * views are written and marked confirmed; at processed, the latest view is written and the confirmed view follows
   * when the slot stream confirms the slot.
   */
  applySnapshot(accounts: readonly AccountUpdate[], slot: bigint, confirmed = true): void {
    const dirty = new Set<PoolEntry>();
    for (const u of accounts) this.ingest(u, dirty);
    // A read at processed commitment is optimistic like the stream's updates: its slot confirms on the slot stream.
    if (confirmed && slot > this.confirmedSlot) this.confirmedSlot = slot;
    if (slot > this.processedSlot) this.processedSlot = slot;
    this.opts.slab.setConfirmedSlot(this.confirmedSlot);
    this.opts.slab.setProcessedSlot(this.processedSlot);
    this.writeDirty(dirty, slot);
  }

  /**
   * A streamed account update. The writes of one transaction are applied together, as one state, when a write of
   * another transaction arrives or at {@link endTurn}: a pool written by two transactions of one slot is seen after
   * the first or after the second, never as a mix.
   */
  pushAccount(u: AccountUpdate): void {
    this.counters.updates++;
    // The vault authority filters stream every vault of their authority, pools not known yet included: a token
    // account nothing waits for is dropped here, before it can open or end a transaction's group.
    if (this.authorityKeys.size > 0 && isTokenProgram(u.owner) && !this.wants(u.address)) {
      this.counters.ignored++;
      return;
    }
    const done = this.grouper.push(u);
    if (done !== null) {
      // Another transaction began: the one before is over, whatever it wrote is all it wrote.
      this.applyBatch(done, true);
      this.releaseHeld();
    } else if (this.heldPools.size > 0 && this.grouper.pending === 1) {
      // A write that opens a group after a turn ended: a transaction other than the held one's means it is over.
      for (const h of this.heldPools.values()) {
        if (h.slot !== u.slot || !sameSignature(h.signature, u.txnSignature)) {
          this.releaseHeld();
          break;
        }
      }
    }
  }

  /** True when some pool, pending pool or owned-account wait needs this token account. */
  private wants(address: string): boolean {
    return this.registry.dependentsOf(address).length > 0 || this.waiters.has(address) || this.awaitingOwned.size > 0 || this.registry.get(address) !== undefined;
  }

  /** Pools held back waiting for the rest of their transaction's writes. */
  get heldCount(): number {
    return this.heldPools.size;
  }

  /**
   * Writes the held pools as they stand: every one (its transaction is over), or those held at least
   * `olderThanMs` (waited long enough: a transaction that writes only part of the set, a deposit into one vault).
   * Returns how many are still held.
   */
  releaseHeld(olderThanMs = 0): number {
    if (this.heldPools.size === 0) return 0;
    const now = performance.now();
    let slot = 0n;
    const dirty = new Set<PoolEntry>();
    for (const [p, h] of this.heldPools) {
      if (olderThanMs > 0 && now - h.sinceMs < olderThanMs) continue;
      if (h.slot > slot) slot = h.slot;
      dirty.add(p);
    }
    for (const p of dirty) this.heldPools.delete(p);
    this.writeDirty(dirty, slot);
    return this.heldPools.size;
  }

  /** True while writes of an open transaction wait for {@link endTurn}. */
  get hasOpenTransaction(): boolean {
    return this.grouper.pending > 0;
  }

  /**
   * The event-loop turn that delivered the stream's messages ended: the open transaction's writes are all in
   * (a transaction's writes arrive together), so they are applied now.
   */
  endTurn(): void {
    const g = this.grouper.take();
    if (g !== null) this.applyBatch(g, false);
  }

  /** A slot status from the slot stream. */
  slotStatus(slot: bigint, status: SlotCommitment): void {
    if (slot + REGRESSION_SLOTS < this.processedSlot) this.behind = { count: this.behind.count + 1, lastAtMs: this.now(), slot };
    // A slot's status comes after every write of the slot: a transaction held from it is over.
    if (this.heldPools.size > 0 && [...this.heldPools.values()].some((h) => h.slot <= slot)) this.releaseHeld();
    if (slot > this.processedSlot) {
      this.processedSlot = slot;
      this.advancedAtMs = this.now();
      this.opts.slab.setProcessedSlot(slot);
    }
    if ((status === 'confirmed' || status === 'finalized') && slot > this.confirmedSlot) this.confirm(slot);
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
    this.grouper.clear();
    this.heldPools.clear();
    this.tracker.clear();
    this.pending.clear();
    this.waiters.clear();
    this.ownedTokenAccounts.clear();
    this.awaitingOwned.clear();
    this.byAuthority.clear();
    this.clockBound.clear();
    for (const p of this.registry.all()) p.latestSlot = 0n;
    this.processedSlot = 0n;
    this.confirmedSlot = 0n;
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
    const gone: number[] = [];
    const now = this.now();
    for (const p of this.registry.all()) {
      if (this.cache.has(p.desc.address) && this.build(p) !== null) continue;
      const fields = newRecordFields();
      fields.status = RECORD_STATUS_ABSENT;
      this.opts.slab.write(p.index, VIEW_LATEST, fields, 0n, now, true);
      this.opts.slab.write(p.index, VIEW_CONFIRMED, fields, 0n, now, true);
      gone.push(p.index);
    }
    if (gone.length > 0) this.opts.onChange({ pools: gone, confirmed: true, slot: 0n });
    return gone.length;
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
  private applyBatch(batch: readonly AccountUpdate[], over: boolean): void {
    const dirty = new Set<PoolEntry>();
    let slot = 0n;
    for (const u of batch) {
      if (u.slot > slot) slot = u.slot;
      this.ingest(u, dirty);
    }
    if (dirty.size > 0) this.holdIncomplete(batch, dirty, slot, over);
    this.writeDirty(dirty, slot);
  }

  /** Moves from `dirty` to the held pools those whose swap set this transaction has brought only part of. */
  private holdIncomplete(batch: readonly AccountUpdate[], dirty: Set<PoolEntry>, slot: bigint, over: boolean): void {
    const signature = batch[0]!.txnSignature;
    // Unsigned writes (startup replays, snapshots) are no transaction: nothing to wait for.
    if (signature === undefined && !over) return;
    for (const p of dirty) {
      const set = p.swapSet;
      if (set === undefined) continue;
      const before = this.heldPools.get(p);
      const mine = before !== undefined && sameSignature(before.signature, signature);
      if (over) {
        this.heldPools.delete(p);
        continue;
      }
      const written = mine ? before.written : new Set<string>();
      for (const u of batch) if (set.includes(u.address)) written.add(u.address);
      // Written only for other reasons (a Clock rebuild) or all of the set in: nothing to wait for.
      if (written.size === 0 || written.size === set.length) {
        this.heldPools.delete(p);
        continue;
      }
      this.heldPools.set(p, { signature, slot, written, sinceMs: mine ? before.sinceMs : performance.now() });
      dirty.delete(p);
    }
  }

  /** Applies one account to the cache and marks the pools it changes. */
  private ingest(u: AccountUpdate, dirty: Set<PoolEntry>): void {
    if (!this.cache.apply(u)) {
      this.counters.duplicates++;
      return;
    }
    this.counters.applied++;
    if (u.address === CLOCK_SYSVAR) {
      this.clock = decodeClock(u.data);
      this.opts.slab.setClock(this.clock);
      for (const p of this.clockBound) dirty.add(p);
      return;
    }
    let pool = this.registry.get(u.address);
    if (!pool) {
      const adapter = this.byProgram.get(u.owner);
      if (adapter && adapter.isPool(u.data)) pool = this.discover(adapter, u.address);
    }
    if (pool) dirty.add(pool);
    for (const p of this.registry.dependentsOf(u.address)) dirty.add(p);
    if (this.awaitingOwned.size > 0 && isTokenProgram(u.owner) && u.data.length >= 165) {
      const owner = this.awaitingOwned.get(Buffer.from(u.data.buffer, u.data.byteOffset + 32, 32).toString('latin1'));
      if (owner !== undefined) {
        const set = this.ownedTokenAccounts.get(owner) ?? new Set<string>();
        set.add(u.address);
        this.ownedTokenAccounts.set(owner, set);
        this.awaitingOwned.delete(ownedKey(owner));
        this.wake(`owned:${owner}`, dirty);
      }
    }
    this.wake(u.address, dirty);
  }

  /** Re-describes the pending pools that were waiting for `key` and have nothing else to wait for. */
  private wake(key: string, dirty: Set<PoolEntry>): void {
    const waiting = this.waiters.get(key);
    if (waiting) {
      this.waiters.delete(key);
      for (const address of waiting) {
        const p = this.pending.get(address);
        if (!p) continue;
        p.waitingFor.delete(key);
        if (p.waitingFor.size > 0) continue;
        this.pending.delete(address);
        const entry = this.discover(p.adapter, address);
        if (entry) dirty.add(entry);
      }
    }
  }

  /**
   * Describes and registers the pool at `address` (its data in the cache). When the adapter needs accounts the
   * cache lacks (descriptor inputs, mint accounts for decimals), the pool waits for them: they are requested and
   * the pool is described again when the last one arrives.
   */
  private discover(adapter: DexAdapter, address: string): PoolEntry | undefined {
    const data = this.cache.data(address)!;
    const inputs = [...(adapter.descriptorInputs?.(data) ?? [])];
    if (adapter.describedByOwnedTokenAccounts) {
      const owned = this.ownedTokenAccounts.get(address);
      if (!owned) {
        this.awaitOwned(adapter, address);
        this.opts.onMissingOwnedTokenAccounts?.([address]);
        return undefined;
      }
      inputs.push(...owned);
    }
    const absent = inputs.filter((a) => !this.cache.has(a));
    if (absent.length > 0) return this.wait(adapter, address, absent);
    const mints = this.opts.mints;
    const decimalsOf = (m: string): number | undefined => {
      const id = mints.idOf(m);
      if (id !== undefined) return mints.decimals(id);
      const acc = this.cache.get(m);
      return acc ? mintDecimalsOf(acc.owner, acc.data) : undefined;
    };
    const inputMap = new Map(inputs.map((a) => {
      const acc = this.cache.get(a)!;
      return [a, { owner: acc.owner, data: acc.data }] as const;
    }));
    const desc = adapter.decodePool(address, data, decimalsOf, inputMap);
    if (!desc) {
      // None of the token accounts seen reveals the mint (one made by someone else for another mint): keep
      // listening for the genuine one.
      if (adapter.describedByOwnedTokenAccounts) this.awaitOwned(adapter, address);
      return undefined;
    }
    const unknown = [desc.mintA, desc.mintB].filter((m, i) => (i === 0 ? desc.decimalsA : desc.decimalsB) < 0);
    if (unknown.length > 0) {
      // A mint account already read but not a mint (or unreadable) can never give decimals: the pool stays out.
      const readable = unknown.filter((m) => !this.cache.has(m));
      return readable.length === unknown.length ? this.wait(adapter, address, unknown) : undefined;
    }
    const mintA = mints.add(desc.mintA, desc.decimalsA);
    const mintB = mints.add(desc.mintB, desc.decimalsB);
    const index = this.opts.slab.addPool(bs58.decode(desc.address), dexIndex(desc.dex), mintA, mintB);
    const swapSet = adapter.swapWrites?.(desc);
    const entry: PoolEntry = swapSet && swapSet.length > 1 ? { desc, adapter, index, latestSlot: 0n, swapSet } : { desc, adapter, index, latestSlot: 0n };
    this.registry.add(entry);
    this.counters.poolsDiscovered++;
    const missing = desc.dependencies.filter((d) => !this.cache.has(d));
    if (missing.length > 0) this.opts.onMissingAccounts?.(missing);
    return entry;
  }

  /** Parks a pool until a token account it owns arrives (without asking again). */
  private awaitOwned(adapter: DexAdapter, address: string): void {
    this.awaitingOwned.set(ownedKey(address), address);
    this.wait(adapter, address, [`owned:${address}`], false);
  }

  /** Parks a pool until `accounts` arrive and (unless `request` is false) asks for them. */
  private wait(adapter: DexAdapter, address: string, accounts: readonly string[], request = true): undefined {
    this.pending.set(address, { adapter, waitingFor: new Set(accounts) });
    for (const a of accounts) {
      const w = this.waiters.get(a);
      if (w) w.add(address);
      else this.waiters.set(a, new Set([address]));
    }
    if (request) this.opts.onMissingAccounts?.(accounts);
    return undefined;
  }

  /** Rebuilds and writes the latest view of every dirty pool as of `slot`. */
  private writeDirty(dirty: Set<PoolEntry>, slot: bigint): void {
    if (dirty.size === 0) return;
    const appliedAt = this.now();
    const now = this.opts.dataTimeMs ? this.opts.dataTimeMs(slot, appliedAt) : appliedAt;
    const written: number[] = [];
    const confirmedNow: number[] = [];
    let newest = slot;
    for (const p of dirty) {
      if (this.unwatched.has(p)) continue;
      const fields = this.build(p);
      if (!fields) continue;
      // A clock-bound pool rebuilt to the image it already holds (most slots, for a pool not open yet): nothing
      // changed, so nothing is written and no reader is woken.
      if (this.clockBound.has(p) && this.opts.slab.readExact(p.index, VIEW_LATEST, this.held) && sameRecordFields(fields, this.held)) {
        this.counters.unchanged++;
        continue;
      }
      // Why the pool's own latest slot when newer: an RPC read (a resync) can be older than states the stream
      // already brought; the rebuilt record holds both, so it is as new as the newest and joins that pending state
      // (its confirmation then carries what the resync read, and the confirmed view never shows unconfirmed data).
      const at = p.latestSlot > slot ? p.latestSlot : slot;
      const time = at === slot ? now : this.opts.dataTimeMs ? this.opts.dataTimeMs(at, appliedAt) : appliedAt;
      const confirmed = at <= this.confirmedSlot;
      this.opts.slab.write(p.index, VIEW_LATEST, fields, at, time, confirmed);
      p.latestSlot = at;
      if (at > newest) newest = at;
      this.counters.recordsWritten++;
      written.push(p.index);
      if (confirmed) {
        this.opts.slab.write(p.index, VIEW_CONFIRMED, fields, at, time, true);
        confirmedNow.push(p.index);
      } else {
        this.tracker.add(p.index, at, fields, time);
      }
    }
    if (written.length > 0) this.opts.onChange({ pools: written, confirmed: false, slot: newest });
    if (confirmedNow.length > 0) this.opts.onChange({ pools: confirmedNow, confirmed: true, slot: newest });
  }

  private build(p: PoolEntry): RecordFields | null {
    const poolData = this.cache.data(p.desc.address);
    if (!poolData) return null;
    const deps = new Map<string, Uint8Array>();
    for (const d of p.desc.dependencies) {
      const data = this.cache.data(d);
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

  private confirm(slot: bigint): void {
    this.confirmedSlot = slot;
    this.opts.slab.setConfirmedSlot(slot);
    const writes = this.tracker.confirm(slot);
    if (writes.length === 0) return;
    const pools: number[] = [];
    for (const w of writes) {
      if (this.unwatchedIndices.has(w.pool)) continue;
      this.opts.slab.write(w.pool, VIEW_CONFIRMED, w.fields, w.slot, w.updatedAtMs, true);
      pools.push(w.pool);
    }
    // The latest view of a pool not written since that slot is now confirmed too.
    for (const w of writes) {
      if (this.registry.atIndex(w.pool)?.latestSlot === w.slot) this.opts.slab.setConfirmed(w.pool, VIEW_LATEST, true);
    }
    this.opts.onChange({ pools, confirmed: true, slot });
  }
}

/** Record status of a pool whose account the chain no longer has (after a reload); never tradable. */
export const RECORD_STATUS_ABSENT = 0xffff_ffff;

/** Record status of a pool the stream does not watch (over the subscription's byte budget); never tradable. */
export const RECORD_STATUS_UNWATCHED = 0xffff_fffe;

/** Size of an SPL token account (Token-2022 accounts with extensions are longer). */
const TOKEN_ACCOUNT_SIZE = 165;
/** Token-2022 `AccountType` of a token account (at byte 165 of an account with extensions). */
const TOKEN_2022_ACCOUNT_TYPE_ACCOUNT = 2;

/** The key of {@link IngestCore} `awaitingOwned`: the address's 32 bytes as a latin1 string. */
function ownedKey(address: string): string {
  return Buffer.from(bs58.decode(address)).toString('latin1');
}

function isTokenProgram(owner: string): boolean {
  return owner === TOKEN_PROGRAM_ID || owner === TOKEN_2022_PROGRAM_ID;
}

/** A fresh, zeroed record image. */
export function newRecordFields(): RecordFields {
  return {
    status: 0,
    reserveA: 0n,
    reserveB: 0n,
    u64: new Array<bigint>(PARAM_U64_WORDS).fill(0n),
    f64: new Array<number>(PARAM_F64_WORDS).fill(0),
    ext: null,
  };
}
