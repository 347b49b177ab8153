import assert from 'node:assert/strict';
import { test } from 'node:test';
import bs58 from 'bs58';
import { encodeTokenAccount, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../adapters/common/spl-layouts.js';
import type { DexAdapter, PoolDescriptor } from '../adapters/types.js';
import { newExactSnapshot } from '../slab/pool-snapshot.js';
import { PoolSlab, VIEW_CONFIRMED, VIEW_LATEST } from '../slab/pool-slab.js';
import { AccountCache } from './account-cache.js';
import type { AccountUpdate } from './account-update.js';
import { CLOCK_SYSVAR } from './clock.js';
import type { PoolEntry } from './pool-registry.js';
import { RECORD_STATUS_UNWATCHED } from './record-fields.js';
import { listedAddressBytes } from './watch-plan.js';
import { WatchScope } from './watch-scope.js';

/** A base58 address made of `n`. */
const key = (n: number): string => bs58.encode(new Uint8Array(32).fill(n));
const AUTHORITY = key(9);
const withAuthority = { vaultAuthorities: () => [AUTHORITY] } as unknown as DexAdapter;

/** A token account held by `owner` (base58), under `program`, with `extension` appended as Token-2022's account type. */
function tokenAccount(address: string, owner: string, program = TOKEN_PROGRAM_ID, extension?: number): AccountUpdate {
  const base = encodeTokenAccount({ mint: new Uint8Array(32).fill(1), owner: bs58.decode(owner), amount: 5n, delegate: null, state: 1, isNative: null, delegatedAmount: 0n, closeAuthority: null });
  const data = extension === undefined ? base : new Uint8Array([...base, extension, 0, 0, 0]);
  return { address, owner: program, lamports: 1n, data, slot: 100n, writeVersion: 1n };
}

/** An account that is no token account (a pool's config). */
const plain = (address: string): AccountUpdate => ({ address, owner: key(8), lamports: 1n, data: new Uint8Array(200), slot: 100n, writeVersion: 1n });

test('an account streams by authority once its data shows a token account of the authority; remembered until the chain is replaced', () => {
  const cache = new AccountCache();
  const scope = new WatchScope([withAuthority], cache, PoolSlab.create(4, 4), () => 0);
  assert.equal(scope.hasAuthorityFilters, true);
  const [vault, other, t22, t22Mint, config] = [key(20), key(21), key(22), key(23), key(24)];
  assert.equal(scope.streamedByAuthority(vault), false, 'not read yet: listed');
  cache.apply(tokenAccount(vault, AUTHORITY));
  cache.apply(tokenAccount(other, key(10)));
  cache.apply(tokenAccount(t22, AUTHORITY, TOKEN_2022_PROGRAM_ID, 2));
  cache.apply(tokenAccount(t22Mint, AUTHORITY, TOKEN_2022_PROGRAM_ID, 1));
  cache.apply(plain(config));
  assert.equal(scope.streamedByAuthority(vault), true);
  assert.equal(scope.streamedByAuthority(other), false, 'another owner');
  assert.equal(scope.streamedByAuthority(t22), true, 'Token-2022 account type 2: a token account');
  assert.equal(scope.streamedByAuthority(t22Mint), false, 'Token-2022 account type 1: not a token account');
  assert.equal(scope.streamedByAuthority(config), false, 'not a token program account');
  cache.clear();
  assert.equal(scope.streamedByAuthority(vault), true, 'known from data read before');
  scope.forgetChain();
  assert.equal(scope.streamedByAuthority(vault), false, 'forgotten with the chain');
});

test('without vault authorities nothing streams by authority', () => {
  const cache = new AccountCache();
  const scope = new WatchScope([{} as DexAdapter], cache, PoolSlab.create(4, 4), () => 0);
  cache.apply(tokenAccount(key(20), AUTHORITY));
  assert.equal(scope.hasAuthorityFilters, false);
  assert.equal(scope.streamedByAuthority(key(20)), false);
});

test('a plan leaves out the pools over the budget, writes them unwatched in both views once, and defers unread ones', () => {
  const cache = new AccountCache();
  const slab = PoolSlab.create(4, 4);
  let now = 5_000;
  const scope = new WatchScope([withAuthority], cache, slab, () => now);
  const pool = (n: number, dependencies: string[]): PoolEntry => {
    const index = slab.addPool(bs58.decode(key(n)), 0, 0, 1);
    return { desc: { address: key(n), dependencies } as unknown as PoolDescriptor, adapter: withAuthority, index, latestSlot: 100n + BigInt(n) };
  };
  const [vault, c0, c1, c2] = [key(30), key(31), key(32), key(33)];
  cache.apply(tokenAccount(vault, AUTHORITY));
  cache.apply(plain(c0));
  cache.apply(plain(c1));
  const pools = [pool(0, [vault, c0]), pool(1, [c1]), pool(2, [c2])];
  const budget = listedAddressBytes(CLOCK_SYSVAR) + listedAddressBytes(c0) + 10;
  const plan = scope.apply(pools, budget);
  assert.deepEqual(plan.addresses, [CLOCK_SYSVAR, c0], 'the vault streams by authority; pool 1 does not fit');
  assert.deepEqual(plan.newlyUnwatched, [pools[1]], 'pool 2 does not fit either but is not read yet: deferred');
  assert.equal(scope.unwatchedCount, 1);
  assert.deepEqual(pools.map((p) => scope.isUnwatched(p)), [false, true, false]);
  assert.deepEqual([0, 1, 2].map((i) => scope.isUnwatchedIndex(i)), [false, true, false]);
  const snap = newExactSnapshot();
  for (const view of [VIEW_LATEST, VIEW_CONFIRMED]) {
    assert.ok(slab.readExact(1, view, snap));
    assert.equal(snap.status, RECORD_STATUS_UNWATCHED);
    assert.equal(snap.slot, 101n, 'at the pool latest slot');
    assert.equal(snap.updatedAtMs, 5_000);
    assert.equal(snap.confirmed, true);
  }
  now = 6_000;
  const again = scope.apply(pools, budget);
  assert.deepEqual(again.newlyUnwatched, []);
  assert.deepEqual(again.addresses, plan.addresses);
  assert.ok(slab.readExact(1, VIEW_LATEST, snap));
  assert.equal(snap.updatedAtMs, 5_000, 'not written again');
  scope.forgetChain();
  assert.equal(scope.unwatchedCount, 1, 'unwatched pools stay unwatched over a chain reset');
});
