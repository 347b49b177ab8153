/**
 * A pool written by two transactions of one slot is never seen, nor priced, from a mix of the two: the localnet
 * lands two swaps on SOL's best-bid pool back to back in one slot (slot clock stopped); a thread of the test reads
 * the service's record of that pool in a tight loop the whole time, and every price change the service derives
 * for SOL is recorded. Every image and price seen must be the state before, after the first or after the second
 * swap, each built by a reference ingest core from the chain's accounts. The localnet's Geyser server writes a
 * transaction's messages one by one, so they reach the service in separate reads (seen: a swap's first vault in
 * one read, its pool and other vault in the next): the test fails if ingest applies at read boundaries.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ADAPTERS_BY_DEX_INDEX } from '../engine/adapters/by-dex-index.js';
import { ADAPTERS } from '../engine/adapters/registry.js';
import { Catalog } from '../engine/catalog/catalog.js';
import { RpcClient } from '../engine/chain/rpc-client.js';
import type { AccountUpdate } from '../engine/ingest/account-update.js';
import { IngestCore } from '../engine/ingest/ingest-core.js';
import { SnapshotLoader } from '../engine/ingest/snapshot-loader.js';
import { poolIndexOf } from '../engine/ingest/testing/pool-index.js';
import { recordKey, startRecordSampler } from '../engine/ingest/testing/record-sampler.js';
import { PriceDeriver } from '../engine/router/price.js';
import { isPrice, type PriceObject } from '../engine/router/price-types.js';
import { MintTable } from '../engine/slab/mint-table.js';
import { newExactSnapshot } from '../engine/slab/pool-snapshot.js';
import { PoolSlab, VIEW_LATEST } from '../engine/slab/pool-slab.js';
import { Topology } from '../engine/slab/topology.js';
import { startLocalnet, type Localnet } from '../fixtures/localnet/start-localnet.js';
import { startServiceUnderTest, TEST_DEMO_KEY, type ServiceUnderTest } from './testing/service-under-test.js';
import { eventually } from './testing/wait.js';

const WSOL = 'So11111111111111111111111111111111111111112';
const ROUNDS = 12;

let net: Localnet;
let sut: ServiceUnderTest;
before(async () => {
  net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 100 });
  sut = await startServiceUnderTest({ GEYSER_TRANSPORT: process.env.T ?? 'napi' }, net);
});
after(async () => {
  await sut.stop();
  await net.stop();
});

/** A reference ingest core over the chain's accounts read at processed commitment, fed by hand afterwards. */
async function referenceCore(): Promise<{ core: IngestCore; slab: PoolSlab; deriver: PriceDeriver }> {
  const slab = PoolSlab.create(1024, 1 << 16);
  const mints = MintTable.create(1024, 1 << 17);
  const core: IngestCore = new IngestCore({
    slab,
    mints,
    adapters: ADAPTERS,
    onChange: () => undefined,
    onMissingAccounts: (a) => a.forEach((x) => loader.missing.add(x)),
    onMissingOwnedTokenAccounts: (o) => o.forEach((x) => loader.missingOwners.add(x)),
  });
  const loader = new SnapshotLoader(new RpcClient(net.rpcUrl), core, ADAPTERS, 'processed');
  await loader.load(true);
  const deriver = new PriceDeriver({ slab, mints, topology: new Topology(slab), adapters: ADAPTERS_BY_DEX_INDEX }, new Catalog());
  return { core, slab, deriver };
}

test('two transactions on one pool in one slot: every record image and every price is before, after one or after both', async () => {
  const price = (await (await fetch(`${sut.base}/v1/price/SOL`, { headers: { 'x-api-key': TEST_DEMO_KEY } })).json()) as PriceObject;
  const pool = net.universe.pools.find((p) => p.address === price.bestBidPool)!;
  assert.ok(pool && [pool.mintA, pool.mintB].includes(WSOL), 'SOL best bid on a CPMM pool');
  const solIsA = pool.mintA === WSOL;
  const index = poolIndexOf(sut.svc.slab, pool.address);
  assert.ok(index >= 0);

  const sol = sut.svc.priceService.resolve('SOL')!;
  const priced: number[] = [];
  const unsubscribe = sut.svc.priceService.onChange((c) => {
    if (!c.confirmed && c.affects(sol)) {
      const p = sut.svc.priceService.price(sol, true);
      if (isPrice(p)) priced.push(p.priceUsd);
    }
  });
  const sampler = await startRecordSampler(sut.svc.slab, index);
  const expectedImages = new Set<string>();
  const expectedPrices: number[] = [];
  const snap = newExactSnapshot();
  const ref = await referenceCore();
  const refIndex = poolIndexOf(ref.slab, pool.address);
  const remember = (): void => {
    ref.slab.readExact(refIndex, VIEW_LATEST, snap);
    expectedImages.add(recordKey(snap));
    const p = ref.deriver.price('SOL', WSOL, true);
    assert.ok(isPrice(p));
    expectedPrices.push(p.priceUsd);
  };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      net.ledger.stop();
      try {
        remember();
        const slots: bigint[] = [];
        const versions: { slot: bigint; accounts: AccountUpdate[] }[] = [];
        // Both swaps back to back: their writes leave for the stream together. The reference follows from the
        // ledger's accounts as each swap left them (read in memory, no I/O, nothing between the swaps).
        for (const aToB of round % 2 === 0 ? [solIsA, solIsA] : [!solIsA, !solIsA]) {
          const out = net.simulator.swapNow(pool.address, aToB, (aToB ? pool.reserveA : pool.reserveB) / 2_000n);
          assert.ok(out.slot !== undefined, 'landed');
          slots.push(out.slot);
          const accounts = out.written.map((a) => net.ledger.getAccount(a)!).map((v) => ({ address: v.address, owner: v.owner, lamports: v.lamports, data: v.data.slice(), slot: v.slot, writeVersion: v.writeVersion }));
          versions.push({ slot: out.slot, accounts });
        }
        for (const v of versions) {
          ref.core.applySnapshot(v.accounts, v.slot, false);
          remember();
        }
        assert.equal(slots[0], slots[1], 'both swaps in one slot');
        const final = [...expectedImages].at(-1)!;
        await eventually(async () => {
          sut.svc.slab.readExact(index, VIEW_LATEST, snap);
          assert.equal(recordKey(snap), final);
        }, 5000, 5);
      } finally {
        net.ledger.start();
      }
      await new Promise((r) => setTimeout(r, 150));
    }
  } finally {
    unsubscribe();
  }
  const { images, reads } = await sampler.stop();
  assert.ok(reads > 1000, `${reads} reads`);
  assert.ok(images.length >= ROUNDS, `${images.length} distinct images seen`);
  for (const img of images) assert.ok(expectedImages.has(img), `an image no transaction boundary produced: ${img}; expected one of ${[...expectedImages].join(" | ")}`);
  assert.ok(priced.length >= ROUNDS, `${priced.length} prices derived`);
  for (const p of priced) assert.ok(expectedPrices.some((e) => Math.abs(p - e) <= Math.abs(e) * 1e-12), `a price of no consistent state: ${p}`);
});
