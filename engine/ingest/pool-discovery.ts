/**
 * Discovery of pools: an account of an adapter's program that `isPool` accepts is described (`decodePool`), given a
 * slab index and registered. A pool whose adapter needs accounts the cache lacks (descriptor inputs, mint accounts
 * whose decimals neither the pool nor the mint table knows, token accounts the pool owns) waits for them: they are
 * requested once and the pool is described again when the last one arrives.
 */
import bs58 from 'bs58';
import type { DexAdapter } from '../adapters/types.js';
import { dexIndex } from '../dex-ids.js';
import type { MintTable } from '../slab/mint-table.js';
import type { PoolSlab } from '../slab/pool-slab.js';
import type { AccountCache } from './account-cache.js';
import type { AccountUpdate } from './account-update.js';
import { mintDecimalsOf } from './mint-decimals.js';
import type { PoolEntry, PoolRegistry } from './pool-registry.js';
import { isTokenProgram, ownerKeyOf, tokenOwnerKey } from './token-owner.js';

/** Wiring of {@link PoolDiscovery}. */
export interface PoolDiscoveryOptions {
  readonly cache: AccountCache;
  readonly registry: PoolRegistry;
  readonly slab: PoolSlab;
  readonly mints: MintTable;
  readonly adapters: readonly DexAdapter[];
  /** Counted up once per pool registered. */
  readonly counters: { poolsDiscovered: number };
  /** Called with accounts waiting pools or new pools need that the cache has not seen (fetch and watch them). */
  readonly onMissingAccounts?: (addresses: readonly string[]) => void;
  /** Called with pools whose mints are known only from the token accounts they own (fetch those accounts). */
  readonly onMissingOwnedTokenAccounts?: (owners: readonly string[]) => void;
}

/** Pools found in account data, and those waiting for accounts before they can be described. */
export class PoolDiscovery {
  private readonly byProgram = new Map<string, DexAdapter>();
  /** Pools seen but not describable yet, by address: the accounts each still waits for (descriptor inputs, mint
   * accounts whose decimals the pool does not carry). */
  private readonly pending = new Map<string, { readonly adapter: DexAdapter; readonly waitingFor: Set<string> }>();
  /** Account -> pending pools waiting for it. An `owned:<pool>` key waits for a token account the pool owns. */
  private readonly waiters = new Map<string, Set<string>>();
  /** Token accounts seen per owning pool, for pools described by the token accounts they own. */
  private readonly ownedTokenAccounts = new Map<string, Set<string>>();
  /** Pools waiting for a token account they own, keyed by the pool's owner key (`ownerKeyOf`: cheap to make from a
   * token account's owner field); checked against token-account updates only while non-empty. */
  private readonly awaitingOwned = new Map<string, string>();

  constructor(private readonly opts: PoolDiscoveryOptions) {
    for (const a of opts.adapters) this.byProgram.set(a.programId, a);
  }

  /** Pools waiting for accounts before they can be described. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** True when a pending pool or an owned-account wait may need the account at `address`. */
  waitsFor(address: string): boolean {
    return this.waiters.has(address) || this.awaitingOwned.size > 0;
  }

  /** The pool `u` (just cached, not a registered pool) reveals, once described and registered; else undefined. */
  poolIn(u: AccountUpdate): PoolEntry | undefined {
    const adapter = this.byProgram.get(u.owner);
    return adapter && adapter.isPool(u.data) ? this.discover(adapter, u.address) : undefined;
  }

  /** `u` was cached: wakes the pending pools it completes and adds to `dirty` those now registered. */
  arrived(u: AccountUpdate, dirty: Set<PoolEntry>): void {
    if (this.awaitingOwned.size > 0 && isTokenProgram(u.owner) && u.data.length >= 165) {
      const owner = this.awaitingOwned.get(tokenOwnerKey(u.data));
      if (owner !== undefined) {
        const set = this.ownedTokenAccounts.get(owner) ?? new Set<string>();
        set.add(u.address);
        this.ownedTokenAccounts.set(owner, set);
        this.awaitingOwned.delete(ownerKeyOf(owner));
        this.wake(`owned:${owner}`, dirty);
      }
    }
    this.wake(u.address, dirty);
  }

  /** Forgets every pending pool and owned token account (the chain was replaced). */
  clear(): void {
    this.pending.clear();
    this.waiters.clear();
    this.ownedTokenAccounts.clear();
    this.awaitingOwned.clear();
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
    const { cache, mints } = this.opts;
    const data = cache.data(address)!;
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
    const absent = inputs.filter((a) => !cache.has(a));
    if (absent.length > 0) return this.wait(adapter, address, absent);
    const decimalsOf = (m: string): number | undefined => {
      const id = mints.idOf(m);
      if (id !== undefined) return mints.decimals(id);
      const acc = cache.get(m);
      return acc ? mintDecimalsOf(acc.owner, acc.data) : undefined;
    };
    const inputMap = new Map(inputs.map((a) => {
      const acc = cache.get(a)!;
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
      const readable = unknown.filter((m) => !cache.has(m));
      return readable.length === unknown.length ? this.wait(adapter, address, unknown) : undefined;
    }
    const mintA = mints.add(desc.mintA, desc.decimalsA);
    const mintB = mints.add(desc.mintB, desc.decimalsB);
    const index = this.opts.slab.addPool(bs58.decode(desc.address), dexIndex(desc.dex), mintA, mintB);
    const swapSet = adapter.swapWrites?.(desc);
    const entry: PoolEntry = swapSet && swapSet.length > 1 ? { desc, adapter, index, latestSlot: 0n, swapSet } : { desc, adapter, index, latestSlot: 0n };
    this.opts.registry.add(entry);
    this.opts.counters.poolsDiscovered++;
    const missing = desc.dependencies.filter((d) => !cache.has(d));
    if (missing.length > 0) this.opts.onMissingAccounts?.(missing);
    return entry;
  }

  /** Parks a pool until a token account it owns arrives (without asking again). */
  private awaitOwned(adapter: DexAdapter, address: string): void {
    this.awaitingOwned.set(ownerKeyOf(address), address);
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
}
