import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeTokenAccount, decodeTokenAccount } from '../adapters/common/spl-layouts.js';
import { raydiumCpmmAdapter } from '../adapters/raydium-cpmm/adapter.js';
import { floodUniverse } from '../../fixtures/synthetic/cpmm-universe.js';
import { MintTable } from '../slab/mint-table.js';
import { newExactSnapshot } from '../slab/pool-snapshot.js';
import { PoolSlab, VIEW_CONFIRMED, VIEW_LATEST } from '../slab/pool-slab.js';
import type { AccountUpdate } from './account-update.js';
import { IngestCore, type IngestChange } from './ingest-core.js';

function setup(pools = 3) {
  const slab = PoolSlab.create(16, 64);
  const mints = MintTable.create(16, 64);
  const changes: IngestChange[] = [];
  const core = new IngestCore({ slab, mints, adapters: [raydiumCpmmAdapter], onChange: (c) => changes.push(c) });
  const u = floodUniverse(pools);
  core.applySnapshot(u.accounts, 100n);
  return { slab, mints, core, changes, u };
}

/** A 64-byte transaction signature made of `n`. */
function signature(n: number): Uint8Array {
  return new Uint8Array(64).fill(n);
}

/** Pool `pool`'s state account written again (same data) at `slot`: a swap writes it with the vaults. */
function poolWrite(u: ReturnType<typeof floodUniverse>, pool: number, slot: bigint, writeVersion: bigint): AccountUpdate {
  const acc = u.accounts[1 + pool * 3]!;
  return { ...acc, slot, writeVersion };
}

function vaultWrite(u: ReturnType<typeof floodUniverse>, vault: number, amount: bigint, slot: bigint, writeVersion: bigint): AccountUpdate {
  const old = u.accounts.find((a) => a.address === u.vaults[vault])!;
  const fields = decodeTokenAccount(old.data);
  return { ...old, data: encodeTokenAccount({ ...fields, amount }), slot, writeVersion };
}

test('snapshot discovers every pool and writes both views as confirmed', () => {
  const { slab, core, changes } = setup(3);
  assert.equal(core.registry.size, 3);
  assert.equal(slab.count(), 3);
  const snap = newExactSnapshot();
  for (let p = 0; p < 3; p++) {
    assert.ok(slab.readExact(p, VIEW_LATEST, snap));
    assert.equal(snap.reserveA, 1_000_000_000_000n);
    assert.equal(snap.reserveB, 150_000_000_000n);
    assert.equal(snap.confirmed, true);
    assert.ok(slab.readExact(p, VIEW_CONFIRMED, snap));
  }
  assert.deepEqual(changes.map((c) => c.confirmed), [false, true]);
});

test('the writes of one transaction are applied together, at once, and confirmed when their slot is', () => {
  const { slab, core, changes, u } = setup(2);
  changes.length = 0;
  const sig = signature(1);
  core.pushAccount({ ...vaultWrite(u, 0, 900n, 101n, 5n), txnSignature: sig }); // pool 0 token0 vault
  const snap = newExactSnapshot();
  slab.readExact(0, VIEW_LATEST, snap);
  assert.equal(snap.reserveA, 1_000_000_000_000n, 'nothing applied while the transaction may have more writes');
  core.pushAccount({ ...vaultWrite(u, 1, 800n, 101n, 6n), txnSignature: sig }); // pool 0 token1 vault, same tx
  core.pushAccount({ ...poolWrite(u, 0, 101n, 7n), txnSignature: sig }); // the pool state, same tx
  assert.equal(core.hasOpenTransaction, true);
  core.endTurn();
  assert.equal(core.hasOpenTransaction, false);
  slab.readExact(0, VIEW_LATEST, snap);
  assert.equal(snap.reserveA, 900n, 'applied at the end of the turn, before the slot is reported');
  assert.equal(snap.reserveB, 800n, 'both vaults of the transaction in one record write');
  assert.equal(snap.confirmed, false);
  assert.equal(snap.slot, 101n);
  slab.readExact(0, VIEW_CONFIRMED, snap);
  assert.equal(snap.reserveA, 1_000_000_000_000n, 'confirmed view unchanged while optimistic');
  assert.deepEqual(changes, [{ pools: [0], confirmed: false, slot: 101n }]);
  core.slotStatus(101n, 'processed');
  assert.equal(changes.length, 1, 'a processed status writes nothing more');
  core.slotStatus(101n, 'confirmed');
  slab.readExact(0, VIEW_CONFIRMED, snap);
  assert.equal(snap.reserveA, 900n);
  assert.equal(snap.confirmed, true);
  slab.readExact(0, VIEW_LATEST, snap);
  assert.equal(snap.confirmed, true, 'the latest view is promoted too');
  assert.deepEqual(changes[1], { pools: [0], confirmed: true, slot: 101n });
});

test('a transaction is applied when the next one starts: two transactions of one slot are never mixed', () => {
  const { slab, core, changes, u } = setup(1);
  changes.length = 0;
  const seen: bigint[][] = [];
  const snap = newExactSnapshot();
  const look = (): void => {
    slab.readExact(0, VIEW_LATEST, snap);
    seen.push([snap.reserveA, snap.reserveB]);
  };
  const [t1, t2] = [signature(1), signature(2)];
  core.pushAccount({ ...vaultWrite(u, 0, 900n, 101n, 1n), txnSignature: t1 });
  look();
  core.pushAccount({ ...vaultWrite(u, 1, 800n, 101n, 2n), txnSignature: t1 });
  look();
  core.pushAccount({ ...vaultWrite(u, 0, 700n, 101n, 3n), txnSignature: t2 }); // t1 complete: applied now
  look();
  core.pushAccount({ ...vaultWrite(u, 1, 600n, 101n, 4n), txnSignature: t2 });
  core.pushAccount({ ...poolWrite(u, 0, 101n, 5n), txnSignature: t2 });
  look();
  core.endTurn();
  look();
  const before = [1_000_000_000_000n, 150_000_000_000n];
  assert.deepEqual(seen, [before, before, [900n, 800n], [900n, 800n], [700n, 600n]]);
  assert.equal(changes.length, 2, 'one record write per transaction');
});

test('a pool that got part of its swap set is held until the rest, another transaction or a slot status', () => {
  const { slab, core, changes, u } = setup(1);
  changes.length = 0;
  const snap = newExactSnapshot();
  const reserves = (): bigint[] => {
    slab.readExact(0, VIEW_LATEST, snap);
    return [snap.reserveA, snap.reserveB];
  };
  const before = reserves();
  // The rest arrives in a later turn: held meanwhile, then applied whole.
  core.pushAccount({ ...vaultWrite(u, 0, 900n, 101n, 1n), txnSignature: signature(1) });
  core.endTurn();
  assert.deepEqual(reserves(), before, 'the first vault of a swap alone is not applied');
  assert.equal(core.heldCount, 1);
  core.pushAccount({ ...vaultWrite(u, 1, 800n, 101n, 2n), txnSignature: signature(1) });
  core.pushAccount({ ...poolWrite(u, 0, 101n, 3n), txnSignature: signature(1) });
  core.endTurn();
  assert.deepEqual(reserves(), [900n, 800n]);
  assert.equal(core.heldCount, 0);
  // Another transaction begins: the held one is over, applied as it is.
  core.pushAccount({ ...vaultWrite(u, 0, 700n, 101n, 4n), txnSignature: signature(2) });
  core.endTurn();
  assert.deepEqual(reserves(), [900n, 800n]);
  core.pushAccount({ ...vaultWrite(u, 1, 600n, 101n, 5n), txnSignature: signature(3) });
  assert.deepEqual(reserves(), [700n, 800n], 'transaction 2 wrote one vault only: applied once transaction 3 began');
  core.endTurn();
  // A status of the slot: every write of the slot is in.
  core.slotStatus(101n, 'processed');
  assert.deepEqual(reserves(), [700n, 600n]);
  // Waited long enough.
  core.pushAccount({ ...vaultWrite(u, 0, 500n, 102n, 6n), txnSignature: signature(4) });
  core.endTurn();
  assert.equal(core.releaseHeld(60_000), 1, 'not held that long yet');
  assert.equal(core.releaseHeld(), 0);
  assert.deepEqual(reserves(), [500n, 600n]);
  // Unsigned writes are no transaction: never held.
  core.pushAccount(vaultWrite(u, 1, 400n, 103n, 7n));
  core.endTurn();
  assert.deepEqual(reserves(), [500n, 400n]);
});

test('a duplicate write version is applied once; an older one never', () => {
  const { slab, core, u } = setup(1);
  core.pushAccount(vaultWrite(u, 0, 700n, 102n, 9n));
  core.pushAccount(vaultWrite(u, 0, 700n, 102n, 9n));
  core.pushAccount(vaultWrite(u, 0, 650n, 102n, 8n));
  core.endTurn();
  core.slotStatus(102n, 'processed');
  assert.equal(core.counters.applied - 4, 1, 'one of three applied (the snapshot applied 4 accounts)');
  assert.equal(core.counters.duplicates, 2);
  const snap = newExactSnapshot();
  slab.readExact(0, VIEW_LATEST, snap);
  assert.equal(snap.reserveA, 700n);
});

test('a pool first seen on the stream is discovered and its missing accounts are requested', () => {
  const slab = PoolSlab.create(4, 16);
  const mints = MintTable.create(4, 16);
  const missing: string[] = [];
  const core = new IngestCore({ slab, mints, adapters: [raydiumCpmmAdapter], onChange: () => undefined, onMissingAccounts: (a) => missing.push(...a) });
  const u = floodUniverse(1);
  const pool = u.accounts[1]!;
  core.pushAccount({ ...pool, slot: 5n, writeVersion: 1n });
  core.endTurn();
  core.slotStatus(5n, 'processed');
  assert.equal(core.registry.size, 1);
  assert.equal(missing.length, 3, 'config and both vaults');
  assert.ok(core.watchedAccounts().includes(u.vaults[0]!));
});

function clockUpdate(slot: bigint, unixTimestamp: bigint, writeVersion: bigint): AccountUpdate {
  const data = new Uint8Array(40);
  const dv = new DataView(data.buffer);
  dv.setBigUint64(0, slot, true);
  dv.setBigInt64(32, unixTimestamp, true);
  return { address: 'SysvarC1ock11111111111111111111111111111111', owner: 'Sysvar1111111111111111111111111111111111111', lamports: 1n, data, slot, writeVersion };
}

test('a clock-sensitive pool is rebuilt on every Clock update, and written only when its image changes', () => {
  for (const sensitive of [true, false]) {
    for (const imageFollowsClock of [true, false]) {
      const slab = PoolSlab.create(4, 16);
      const mints = MintTable.create(4, 16);
      const changes: IngestChange[] = [];
      let builds = 0;
      let clockSlot = 0n;
      const adapter = {
        ...raydiumCpmmAdapter,
        clockSensitive: () => sensitive,
        buildState: (...a: Parameters<typeof raydiumCpmmAdapter.buildState>) => {
          builds++;
          clockSlot = a[3].slot;
          return raydiumCpmmAdapter.buildState(...a);
        },
        toRecord: (...a: Parameters<typeof raydiumCpmmAdapter.toRecord>) => {
          raydiumCpmmAdapter.toRecord(...a);
          // A fee schedule that moves with the clock changes the image; a pool waiting to open does not.
          if (imageFollowsClock) a[1].f64[a[1].f64.length - 1] = Number(clockSlot);
        },
      };
      const core = new IngestCore({ slab, mints, adapters: [adapter], onChange: (c) => changes.push(c) });
      core.applySnapshot(floodUniverse(1).accounts, 100n);
      changes.length = 0;
      builds = 0;
      core.pushAccount(clockUpdate(101n, 1_700_000_000n, 1n));
      core.endTurn();
      const label = `sensitive=${sensitive} imageFollowsClock=${imageFollowsClock}`;
      assert.equal(builds, sensitive ? 1 : 0, label);
      assert.deepEqual(changes.map((c) => c.pools), sensitive && imageFollowsClock ? [[0]] : [], label);
      assert.equal(core.counters.unchanged, sensitive && !imageFollowsClock ? 1 : 0, label);
    }
  }
});

test('a pool that cannot be described yet waits for its descriptor inputs and mint accounts, then is discovered', async () => {
  const { decodePoolState } = await import('../adapters/raydium-cpmm/layout.js');
  const { encodeMint, TOKEN_PROGRAM_ID } = await import('../adapters/common/spl-layouts.js');
  const { UNKNOWN_DECIMALS } = await import('../adapters/types.js');
  const slab = PoolSlab.create(4, 16);
  const mints = MintTable.create(4, 16);
  const requested: string[][] = [];
  // The real CPMM adapter, made to behave like a DEX whose pool account names its config but carries no decimals.
  const seenInputs: string[] = [];
  const adapter = {
    ...raydiumCpmmAdapter,
    descriptorInputs: (data: Uint8Array) => [decodePoolState(data).ammConfig],
    decodePool: (address: string, data: Uint8Array, dec?: (m: string) => number | undefined, inputs?: ReadonlyMap<string, { owner: string; data: Uint8Array }>) => {
      const d = raydiumCpmmAdapter.decodePool(address, data)!;
      seenInputs.push(...(inputs?.keys() ?? []));
      return { ...d, decimalsA: dec?.(d.mintA) ?? UNKNOWN_DECIMALS, decimalsB: dec?.(d.mintB) ?? UNKNOWN_DECIMALS };
    },
  };
  const core = new IngestCore({ slab, mints, adapters: [adapter], onChange: () => undefined, onMissingAccounts: (a) => requested.push([...a]) });
  const u = floodUniverse(1);
  const [config, pool, v0, v1] = u.accounts as [AccountUpdate, AccountUpdate, AccountUpdate, AccountUpdate];
  const desc = raydiumCpmmAdapter.decodePool(pool.address, pool.data)!;
  const mintAccount = (address: string, decimals: number): AccountUpdate => ({
    address, owner: TOKEN_PROGRAM_ID, lamports: 1n, slot: 1n, writeVersion: 1n,
    data: encodeMint({ mintAuthority: null, supply: 1n, decimals, isInitialized: true, freezeAuthority: null }),
  });

  core.applySnapshot([pool], 1n);
  assert.equal(core.registry.size, 0);
  assert.equal(core.pendingPools, 1);
  assert.deepEqual(requested.at(-1), [config.address], 'the config is asked for first');
  core.applySnapshot([config], 1n);
  assert.deepEqual(seenInputs, [config.address], 'decodePool got the config');
  assert.deepEqual(requested.at(-1), [desc.mintA, desc.mintB], 'then the mints, for their decimals');
  assert.equal(core.registry.size, 0);
  core.applySnapshot([mintAccount(desc.mintA, 7)], 1n);
  assert.equal(core.registry.size, 0, 'still waiting for the other mint');
  core.applySnapshot([mintAccount(desc.mintB, 4)], 1n);
  assert.equal(core.registry.size, 1);
  assert.equal(core.pendingPools, 0);
  assert.equal(mints.decimals(mints.idOf(desc.mintA)!), 7);
  assert.equal(mints.decimals(mints.idOf(desc.mintB)!), 4);
  assert.deepEqual(new Set(requested.at(-1)), new Set([v0.address, v1.address]), 'then the vaults');
  core.applySnapshot([v0, v1], 2n);
  const snap = newExactSnapshot();
  assert.ok(slab.readExact(0, VIEW_LATEST, snap));
  assert.equal(snap.reserveA, 1_000_000_000_000n);
});

test('a pool whose mint account is not a mint never enters the slab', () => {
  const slab = PoolSlab.create(4, 16);
  const mints = MintTable.create(4, 16);
  const adapter = {
    ...raydiumCpmmAdapter,
    decodePool: (address: string, data: Uint8Array, dec?: (m: string) => number | undefined) => {
      const d = raydiumCpmmAdapter.decodePool(address, data)!;
      return { ...d, decimalsA: dec?.(d.mintA) ?? -1, decimalsB: 6 };
    },
  };
  const core = new IngestCore({ slab, mints, adapters: [adapter], onChange: () => undefined });
  const u = floodUniverse(1);
  const pool = u.accounts[1]!;
  const desc = raydiumCpmmAdapter.decodePool(pool.address, pool.data)!;
  core.applySnapshot([pool], 1n);
  // The "mint" turns out to be a token account.
  core.applySnapshot([{ ...u.accounts[2]!, address: desc.mintA }], 1n);
  assert.equal(core.registry.size, 0);
  assert.equal(core.pendingPools, 0);
});

test('a pool that does not name its mint (a pump.fun curve) is described from the token account it owns', async () => {
  const { pumpfunAdapter } = await import('../adapters/pumpfun/adapter.js');
  const { pumpfunFixture } = await import('../adapters/pumpfun/testing/test-fixture.js');
  const { PUMPFUN_PROGRAM_ID } = await import('../adapters/pumpfun/layout.js');
  const { TOKEN_PROGRAM_ID } = await import('../adapters/common/spl-layouts.js');
  const slab = PoolSlab.create(4, 16);
  const mints = MintTable.create(4, 16);
  const owners: string[][] = [];
  const missing: string[][] = [];
  const core = new IngestCore({
    slab, mints, adapters: [pumpfunAdapter], onChange: () => undefined,
    onMissingAccounts: (a) => missing.push([...a]), onMissingOwnedTokenAccounts: (o) => owners.push([...o]),
  });
  const fx = pumpfunFixture({ label: 'ingest' });
  const up = (address: string, owner: string, data: Uint8Array, slot = 7n): AccountUpdate => ({ address, owner, lamports: 1n, data, slot, writeVersion: 1n });
  core.pushAccount(up(fx.curveAddress, PUMPFUN_PROGRAM_ID, fx.accounts.get(fx.curveAddress)!));
  core.endTurn();
  core.slotStatus(7n, 'processed');
  assert.equal(core.registry.size, 0);
  assert.deepEqual(owners, [[fx.curveAddress]], 'the token accounts the curve owns are asked for');
  // A token account owned by the curve for a mint whose curve this is not changes nothing.
  const [ata, input] = [...fx.inputs][0]!;
  const { encodeTokenAccount } = await import('../adapters/common/spl-layouts.js');
  const bs58 = (await import('bs58')).default;
  const forged = encodeTokenAccount({ mint: bs58.decode('So11111111111111111111111111111111111111112'), owner: bs58.decode(fx.curveAddress), amount: 1n, delegate: null, state: 1, isNative: null, delegatedAmount: 0n, closeAuthority: null });
  core.applySnapshot([up('Fake1111111111111111111111111111111111111111', TOKEN_PROGRAM_ID, forged)], 8n);
  assert.equal(core.registry.size, 0, 'the forged account does not describe the curve');
  // The curve owns no genuine token account yet as far as ingest knows: it asks again when the curve changes.
  core.pushAccount(up(fx.curveAddress, PUMPFUN_PROGRAM_ID, fx.accounts.get(fx.curveAddress)!, 9n));
  core.endTurn();
  core.slotStatus(9n, 'processed');
  core.applySnapshot([up(ata, input.owner, input.data, 9n)], 9n);
  assert.equal(core.registry.size, 1);
  const entry = core.registry.get(fx.curveAddress)!;
  assert.equal(entry.desc.mintA, fx.mint);
  assert.equal(mints.decimals(mints.idOf(fx.mint)!), 6);
  assert.ok(missing.at(-1)!.length > 0, 'then its dependencies (Global, FeeConfig)');
});

test('a resync read below a pending state joins that state: its confirmation carries what the resync brought', () => {
  const { slab, core, u } = setup(1);
  // The stream brings vault A at 105 (unconfirmed); vault B changed while the stream was away.
  core.pushAccount(vaultWrite(u, 0, 900n, 105n, 5n));
  core.endTurn();
  core.slotStatus(105n, 'processed');
  // The resync reads at confirmed commitment (slot 104): vault B's new amount, vault A older than the cache's.
  core.applySnapshot([vaultWrite(u, 1, 777n, 104n, 0n), vaultWrite(u, 0, 1n, 104n, 0n)], 104n);
  const snap = newExactSnapshot();
  slab.readExact(0, VIEW_LATEST, snap);
  assert.deepEqual([snap.reserveA, snap.reserveB], [900n, 777n]);
  assert.equal(snap.slot, 105n, 'labelled with the newest slot its data comes from');
  assert.equal(snap.confirmed, false, 'not confirmed: part of it is at 105');
  slab.readExact(0, VIEW_CONFIRMED, snap);
  assert.notEqual(snap.reserveA, 900n, 'the confirmed view never shows unconfirmed data');
  core.slotStatus(105n, 'confirmed');
  slab.readExact(0, VIEW_CONFIRMED, snap);
  assert.deepEqual([snap.reserveA, snap.reserveB], [900n, 777n], 'confirming 105 brings the resync read too');
});
