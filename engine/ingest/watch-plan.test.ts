import assert from 'node:assert/strict';
import { test } from 'node:test';
import bs58 from 'bs58';
import { decodeTokenAccount, encodeTokenAccount, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../adapters/common/spl-layouts.js';
import { raydiumCpmmAdapter } from '../adapters/raydium-cpmm/adapter.js';
import { poolAuthority } from '../adapters/raydium-cpmm/layout.js';
import { ADAPTERS } from '../adapters/registry.js';
import type { DexAdapter } from '../adapters/types.js';
import { floodUniverse } from '../../fixtures/synthetic/cpmm-universe.js';
import { MintTable } from '../slab/mint-table.js';
import { newExactSnapshot } from '../slab/pool-snapshot.js';
import { PoolSlab, VIEW_CONFIRMED, VIEW_LATEST } from '../slab/pool-slab.js';
import type { AccountUpdate } from './account-update.js';
import { CLOCK_SYSVAR } from './clock.js';
import { IngestCore, RECORD_STATUS_UNWATCHED } from './ingest-core.js';
import { buildSubscribeRequest, subscribeRequestBytes, WATCHED_FILTER } from './subscription.js';
import { listedAddressBytes, SUBSCRIBE_ADDRESS_BUDGET_BYTES } from './watch-plan.js';

/** The CPMM adapter as it was before vault authorities: every vault listed by address. */
const cpmmByAddress: DexAdapter = { ...raydiumCpmmAdapter, vaultAuthorities: undefined };

function core(pools: number, adapter: DexAdapter = raydiumCpmmAdapter) {
  const slab = PoolSlab.create(16, Math.max(64, pools));
  const mints = MintTable.create(16, Math.max(64, pools + 1));
  const c = new IngestCore({ slab, mints, adapters: [adapter], onChange: () => undefined });
  const u = floodUniverse(pools);
  c.applySnapshot(u.accounts, 100n);
  return { core: c, slab, u };
}

function vaultWrite(u: ReturnType<typeof floodUniverse>, vault: number, amount: bigint, slot: bigint, writeVersion: bigint): AccountUpdate {
  const old = u.accounts.find((a) => a.address === u.vaults[vault])!;
  return { ...old, data: encodeTokenAccount({ ...decodeTokenAccount(old.data), amount }), slot, writeVersion };
}

test('the request streams each vault authority through one token-account filter: both token programs, owner field at 32, no size filter', () => {
  const req = buildSubscribeRequest(ADAPTERS, []);
  const cpmm = req.accounts['raydium-cpmm:vaults:0'];
  assert.deepEqual(cpmm, { account: [], owner: [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID], filters: [{ memcmp: { offset: '32', base58: poolAuthority() } }] });
  const amm = Object.keys(req.accounts).filter((k) => k.startsWith('raydium-amm-v4:vaults:'));
  assert.ok(amm.length >= 1, 'AMM v4 authority filter');
  assert.ok(amm.map((k) => req.accounts[k]!.filters[0]!.memcmp!.base58).includes('5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1'), 'the mainnet AMM v4 authority (nonce 254)');
  // Only the DEXes whose vaults share an authority: PumpSwap's belong to each pool's own PDA.
  assert.deepEqual(Object.keys(req.accounts).filter((k) => k.includes(':vaults:')).map((k) => k.split(':')[0]).sort(), ['raydium-amm-v4', 'raydium-cpmm', ...(amm.length > 1 ? ['raydium-amm-v4'] : [])].sort());
  assert.equal(req.accounts[WATCHED_FILTER], undefined, 'no address list when nothing is listed');
});

test('vaults of an authority are left out of the address list; configs and the Clock stay; the request shrinks by their bytes', () => {
  const { core: c, u } = core(200);
  const plan = c.watchPlan();
  const listed = new Set(plan.addresses);
  for (const v of u.vaults) assert.ok(!listed.has(v), `vault ${v} listed`);
  assert.deepEqual([...listed].sort(), [CLOCK_SYSVAR, u.accounts[0]!.address].sort(), 'the Clock and the one AmmConfig');
  assert.equal(plan.streamedByAuthority, 400);
  assert.equal(plan.streamedBytes, u.vaults.reduce((n, v) => n + listedAddressBytes(v), 0));
  assert.equal(plan.newlyUnwatched.length, 0);
  const small = subscribeRequestBytes(buildSubscribeRequest([raydiumCpmmAdapter], plan.addresses));
  const all = subscribeRequestBytes(buildSubscribeRequest([raydiumCpmmAdapter], [...plan.addresses, ...u.vaults]));
  assert.ok(small < 1024, `${small} bytes`);
  // listedAddressBytes is exact for an address list of this size (the filter's own length prefix aside).
  assert.ok(Math.abs(all - small - plan.streamedBytes) <= 8, `${all} - ${small} vs ${plan.streamedBytes}`);
  // Resyncs still re-read every dependency, vaults included.
  const resync = new Set(c.watchedAccounts());
  for (const v of u.vaults) assert.ok(resync.has(v));
});

test('at 46,000 CPMM pools the old request is over 4 MiB; the new one lists two accounts', () => {
  const { core: c, u } = core(46_000);
  const plan = c.watchPlan();
  const before = subscribeRequestBytes(buildSubscribeRequest([raydiumCpmmAdapter], [...plan.addresses, ...u.vaults]));
  const after = subscribeRequestBytes(buildSubscribeRequest([raydiumCpmmAdapter], plan.addresses));
  assert.ok(before > 4 * 1024 * 1024, `before ${before}`);
  assert.equal(plan.addresses.length, 2);
  assert.ok(after < 1024, `after ${after}`);
  assert.equal(c.unwatchedPools, 0);
});

test('a vault whose owner field is not an authority, or that was not read yet, stays listed by address', () => {
  const { core: c, u } = core(3);
  // Pool 1's token0 vault re-owned by someone else (a pool made with a foreign vault).
  const old = u.accounts.find((a) => a.address === u.vaults[2])!;
  const foreign = bs58.decode('11111111111111111111111111111112');
  c.applySnapshot([{ ...old, data: encodeTokenAccount({ ...decodeTokenAccount(old.data), owner: foreign }), slot: 101n, writeVersion: 1n }], 101n);
  const fresh = new IngestCore({ slab: PoolSlab.create(16, 64), mints: MintTable.create(16, 64), adapters: [raydiumCpmmAdapter], onChange: () => undefined });
  // Pools only: no vault read yet.
  fresh.applySnapshot(u.accounts.filter((a) => !u.vaults.includes(a.address)), 100n);
  const notRead = new Set(fresh.watchPlan().addresses);
  for (const v of u.vaults) assert.ok(notRead.has(v), 'a vault not read yet is listed');
  // Vaults read once are learnt: a foreign owner keeps exactly that vault listed.
  assert.deepEqual(c.watchPlan().addresses.filter((a) => u.vaults.includes(a)), [u.vaults[2]]);
});

test('a token account of an authority that no pool depends on is dropped before grouping', () => {
  const { core: c, slab, u } = core(2);
  const other = floodUniverse(3);
  // Pool 2 of another universe: a vault of the same authority, of a pool ingest does not know.
  const stranger = { ...other.accounts.find((a) => a.address === other.vaults[4])!, slot: 101n, writeVersion: 9n, txnSignature: new Uint8Array(64).fill(2) };
  const sig = new Uint8Array(64).fill(1);
  c.pushAccount({ ...vaultWrite(u, 0, 900n, 101n, 5n), txnSignature: sig });
  c.pushAccount(stranger);
  assert.equal(c.counters.ignored, 1);
  assert.equal(c.cache.has(stranger.address), false, 'not cached');
  const snap = newExactSnapshot();
  slab.readExact(0, VIEW_LATEST, snap);
  assert.equal(snap.reserveA, 1_000_000_000_000n, 'the stranger did not end the open transaction');
  c.endTurn();
  c.releaseHeld();
  slab.readExact(0, VIEW_LATEST, snap);
  assert.equal(snap.reserveA, 900n);
});

test('pools whose addresses do not fit the budget are written as not tradable and stay so', () => {
  const { core: c, slab, u } = core(10, cpmmByAddress);
  const perPool = listedAddressBytes(u.vaults[0]!) + listedAddressBytes(u.vaults[1]!);
  const fixed = listedAddressBytes(CLOCK_SYSVAR) + listedAddressBytes(u.accounts[0]!.address);
  // Room for the Clock, the config and four pools' vaults.
  const budget = fixed + 4 * perPool + 10;
  const plan = c.watchPlan(budget);
  assert.ok(plan.listedBytes <= budget);
  assert.equal(plan.newlyUnwatched.length, 6);
  assert.equal(c.unwatchedPools, 6);
  const listed = new Set(plan.addresses);
  for (let p = 0; p < 10; p++) {
    const inList = listed.has(u.vaults[2 * p]!) && listed.has(u.vaults[2 * p + 1]!);
    assert.equal(inList, p < 4, `pool ${p} listed whole or not at all`);
  }
  const snap = newExactSnapshot();
  for (const view of [VIEW_LATEST, VIEW_CONFIRMED]) {
    slab.readExact(9, view, snap);
    assert.equal(snap.status, RECORD_STATUS_UNWATCHED);
    slab.readExact(0, view, snap);
    assert.equal(snap.status, 0);
  }
  // A write that still reaches an unwatched pool (a resync read, its pool account) leaves it not tradable.
  c.applySnapshot([vaultWrite(u, 18, 5n, 102n, 1n)], 102n);
  slab.readExact(9, VIEW_LATEST, snap);
  assert.equal(snap.status, RECORD_STATUS_UNWATCHED);
  // Planned again: the same pools out, nothing new, same list.
  const again = c.watchPlan(budget);
  assert.equal(again.newlyUnwatched.length, 0);
  assert.deepEqual(again.addresses, plan.addresses);
  assert.ok(SUBSCRIBE_ADDRESS_BUDGET_BYTES < 4 * 1024 * 1024);
});

test('a pool whose accounts are not read yet is not left out for the budget: the next plan, with its vaults read, decides', () => {
  const u = floodUniverse(3);
  const c = new IngestCore({ slab: PoolSlab.create(16, 64), mints: MintTable.create(16, 64), adapters: [raydiumCpmmAdapter], onChange: () => undefined });
  // Pools 0 and 1 whole; pool 2 without its vaults (discovered, vaults being read).
  c.applySnapshot(u.accounts.filter((a) => a.address !== u.vaults[4] && a.address !== u.vaults[5]), 100n);
  const fixed = listedAddressBytes(CLOCK_SYSVAR) + listedAddressBytes(u.accounts[0]!.address);
  const first = c.watchPlan(fixed + 10);
  assert.equal(first.newlyUnwatched.length, 0, 'deferred, not left out');
  assert.ok(!first.addresses.includes(u.vaults[4]!));
  c.applySnapshot(u.accounts.filter((a) => a.address === u.vaults[4] || a.address === u.vaults[5]), 101n);
  const second = c.watchPlan(fixed + 10);
  assert.equal(second.newlyUnwatched.length, 0);
  assert.equal(second.streamedByAuthority, 6, 'its vaults stream through the authority filter');
  assert.equal(c.unwatchedPools, 0);
});

test('a Token-2022 vault with extensions (longer than 165 bytes) streams through the filter; a Token-2022 mint does not pass for one', () => {
  const { core: c, u } = core(2);
  const withExtensions = (data: Uint8Array, accountType: number): Uint8Array => {
    const out = new Uint8Array(data.length + 1 + 8);
    out.set(data);
    out[data.length] = accountType;
    return out;
  };
  const v0 = u.accounts.find((a) => a.address === u.vaults[0])!;
  const v1 = u.accounts.find((a) => a.address === u.vaults[1])!;
  c.applySnapshot(
    [
      { ...v0, owner: TOKEN_2022_PROGRAM_ID, data: withExtensions(v0.data, 2), slot: 101n, writeVersion: 1n },
      { ...v1, owner: TOKEN_2022_PROGRAM_ID, data: withExtensions(v1.data, 1), slot: 101n, writeVersion: 1n },
    ],
    101n,
  );
  const fresh = new IngestCore({ slab: PoolSlab.create(16, 64), mints: MintTable.create(16, 64), adapters: [raydiumCpmmAdapter], onChange: () => undefined });
  // A core that has not planned yet, over the same accounts (the first core learnt the vaults' owners already).
  fresh.applySnapshot(u.accounts.map((a) => c.cache.get(a.address) ?? a), 101n);
  const listed = fresh.watchPlan().addresses;
  assert.ok(!listed.includes(u.vaults[0]!), 'the Token-2022 token account streams');
  assert.ok(listed.includes(u.vaults[1]!), 'account type 1 (a mint) is not a vault');
});
