/**
 * Reads accounts over RPC into the ingest core: the snapshot (the clock, every adapter's program accounts, then
 * the dependencies) and the fetch rounds that bring what newly discovered pools need (their accounts,
 * the mints whose decimals they lack, the token accounts of pools described by them). Used by the runner at
 * startup, on resyncs and for new pools, and by tests to build a reference state straight from the chain.
 *
 * Everything is applied in pages as it arrives, never gathered first: a program's accounts stream in pages of
 * `pageAccounts` (the JSON-RPC answer is parsed while it downloads), and the accounts read by address are applied
 * per `getMultipleAccounts` chunk, `concurrency` chunks in flight. Each page is a snapshot at its own context slot.
 */
import type { DexAdapter } from '../adapters/types.js';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../adapters/common/spl-layouts.js';
import { DEFAULT_PAGE_ACCOUNTS, type RpcAccount, type RpcClient } from '../chain/rpc-client.js';
import type { AccountUpdate } from './account-update.js';
import { CLOCK_SYSVAR } from './clock.js';
import type { IngestCore } from './ingest-core.js';
import { toRpcFilters } from './subscription.js';

/** Fetch rounds of one snapshot at most (a pool's config, then its mints, then their dependencies...). */
const MAX_ROUNDS = 5;

/** Paging of the reads (defaults: {@link DEFAULT_PAGE_ACCOUNTS}, 4 chunks in flight). */
export interface SnapshotPaging {
  /** Accounts per page of a program's accounts. */
  readonly pageAccounts?: number;
  /** `getMultipleAccounts` chunks (100 addresses each) in flight at once. */
  readonly concurrency?: number;
}

/** Snapshot reads carry write version 0: older than any streamed write of their slot. */
const SNAPSHOT_WRITE_VERSION = 0n;

/** RPC accounts read at `slot` as the core's updates (six fields; nothing else of the answer is kept). */
function toUpdates(accounts: readonly (RpcAccount | null)[], slot: bigint): AccountUpdate[] {
  const out: AccountUpdate[] = [];
  for (const a of accounts) {
    if (a) out.push({ address: a.address, owner: a.owner, lamports: a.lamports, data: a.data, slot, writeVersion: SNAPSHOT_WRITE_VERSION });
  }
  return out;
}

/** The accounts owed to the core and the RPC reads that bring them. */
export class SnapshotLoader {
  /** Accounts to read by address. */
  readonly missing = new Set<string>();
  /** Pools whose owned token accounts must be read (pools described by them). */
  readonly missingOwners = new Set<string>();

  /**
   * Commitment of the reads. `confirmed` at startup (the stream then replays from the snapshot's slot with
   * `from_slot`, so nothing is missed). `processed` once a stream runs without such a replay (a resync from the
   * present, a reload, accounts newly watched): a confirmed read would miss the writes that landed in the slots
   * after the confirmed one and before the stream (or its widened filter) started, which the stream never sends.
   */
  commitment: 'confirmed' | 'processed';
  private readonly pageAccounts: number;
  private readonly concurrency: number;

  constructor(
    private readonly rpc: RpcClient,
    private readonly core: IngestCore,
    private readonly adapters: readonly DexAdapter[],
    commitment: 'confirmed' | 'processed' = 'confirmed',
    paging: SnapshotPaging = {},
  ) {
    this.commitment = commitment;
    this.pageAccounts = paging.pageAccounts ?? DEFAULT_PAGE_ACCOUNTS;
    this.concurrency = paging.concurrency ?? 4;
  }

  /**
   * The lowest context slot applied since the last {@link load} started (0 before any): where a stream must replay
   * from so that no write between a page's read and the stream's start is missed (pages are read at different
   * slots; a replay below a page's slot is dropped as older by the account cache).
   */
  lowestSlot = 0n;

  /** Applies accounts read at context slot `at`. */
  private apply(updates: AccountUpdate[], at: bigint, confirmed: boolean): void {
    if (this.lowestSlot === 0n || at < this.lowestSlot) this.lowestSlot = at;
    this.core.applySnapshot(updates, at, confirmed);
  }

  /** True when something is owed. */
  get owed(): boolean {
    return this.missing.size > 0 || this.missingOwners.size > 0;
  }

  /**
   * Program accounts of every adapter, then their dependencies and the clock; returns the highest context slot
   * read. `all` (a resync) re-reads every watched account, not only those the cache lacks.
   */
  async load(all = false): Promise<bigint> {
    this.lowestSlot = 0n;
    // The clock first: pools built as their pages arrive may depend on it (an open time, a fee schedule), and a
    // pool built without it would be written twice.
    this.missing.add(CLOCK_SYSVAR);
    let slot = await this.fetchRound(true);
    const confirmed = this.commitment === 'confirmed';
    for (const a of this.adapters) {
      // Auxiliary accounts (configs) first so that pools find them when discovered.
      for (const f of [...a.auxFilters, ...a.poolFilters]) {
        const read = await this.rpc.getProgramAccountsPaged(
          a.programId,
          toRpcFilters(f),
          this.commitment,
          (page, at) => this.apply(toUpdates(page, at), at, confirmed),
          this.pageAccounts,
        );
        if (read > slot) slot = read;
      }
    }
    // Dependencies, then what they reveal (pools waiting for a config or their mints' decimals, and those pools'
    // own dependencies): a few rounds at most.
    let last = slot;
    if (all) for (const a of this.core.watchedAccounts()) this.missing.add(a);
    for (let round = 0; this.owed && round < MAX_ROUNDS; round++) {
      const r = await this.fetchRound(round === 0);
      if (r > last) last = r;
    }
    return last;
  }

  /**
   * One fetch round: the missing accounts by address (each chunk applied as a snapshot at its context slot as it
   * arrives) and the token accounts of pools described by them. Returns the highest context slot read. On failure
   * what was not applied stays owed.
   */
  async fetchRound(rereadCached = false): Promise<bigint> {
    // An account asked for twice (a pool woken mid-batch asks for one the same batch brings) is read once.
    const addrs = rereadCached ? [...this.missing] : [...this.missing].filter((a) => !this.core.cache.has(a));
    const owners = [...this.missingOwners];
    this.missing.clear();
    this.missingOwners.clear();
    const confirmed = this.commitment === 'confirmed';
    const chunksApplied = new Set<number>();
    const ownersDone = new Set<string>();
    let slot = 0n;
    try {
      if (addrs.length > 0) {
        await this.rpc.getMultipleAccountsPaged(
          addrs,
          this.commitment,
          (accounts, start, at) => {
            this.apply(toUpdates(accounts, at), at, confirmed);
            chunksApplied.add(start);
            if (at > slot) slot = at;
          },
          this.concurrency,
        );
      }
      for (const owner of owners) {
        // Both programs' answers are applied together: the pool is described by whichever holds its mint.
        const ups: AccountUpdate[] = [];
        let at = 0n;
        for (const program of [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID]) {
          const r = await this.rpc.getTokenAccountsByOwner(owner, program, this.commitment);
          ups.push(...toUpdates(r.value, r.slot));
          if (r.slot > at) at = r.slot;
        }
        this.apply(ups, at, confirmed);
        ownersDone.add(owner);
        if (at > slot) slot = at;
      }
    } catch (e) {
      for (let start = 0; start < addrs.length; start += 100) {
        if (!chunksApplied.has(start)) for (const a of addrs.slice(start, start + 100)) this.missing.add(a);
      }
      for (const o of owners) if (!ownersDone.has(o)) this.missingOwners.add(o);
      throw e;
    }
    return slot;
  }
}
