/**
 * The core with overflow streams: each stream groups and holds only its own pools' writes, in its own order; an
 * account of a pool reaching ingest on another stream is dropped; an account listed on several streams (a shared
 * config, the Clock) reaches each stream's pools on that stream.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeTokenAccount, encodeTokenAccount } from '../adapters/common/spl-layouts.js';
import { raydiumCpmmAdapter } from '../adapters/raydium-cpmm/adapter.js';
import type { DexAdapter } from '../adapters/types.js';
import { floodUniverse } from '../../fixtures/synthetic/cpmm-universe.js';
import { MintTable } from '../slab/mint-table.js';
import { newExactSnapshot } from '../slab/pool-snapshot.js';
import { PoolSlab, VIEW_LATEST } from '../slab/pool-slab.js';
import type { AccountUpdate } from './account-update.js';
import { CLOCK_SYSVAR } from './clock.js';
import { IngestCore, type IngestChange } from './ingest-core.js';
import { listedAddressBytes } from './watch-plan.js';

/** CPMM with every vault listed by address (as PumpSwap's are): pools then overflow the primary's budget. */
const cpmmByAddress: DexAdapter = { ...raydiumCpmmAdapter, vaultAuthorities: undefined };

/** Five pools: three on the primary, two on stream 1. */
function setup() {
  const slab = PoolSlab.create(16, 64);
  const changes: IngestChange[] = [];
  const core = new IngestCore({ slab, mints: MintTable.create(16, 64), adapters: [cpmmByAddress], onChange: (c) => changes.push(c) });
  const u = floodUniverse(5);
  core.applySnapshot(u.accounts, 100n);
  const config = u.accounts[0]!.address;
  const vaultBytes = listedAddressBytes(u.vaults[0]!) + listedAddressBytes(u.vaults[1]!);
  const plan = core.watchPlan(listedAddressBytes(CLOCK_SYSVAR) + listedAddressBytes(config) + 3 * vaultBytes + 20, 2);
  changes.length = 0;
  return { slab, core, u, plan, config, changes };
}

const sig = (n: number): Uint8Array => new Uint8Array(64).fill(n);

function vaultWrite(u: ReturnType<typeof floodUniverse>, vault: number, amount: bigint, slot: bigint, writeVersion: bigint, signature?: Uint8Array): AccountUpdate {
  const old = u.accounts.find((a) => a.address === u.vaults[vault])!;
  return { ...old, data: encodeTokenAccount({ ...decodeTokenAccount(old.data), amount }), slot, writeVersion, txnSignature: signature };
}

function poolWrite(u: ReturnType<typeof floodUniverse>, pool: number, slot: bigint, writeVersion: bigint, signature?: Uint8Array): AccountUpdate {
  return { ...u.accounts[1 + pool * 3]!, slot, writeVersion, txnSignature: signature };
}

test('pools over the primary budget go to stream 1, whole: their pool account and vaults listed there', () => {
  const { core, u, plan, config } = setup();
  assert.equal(plan.streams.length, 2);
  assert.equal(core.streams, 2);
  assert.equal(core.unwatchedPools, 0);
  const streamOf = [0, 1, 2, 3, 4].map((p) => core.registry.get(u.accounts[1 + p * 3]!.address)!.stream);
  assert.deepEqual(streamOf, [0, 0, 0, 1, 1]);
  const [primary, overflow] = plan.streams;
  for (const p of [3, 4]) {
    for (const a of [u.accounts[1 + p * 3]!.address, u.vaults[2 * p]!, u.vaults[2 * p + 1]!]) {
      assert.ok(overflow!.addresses.includes(a) && !primary!.addresses.includes(a), `${a} on stream 1 only`);
    }
  }
  assert.ok(overflow!.addresses.includes(config) && primary!.addresses.includes(config), 'the shared config on both');
});

test("one stream's writes never end, release or write another stream's transaction", () => {
  const { slab, core, u } = setup();
  const snap = newExactSnapshot();
  const reserves = (pool: number): bigint[] => {
    slab.readExact(pool, VIEW_LATEST, snap);
    return [snap.reserveA, snap.reserveB];
  };
  const before3 = reserves(3);
  // Stream 1: a swap on pool 3 brings its first vault; the turn ends: held.
  core.pushAccount(vaultWrite(u, 6, 900n, 101n, 1n, sig(1)), 1);
  core.endTurn();
  assert.deepEqual(reserves(3), before3, 'held: part of its swap set');
  assert.equal(core.heldCount, 1);
  // Stream 0 meanwhile: another transaction on pool 0, then the slot's status on stream 0.
  core.pushAccount(vaultWrite(u, 0, 500n, 101n, 2n, sig(2)), 0);
  core.pushAccount(vaultWrite(u, 1, 400n, 101n, 3n, sig(2)), 0);
  core.pushAccount(poolWrite(u, 0, 101n, 4n, sig(2)), 0);
  core.pushAccount(vaultWrite(u, 0, 450n, 101n, 5n, sig(3)), 0);
  core.endTurn();
  core.slotStatus(101n, 'processed', 0);
  assert.deepEqual(reserves(0), [450n, 400n], 'stream 0 applied its transactions');
  assert.deepEqual(reserves(3), before3, "stream 0's transactions and statuses do not end stream 1's");
  assert.equal(core.heldCount, 1);
  // The rest of the swap on stream 1: pool 3 is written whole.
  core.pushAccount(vaultWrite(u, 7, 800n, 101n, 6n, sig(1)), 1);
  core.pushAccount(poolWrite(u, 3, 101n, 7n, sig(1)), 1);
  core.endTurn();
  assert.deepEqual(reserves(3), [900n, 800n]);
  assert.equal(core.heldCount, 0);
  // A status of the slot on stream 1 releases stream 1's held pools.
  core.pushAccount(vaultWrite(u, 8, 300n, 102n, 8n, sig(4)), 1);
  core.endTurn();
  core.slotStatus(102n, 'processed', 0);
  assert.equal(core.heldCount, 1, 'the primary status leaves it held');
  core.slotStatus(102n, 'processed', 1);
  assert.equal(core.heldCount, 0);
  slab.readExact(4, VIEW_LATEST, snap);
  assert.equal(snap.reserveA, 300n);
  assert.equal(core.streamProcessedSlot(0), 102n);
  assert.equal(core.streamProcessedSlot(1), 102n);
});

test("a pool's account arriving on a stream that does not carry it is dropped before grouping", () => {
  const { slab, core, u } = setup();
  const snap = newExactSnapshot();
  // Stream 1 opens a transaction on pool 3.
  core.pushAccount(vaultWrite(u, 6, 900n, 101n, 1n, sig(1)), 1);
  // Pool 3's account and vaults through the primary (its program filter): dropped, nothing ended or applied.
  const ignored = core.counters.ignored;
  core.pushAccount(poolWrite(u, 3, 101n, 2n, sig(9)), 0);
  core.pushAccount(vaultWrite(u, 7, 1n, 101n, 3n, sig(9)), 0);
  assert.equal(core.counters.ignored, ignored + 2);
  assert.equal(core.cache.get(u.vaults[7]!)!.writeVersion, 0n, 'not cached');
  // Pool 0's vault on stream 1: dropped too.
  core.pushAccount(vaultWrite(u, 0, 1n, 101n, 4n, sig(8)), 1);
  assert.equal(core.counters.ignored, ignored + 3);
  core.pushAccount(vaultWrite(u, 7, 800n, 101n, 5n, sig(1)), 1);
  core.pushAccount(poolWrite(u, 3, 101n, 6n, sig(1)), 1);
  core.endTurn();
  slab.readExact(3, VIEW_LATEST, snap);
  assert.deepEqual([snap.reserveA, snap.reserveB], [900n, 800n]);
  slab.readExact(0, VIEW_LATEST, snap);
  assert.equal(snap.reserveA, 1_000_000_000_000n);
});

test('an account listed on two streams reaches each stream\'s pools on that stream, and is cached once', () => {
  const { core, u, config, changes } = setup();
  const written = (): number[][] => changes.filter((c) => !c.confirmed).map((c) => [...c.pools].sort());
  const cfg = { ...u.accounts[0]!, slot: 101n, writeVersion: 1n };
  core.pushAccount(cfg, 0);
  core.endTurn();
  assert.deepEqual(written(), [[0, 1, 2]], "stream 0's pools rebuilt");
  core.pushAccount(cfg, 1);
  core.endTurn();
  assert.deepEqual(written(), [[0, 1, 2], [3, 4]], "stream 1's pools rebuilt when stream 1 delivers it");
  assert.equal(core.counters.shared, 1);
  assert.equal(core.cache.get(config)!.writeVersion, 1n);
});
