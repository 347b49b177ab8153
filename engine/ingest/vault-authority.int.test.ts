/**
 * CPMM vaults arrive through the vault authority filter, not by address: ingest runs against the localnet's Geyser
 * server (grpc-js transport, recording every request it sends and every update it receives); a swap on a CPMM pool
 * moves the pool's record and price to what a fresh read of the chain gives, while no request ever listed the
 * pool's vaults, and the vaults' updates name only the authority filter.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startLocalnet, type Localnet } from '../../fixtures/localnet/start-localnet.js';
import { ADAPTERS } from '../adapters/registry.js';
import { raydiumCpmmAdapter } from '../adapters/raydium-cpmm/adapter.js';
import { createGeyserTransport } from '../chain/geyser-factory.js';
import type { GeyserTransport } from '../chain/geyser-transport.js';
import { RpcClient } from '../chain/rpc-client.js';
import type { SubscribeRequest, SubscribeUpdate } from '../chain/yellowstone.js';
import { pubkeyAt } from '../adapters/common/pubkey-text.js';
import { MintTable } from '../slab/mint-table.js';
import { newExactSnapshot, type PoolExactSnapshot } from '../slab/pool-snapshot.js';
import { PoolSlab, VIEW_LATEST } from '../slab/pool-slab.js';
import { IngestCore } from './ingest-core.js';
import { IngestRunner } from './ingest-runner.js';
import { SnapshotLoader } from './snapshot-loader.js';
import { poolIndexOf } from './testing/pool-index.js';
import { recordingTransport, waitFor } from './testing/recording-transport.js';

let net: Localnet;
let core: IngestCore;
let runner: IngestRunner;
let slab: PoolSlab;
const requests: SubscribeRequest[] = [];
/** Filter names of every update received, by account address. */
const filtersOf = new Map<string, Set<string>>();

/** Records what a transport sends, and the filter names of every account update it receives. */
const recording = (t: GeyserTransport): GeyserTransport =>
  recordingTransport(t, requests, (u: SubscribeUpdate) => {
    const acc = u.account?.account;
    if (!acc) return;
    const key = pubkeyAt(acc.pubkey, 0);
    const set = filtersOf.get(key) ?? new Set<string>();
    for (const f of u.filters) set.add(f);
    filtersOf.set(key, set);
  });

before(async () => {
  net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 100 });
  slab = PoolSlab.create(256, 4096);
  const mints = MintTable.create(256, 8192);
  core = new IngestCore({
    slab,
    mints,
    adapters: ADAPTERS,
    onChange: () => undefined,
    onMissingAccounts: (a) => runner.noteMissing(a),
    onMissingOwnedTokenAccounts: (o) => runner.noteMissingOwners(o),
  });
  runner = new IngestRunner({
    rpc: new RpcClient(net.rpcUrl),
    connect: async () => recording(await createGeyserTransport('grpc-js', { url: net.grpcUrl })),
    core,
    adapters: ADAPTERS,
  });
  await runner.start();
  await waitFor(() => runner.stats.connected && core.lastProcessedSlot > 0n, 10_000, 'the stream');
});

after(async () => {
  runner.stop();
  await net.stop();
});

/** The pool's marginal price of A in B atoms, as the price layer derives it. */
function rateAToB(s: PoolExactSnapshot): number {
  return raydiumCpmmAdapter.marginalRate({ status: s.status, reserveA: Number(s.reserveA), reserveB: Number(s.reserveB), f64: s.f64, ext: null }, true);
}

/** JSON of bigints. */
const big = (_k: string, v: unknown): unknown => (typeof v === 'bigint' ? v.toString() : v);

/** A record's quotable fields and float mirrors (not its slot or time stamps). */
function quotable(s: PoolExactSnapshot) {
  return { status: s.status, reserveA: s.reserveA, reserveB: s.reserveB, u64: [...s.u64], f64: [...s.f64] };
}

test('a CPMM swap reaches the record through the vault authority filter; its vaults are in no request', async () => {
  const pool = net.universe.pools.find((p) => !p.swapsDisabled)!;
  const entry = core.registry.get(pool.address)!;
  assert.ok(entry, 'pool discovered');
  const vaults = [entry.desc.dependencies[1]!, entry.desc.dependencies[2]!];
  assert.deepEqual(vaults, [pool.vaultA, pool.vaultB]);
  const index = poolIndexOf(slab, pool.address);
  const snap = newExactSnapshot();
  assert.ok(slab.readExact(index, VIEW_LATEST, snap));
  const before = quotable(snap);
  const rateBefore = rateAToB(snap);

  const out = net.simulator.swapNow(pool.address, true, pool.reserveA / 100n);
  assert.ok(out.slot !== undefined, 'landed');
  assert.ok(vaults.every((v) => out.written.includes(v)), 'the swap wrote both vaults');
  await waitFor(() => slab.readExact(index, VIEW_LATEST, snap) && snap.slot >= out.slot!, 5000, 'the record of the swap');

  // What the chain's accounts give now, read by a fresh core over RPC.
  const refSlab = PoolSlab.create(256, 4096);
  const ref: IngestCore = new IngestCore({
    slab: refSlab,
    mints: MintTable.create(256, 8192),
    adapters: ADAPTERS,
    onChange: () => undefined,
    onMissingAccounts: (a) => a.forEach((x) => loader.missing.add(x)),
    onMissingOwnedTokenAccounts: (o) => o.forEach((x) => loader.missingOwners.add(x)),
  });
  const loader = new SnapshotLoader(new RpcClient(net.rpcUrl), ref, ADAPTERS, 'processed');
  await loader.load(true);
  const refSnap = newExactSnapshot();
  assert.ok(refSlab.readExact(poolIndexOf(refSlab, pool.address), VIEW_LATEST, refSnap));
  await waitFor(() => slab.readExact(index, VIEW_LATEST, snap) && JSON.stringify(quotable(snap), big) === JSON.stringify(quotable(refSnap), big), 5000, 'the record to match the chain');
  slab.readExact(index, VIEW_LATEST, snap);
  assert.notDeepEqual(quotable(snap), before, 'the record moved');
  assert.ok(snap.reserveA > before.reserveA && snap.reserveB < before.reserveB, 'A in, B out');
  const rateAfter = rateAToB(snap);
  assert.ok(rateAfter < rateBefore, `price of A in B fell: ${rateBefore} -> ${rateAfter}`);

  for (const v of vaults) {
    assert.deepEqual([...(filtersOf.get(v) ?? [])], ['raydium-cpmm:vaults:0'], `${v} arrived through the authority filter only`);
  }
  assert.ok(requests.length >= 1);
  for (const r of requests) {
    for (const [name, f] of Object.entries(r.accounts)) {
      for (const v of vaults) assert.ok(!f.account.includes(v), `vault ${v} listed in filter ${name}`);
    }
  }
  // AMM v4 pools' vaults too (their authority, nonce 254): in no request either.
  const amm = [...core.registry.all()].filter((p) => p.desc.dex === 'raydium-amm-v4');
  assert.ok(amm.length > 0, 'the localnet has AMM v4 pools');
  const listed = new Set(requests.flatMap((r) => Object.values(r.accounts).flatMap((f) => f.account)));
  for (const p of amm) for (const v of p.desc.dependencies) assert.ok(!listed.has(v), `AMM v4 vault ${v} listed`);
  assert.ok(runner.stats.streamedByAuthority >= 2 * net.universe.pools.length, `${runner.stats.streamedByAuthority} vaults left to the filters`);
  assert.ok(runner.stats.requestBytes < 16_384, `${runner.stats.requestBytes} bytes`);
});
