/**
 * The assignment of pools to Subscribe streams (`planWatch` with overflow streams): each pool whole on one stream,
 * every stream within the budget, placements kept from plan to plan, the cap on streams, unread pools deferred.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import bs58 from 'bs58';
import type { DexAdapter, PoolDescriptor } from '../adapters/types.js';
import type { PoolEntry } from './pool-registry.js';
import { listedAddressBytes, planWatch, type WatchPlan, type WatchPlanInputs } from './watch-plan.js';

/** A base58 address made of `n` (32 bytes). */
const key = (n: number): string => bs58.encode(new Uint8Array(32).fill(n % 250).map((b, i) => (i === 0 ? Math.floor(n / 250) : b)));
const CLOCK = key(1);
const CONFIG = key(2);

let nextIndex = 0;
/** A PumpSwap-like pool: a shared config, its own mint and two vaults listed by address. */
function pool(n: number, extra: readonly string[] = []): PoolEntry {
  const base = 1000 + n * 4;
  const desc = { address: key(base), dependencies: [CONFIG, key(base + 1), key(base + 2), key(base + 3), ...extra] } as unknown as PoolDescriptor;
  return { desc, adapter: {} as DexAdapter, index: nextIndex++, latestSlot: 0n };
}

function inputs(o: Partial<WatchPlanInputs> & { budgetBytes: number }): WatchPlanInputs {
  return {
    always: [CLOCK],
    streamed: () => false,
    unwatched: new Set(),
    maxStreams: 4,
    unread: () => false,
    streamOf: (p) => p.stream,
    ...o,
  };
}

/** Applies a plan's placements as `WatchScope` does. */
function place(plan: WatchPlan): void {
  for (const [p, s] of plan.placed) p.stream = s;
}

/** The stream whose list holds `address`, for each stream that holds it. */
function streamsListing(plan: WatchPlan, address: string): number[] {
  return plan.streams.flatMap((st, i) => (st.addresses.includes(address) ? [i] : []));
}

const bytes = (addrs: readonly string[]): number => addrs.reduce((n, a) => n + listedAddressBytes(a), 0);

test('pools fill the primary, then overflow streams; each pool whole on one stream, every stream within the budget', () => {
  const pools = Array.from({ length: 20 }, (_, i) => pool(i));
  const fixed = bytes([CLOCK, CONFIG]);
  const perPrimary = bytes(pools[0]!.desc.dependencies.slice(1));
  // The primary holds 4 pools (3 addresses each); an overflow stream lists the pool account too (4 each): 3 pools.
  const budget = fixed + 4 * perPrimary + 20;
  const plan = planWatch(pools, inputs({ budgetBytes: budget }));
  place(plan);
  assert.deepEqual(plan.streams.map((s) => s.pools), [4, 3, 3, 3], 'the cap of 4 streams');
  assert.equal(plan.placed.length, 13);
  assert.deepEqual(plan.newlyUnwatched, pools.slice(13), 'read, and fit no stream: left out');
  for (const st of plan.streams) {
    assert.ok(st.listedBytes <= budget, `${st.listedBytes} <= ${budget}`);
    assert.equal(st.listedBytes, bytes(st.addresses));
    assert.ok(st.addresses.includes(CLOCK), 'the Clock on every stream');
    assert.ok(st.addresses.includes(CONFIG), 'a shared dependency on every stream that has its pools');
  }
  for (const p of pools.slice(0, 13)) {
    const s = p.stream!;
    const own = s === 0 ? p.desc.dependencies.slice(1) : [p.desc.address, ...p.desc.dependencies.slice(1)];
    for (const a of own) assert.deepEqual(streamsListing(plan, a), [s], `pool ${p.index}: ${a} on stream ${s} only`);
    if (s === 0) assert.deepEqual(streamsListing(plan, p.desc.address), [], 'on the primary the pool account comes through the program filter');
  }
  assert.deepEqual(pools.map((p) => p.stream ?? -1), [0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, -1, -1, -1, -1, -1, -1, -1]);
});

test('beyond the last stream pools are left out, counted once; with one stream nothing overflows', () => {
  const pools = Array.from({ length: 12 }, (_, i) => pool(i));
  const budget = bytes([CLOCK, CONFIG]) + 4 * bytes(pools[0]!.desc.dependencies.slice(1)) + 5;
  const two = planWatch(pools, inputs({ budgetBytes: budget, maxStreams: 2 }));
  assert.deepEqual(two.streams.map((s) => s.pools), [4, 3]);
  assert.deepEqual(two.newlyUnwatched, pools.slice(7));
  const fresh = Array.from({ length: 12 }, (_, i) => pool(i));
  const one = planWatch(fresh, inputs({ budgetBytes: budget, maxStreams: 1 }));
  assert.equal(one.streams.length, 1);
  assert.deepEqual(one.newlyUnwatched, fresh.slice(4));
  // Left out once: a plan given them as unwatched neither lists nor counts them again.
  const again = planWatch(fresh, inputs({ budgetBytes: budget, maxStreams: 1, unwatched: new Set(one.newlyUnwatched) }));
  assert.equal(again.newlyUnwatched.length, 0);
  assert.deepEqual(again.addresses, one.addresses);
});

test('a pool keeps its stream from plan to plan, whatever comes before it in discovery order', () => {
  // Pool 0 fills the primary (three more accounts of its own); overflow streams hold one pool each.
  const pools = [pool(0, [key(900), key(901), key(902)]), ...Array.from({ length: 6 }, (_, i) => pool(i + 1))];
  const budget = bytes([CLOCK, ...pools[0]!.desc.dependencies]) + 20;
  const first = planWatch(pools, inputs({ budgetBytes: budget, maxStreams: 8 }));
  place(first);
  assert.equal(first.newlyUnwatched.length, 0);
  assert.deepEqual(pools.map((p) => p.stream), [0, 1, 2, 3, 4, 5, 6]);
  const before = first.streams.map((s) => [...s.addresses]);
  // A pool met first this time (the order placement would follow if it were recomputed): it takes the stream with
  // room, nobody moves for it.
  const late = pool(7);
  const second = planWatch([late, ...pools], inputs({ budgetBytes: budget, maxStreams: 8 }));
  place(second);
  assert.deepEqual(second.placed.map(([p, s]) => [p.index, s]), [[late.index, 7]]);
  assert.deepEqual(pools.map((p) => p.stream), [0, 1, 2, 3, 4, 5, 6]);
  for (const [i, st] of before.entries()) assert.deepEqual(second.streams[i]!.addresses, st, `stream ${i} lists the same`);
});

test('a pool not read yet is placed where its accounts fit, listed; one that fits nowhere is deferred, not left out', () => {
  const pools = Array.from({ length: 4 }, (_, i) => pool(i));
  // Room for one pool on the primary and none on an overflow stream (4 addresses do not fit 3 addresses' room).
  const budget = bytes([CLOCK, CONFIG]) + bytes(pools[0]!.desc.dependencies.slice(1)) + 5;
  const plan = planWatch(pools, inputs({ budgetBytes: budget, unread: (p) => p !== pools[0] && p !== pools[2] }));
  assert.deepEqual(plan.placed.map(([p, s]) => [p.index, s]), [[pools[0]!.index, 0]]);
  assert.deepEqual(plan.newlyUnwatched, [pools[2]], 'read, and fits nowhere: left out');
  assert.equal(plan.streams.length, 1);
  // With room on an overflow stream, an unread pool goes there at once: its stream carries what is written after
  // its accounts are read.
  // Room for one pool's four addresses: one pool on the primary, one on each overflow stream.
  const roomy = bytes([CLOCK, CONFIG, pools[0]!.desc.address, ...pools[0]!.desc.dependencies.slice(1)]) + 20;
  const fresh = Array.from({ length: 3 }, (_, i) => pool(10 + i));
  const later = planWatch(fresh, inputs({ budgetBytes: roomy, unread: (p) => p !== fresh[0] }));
  assert.deepEqual(later.placed.map(([p, s]) => [p.index, s]), [[fresh[0]!.index, 0], [fresh[1]!.index, 1], [fresh[2]!.index, 2]]);
});

test('on the primary, vaults of an authority cost nothing; on an overflow stream every account of the pool is listed', () => {
  const vault = (p: PoolEntry): string => p.desc.dependencies[2]!;
  const pools = Array.from({ length: 6 }, (_, i) => pool(i));
  const streamed = new Set(pools.map(vault));
  // Room on the primary for two pools' other two addresses.
  const budget = bytes([CLOCK, CONFIG]) + 2 * bytes([pools[0]!.desc.dependencies[1]!, pools[0]!.desc.dependencies[3]!]) + 5;
  const plan = planWatch(pools, inputs({ budgetBytes: budget, streamed: (a) => streamed.has(a), maxStreams: 2 }));
  place(plan);
  assert.deepEqual(pools.map((p) => p.stream), [0, 0, 1, undefined, undefined, undefined]);
  assert.ok(!plan.addresses.includes(vault(pools[0]!)), 'primary: left to the authority filter');
  assert.ok(plan.streams[1]!.addresses.includes(vault(pools[2]!)), 'overflow: listed, the primary drops it');
  assert.equal(plan.streamedByAuthority, 2, 'only the primary pools count as streamed by authority');
  assert.equal(plan.newlyUnwatched.length, 3);
});
