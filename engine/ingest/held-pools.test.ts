import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DexAdapter, PoolDescriptor } from '../adapters/types.js';
import type { AccountUpdate } from './account-update.js';
import { HeldPools } from './held-pools.js';
import type { PoolEntry } from './pool-registry.js';

/** A pool whose swap writes its state account and two vaults (`withSwapSet` false: a pool without a swap set). */
function pool(index: number, withSwapSet = true): PoolEntry {
  const desc = { address: `p${index}`, dependencies: [`a${index}`, `b${index}`] } as unknown as PoolDescriptor;
  const entry: PoolEntry = { desc, adapter: {} as DexAdapter, index, latestSlot: 0n };
  return withSwapSet ? { ...entry, swapSet: [`p${index}`, `a${index}`, `b${index}`] } : entry;
}

const sig = (n: number): Uint8Array => new Uint8Array(64).fill(n);

const up = (address: string, slot: bigint, txnSignature?: Uint8Array): AccountUpdate => ({
  address,
  owner: 'o',
  lamports: 0n,
  data: new Uint8Array(),
  slot,
  writeVersion: 1n,
  txnSignature,
});

/** One read of a transaction: its writes, and the pools they made dirty. */
function read(held: HeldPools, pools: readonly PoolEntry[], addresses: readonly string[], slot: bigint, signature: Uint8Array | undefined, over = false): Set<PoolEntry> {
  const dirty = new Set(pools);
  held.holdIncomplete(
    addresses.map((a) => up(a, slot, signature)),
    dirty,
    slot,
    over,
  );
  return dirty;
}

test('a pool is held while its transaction has brought part of its swap set, and written once the rest is in', () => {
  const held = new HeldPools(() => 0);
  const p = pool(0);
  const t1 = sig(1);
  assert.equal(read(held, [p], ['a0'], 101n, t1).size, 0, 'one vault of three: held, not written');
  assert.equal(read(held, [p], ['b0'], 101n, t1).size, 0, 'two of three, counting the first read');
  assert.ok(held.has(p));
  assert.deepEqual([...read(held, [p], ['p0'], 101n, t1)], [p], 'the last one: written');
  assert.equal(held.size, 0);
});

test('a pool is held across two transactions of one slot (each counted alone) and released on the next signature', () => {
  const held = new HeldPools(() => 0);
  const p = pool(0);
  const [t1, t2, t3] = [sig(1), sig(2), sig(3)];
  read(held, [p], ['a0', 'b0'], 101n, t1);
  assert.ok(held.has(p));
  // The second transaction writes the pool account only: with the first one's vaults that would make the whole set,
  // but those were another state. Held again, for the second transaction.
  assert.equal(read(held, [p], ['p0'], 101n, t2).size, 0);
  assert.ok(held.has(p));
  assert.equal(held.endedBy(up('a0', 101n, t2)), false, 'a later write of the same transaction: not over');
  assert.equal(held.endedBy(up('x', 101n, t3)), true, 'a write of the next signature: over');
  assert.equal(held.endedBy(up('x', 102n, t2)), true, 'the same signature in another slot is another transaction');
  const dirty = new Set<PoolEntry>();
  assert.equal(held.release(dirty), 101n, 'written at the slot it was held at');
  assert.deepEqual([...dirty], [p]);
  assert.equal(held.size, 0);
  assert.equal(held.endedBy(up('x', 101n, t3)), false, 'nothing held, nothing ends');
});

test('a status of the held slot or a later one ends the hold; an earlier slot does not', () => {
  const held = new HeldPools(() => 0);
  read(held, [pool(0)], ['a0'], 101n, sig(1));
  assert.equal(held.endedBySlot(100n), false);
  assert.equal(held.endedBySlot(101n), true);
  assert.equal(held.endedBySlot(102n), true);
});

test('a transaction known to be over holds nothing and lifts the holds of the pools it wrote', () => {
  const held = new HeldPools(() => 0);
  const [p0, p1] = [pool(0), pool(1)];
  read(held, [p0, p1], ['a0', 'a1'], 101n, sig(1));
  assert.equal(held.size, 2);
  const dirty = read(held, [p0], ['a0'], 101n, sig(1), true);
  assert.deepEqual([...dirty], [p0], 'written as it stands');
  assert.equal(held.has(p0), false);
  assert.ok(held.has(p1), 'a pool the batch did not write stays held');
});

test('unsigned writes, pools without a swap set and pools written for other reasons are never held', () => {
  const held = new HeldPools(() => 0);
  const [p0, p1, p2] = [pool(0), pool(1, false), pool(2)];
  assert.equal(read(held, [p0], ['a0'], 101n, undefined).size, 1, 'a startup replay is no transaction');
  assert.equal(read(held, [p1], ['a1'], 101n, sig(1)).size, 1, 'no swap set');
  assert.equal(read(held, [p2], ['clock'], 101n, sig(1)).size, 1, 'rebuilt for a Clock update: none of its set written');
  assert.equal(held.size, 0);
});

test('release with a wait frees only the pools held at least that long, and reports the newest slot released', () => {
  let now = 1_000;
  const held = new HeldPools(() => now);
  const [p0, p1] = [pool(0), pool(1)];
  read(held, [p0], ['a0'], 101n, sig(1));
  now = 1_060;
  read(held, [p1], ['a1'], 102n, sig(2));
  now = 1_099;
  // The first transaction's next read does not restart its wait.
  read(held, [p0], ['b0'], 101n, sig(1));
  const dirty = new Set<PoolEntry>();
  assert.equal(held.release(dirty, 100), 0n, 'none held 100 ms yet');
  assert.equal(dirty.size, 0);
  now = 1_100;
  assert.equal(held.release(dirty, 100), 101n);
  assert.deepEqual([...dirty], [p0]);
  assert.ok(held.has(p1));
  now = 1_160;
  assert.equal(held.release(dirty, 100), 102n);
  assert.equal(held.size, 0);
});

test('delete and clear drop holds without releasing them', () => {
  const held = new HeldPools(() => 0);
  const [p0, p1] = [pool(0), pool(1)];
  read(held, [p0, p1], ['a0', 'a1'], 101n, sig(1));
  held.delete(p0);
  assert.equal(held.has(p0), false);
  held.clear();
  const dirty = new Set<PoolEntry>();
  assert.equal(held.release(dirty), 0n);
  assert.equal(dirty.size, 0);
});
