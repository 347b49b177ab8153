/**
 * Reads accounts over RPC into the ingest core: the snapshot (every adapter's program accounts, then the
 * dependencies and the clock) and the fetch rounds that bring what newly discovered pools need (their accounts,
 * the mints whose decimals they lack, the token accounts of pools described by them). Used by the runner at
 * startup, on resyncs and for new pools, and by tests to build a reference state straight from the chain.
 */
import type { DexAdapter } from '../adapters/types.js';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../adapters/common/spl-layouts.js';
import type { RpcClient } from '../chain/rpc-client.js';
import type { AccountUpdate } from './account-update.js';
import { CLOCK_SYSVAR } from './clock.js';
import type { IngestCore } from './ingest-core.js';
import { toRpcFilters } from './subscription.js';

/** Fetch rounds of one snapshot at most (a pool's config, then its mints, then their dependencies...). */
const MAX_ROUNDS = 5;

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

  constructor(
    private readonly rpc: RpcClient,
    private readonly core: IngestCore,
    private readonly adapters: readonly DexAdapter[],
    commitment: 'confirmed' | 'processed' = 'confirmed',
  ) {
    this.commitment = commitment;
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
    const accounts: AccountUpdate[] = [];
    let slot = 0n;
    for (const a of this.adapters) {
      // Auxiliary accounts (configs) first so that pools find them when discovered.
      for (const f of [...a.auxFilters, ...a.poolFilters]) {
        const r = await this.rpc.getProgramAccounts(a.programId, toRpcFilters(f), this.commitment);
        if (r.slot > slot) slot = r.slot;
        for (const acc of r.value) accounts.push({ ...acc, slot: r.slot, writeVersion: 0n });
      }
    }
    this.core.applySnapshot(accounts, slot, this.commitment === 'confirmed');
    // Dependencies, then what they reveal (pools waiting for a config or their mints' decimals, and those pools'
    // own dependencies): a few rounds at most.
    let last = slot;
    this.missing.add(CLOCK_SYSVAR);
    if (all) for (const a of this.core.watchedAccounts()) this.missing.add(a);
    for (let round = 0; this.owed && round < MAX_ROUNDS; round++) {
      const r = await this.fetchRound(round === 0);
      if (r > last) last = r;
    }
    return last;
  }

  /**
   * One fetch round: the missing accounts by address and the token accounts of pools described by them, applied
   * as a snapshot at the lowest context slot read. Returns the highest context slot read. On failure what it was
   * to read stays owed.
   */
  async fetchRound(rereadCached = false): Promise<bigint> {
    // An account asked for twice (a pool woken mid-batch asks for one the same batch brings) is read once.
    const addrs = rereadCached ? [...this.missing] : [...this.missing].filter((a) => !this.core.cache.has(a));
    const owners = [...this.missingOwners];
    this.missing.clear();
    this.missingOwners.clear();
    const ups: AccountUpdate[] = [];
    let slot = 0n;
    try {
      if (addrs.length > 0) {
        const r = await this.rpc.getMultipleAccounts(addrs, this.commitment);
        r.value.forEach((a) => a && ups.push({ ...a, slot: r.slot, writeVersion: 0n }));
        slot = r.slot;
      }
      for (const owner of owners) {
        for (const program of [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID]) {
          const r = await this.rpc.getTokenAccountsByOwner(owner, program, this.commitment);
          for (const a of r.value) ups.push({ ...a, slot: r.slot, writeVersion: 0n });
          if (r.slot > slot) slot = r.slot;
        }
      }
    } catch (e) {
      for (const a of addrs) this.missing.add(a);
      for (const o of owners) this.missingOwners.add(o);
      throw e;
    }
    this.core.applySnapshot(ups, slot, this.commitment === 'confirmed');
    return slot;
  }
}
