import assert from 'node:assert/strict';
import { test } from 'node:test';
import bs58 from 'bs58';
import { startLocalnet } from '../../fixtures/localnet/start-localnet.js';
import { ADAPTERS } from '../adapters/registry.js';
import { RpcClient } from '../chain/rpc-client.js';
import { MintTable } from '../slab/mint-table.js';
import { newExactSnapshot, type PoolExactSnapshot } from '../slab/pool-snapshot.js';
import { PoolSlab, VIEW_CONFIRMED, VIEW_LATEST } from '../slab/pool-slab.js';
import { IngestCore } from './ingest-core.js';
import { SnapshotLoader, type SnapshotPaging } from './snapshot-loader.js';

/** A fresh core loaded from the chain with the given paging; the slab, mints and how many pages were applied. */
async function load(rpcUrl: string, paging: SnapshotPaging) {
  const slab = PoolSlab.create(64, 4096);
  const mints = MintTable.create(64, 8192);
  let changes = 0;
  const core = new IngestCore({
    slab,
    mints,
    adapters: ADAPTERS,
    onChange: () => void changes++,
    onMissingAccounts: (a) => a.forEach((x) => loader.missing.add(x)),
    onMissingOwnedTokenAccounts: (o) => o.forEach((x) => loader.missingOwners.add(x)),
  });
  const applied = { calls: 0 };
  const applySnapshot = core.applySnapshot.bind(core);
  core.applySnapshot = (accounts, slot, confirmed) => {
    applied.calls++;
    applySnapshot(accounts, slot, confirmed);
  };
  const loader = new SnapshotLoader(new RpcClient(rpcUrl), core, ADAPTERS, 'confirmed', paging);
  await loader.load();
  return { core, slab, mints, changes, applied: applied.calls };
}

/** A record with its mints by address (ids depend on discovery order) and without its wall-clock stamp. */
function comparable(r: PoolExactSnapshot, mints: MintTable) {
  return { ...r, mintA: mints.mintOf(r.mintA), mintB: mints.mintOf(r.mintB), updatedAtMs: 0 };
}

test('a snapshot applied in small pages, chunks in flight together, gives the records of one applied whole', async () => {
  // 300 CPMM pools + the other DEXes' (pools waiting for configs, mints and owned token accounts), clock stopped so
  // that both reads see the same slot.
  const net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 50, pools: 300 });
  try {
    net.ledger.stop();
    const whole = await load(net.rpcUrl, { pageAccounts: 1_000_000, concurrency: 1 });
    const paged = await load(net.rpcUrl, { pageAccounts: 7, concurrency: 3 });
    // The universe's pools and the asset universe's VENUM/USDC CPMM pool.
    const pools = 300 + net.universe.dexPools.length + 1;
    assert.equal(whole.core.registry.size, pools);
    assert.equal(paged.core.registry.size, pools);
    assert.equal(paged.core.pendingPools, 0);
    assert.equal(paged.core.cache.size, whole.core.cache.size);
    // 300 pools in pages of 7, and ~600 vaults in chunks of 100: many more applications than the whole load's.
    assert.ok(paged.applied > whole.applied + 40, `${paged.applied} pages vs ${whole.applied}`);
    const byAddress = new Map<string, number>();
    for (let i = 0; i < whole.slab.count(); i++) byAddress.set(bs58.encode(whole.slab.address(i)), i);
    const a = newExactSnapshot();
    const b = newExactSnapshot();
    for (let i = 0; i < paged.slab.count(); i++) {
      const address = bs58.encode(paged.slab.address(i));
      const j = byAddress.get(address);
      assert.ok(j !== undefined, address);
      for (const view of [VIEW_LATEST, VIEW_CONFIRMED]) {
        assert.ok(paged.slab.readExact(i, view, a) && whole.slab.readExact(j, view, b), `${address} written`);
        assert.deepEqual(comparable(a, paged.mints), comparable(b, whole.mints), `${address} view ${view}`);
      }
    }
  } finally {
    await net.stop();
  }
});
