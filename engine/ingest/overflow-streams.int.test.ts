/**
 * Overflow streams against the localnet's Geyser server: ingest runs with a tiny address budget (1,200 bytes per
 * request), so the default universe's pools do not fit one request and PumpSwap and pump.fun pools go to overflow
 * Subscribe streams. A PumpSwap pool on an overflow stream is tradable: a swap moves its record to what a fresh read
 * of the chain gives and moves its token's price; two swaps on it in one slot are never seen mixed by a thread
 * reading its record in a tight loop; dropping its stream reconnects that stream alone; pools launched while
 * streaming open a new stream when no stream has room, and past the cap are written not tradable.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ADAPTERS_BY_DEX_INDEX } from '../adapters/by-dex-index.js';
import { decodeTokenAccount, encodeTokenAccount } from '../adapters/common/spl-layouts.js';
import { ADAPTERS } from '../adapters/registry.js';
import { Catalog } from '../catalog/catalog.js';
import { createGeyserTransport } from '../chain/geyser-factory.js';
import type { GeyserTransport } from '../chain/geyser-transport.js';
import { RpcClient } from '../chain/rpc-client.js';
import type { SubscribeRequest } from '../chain/yellowstone.js';
import { PriceDeriver } from '../router/price.js';
import { isPrice } from '../router/price-types.js';
import { MintTable } from '../slab/mint-table.js';
import { newExactSnapshot, type PoolExactSnapshot } from '../slab/pool-snapshot.js';
import { PoolSlab, VIEW_LATEST } from '../slab/pool-slab.js';
import { Topology } from '../slab/topology.js';
import { startLocalnet, type Localnet } from '../../fixtures/localnet/start-localnet.js';
import type { DexSeedPool } from '../../fixtures/localnet/universe/dex-types.js';
import { pumpswapScaleSeeder } from '../../fixtures/localnet/universe/pumpswap-scale.js';
import type { AccountUpdate } from './account-update.js';
import { IngestCore, RECORD_STATUS_UNWATCHED } from './ingest-core.js';
import { IngestRunner } from './ingest-runner.js';
import { SnapshotLoader } from './snapshot-loader.js';
import { poolIndexOf } from './testing/pool-index.js';
import { recordKey, startRecordSampler } from './testing/record-sampler.js';
import { recordingTransport, waitFor } from './testing/recording-transport.js';

const WSOL = 'So11111111111111111111111111111111111111112';
const BUDGET = 1200;

let net: Localnet;
let core: IngestCore;
let runner: IngestRunner;
let slab: PoolSlab;
let mints: MintTable;
/** Every request sent, with whether it was a primary one (program filters) or an overflow stream's. */
const requests: SubscribeRequest[] = [];

const recording = (t: GeyserTransport): GeyserTransport => recordingTransport(t, requests);

before(async () => {
  // A replay window of 4 s (40 slots): a stream kept away longer must resync.
  net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 100, historySlots: 40 });
  slab = PoolSlab.create(256, 4096);
  mints = MintTable.create(256, 8192);
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
    connect: async () => recording(await createGeyserTransport((process.env.T as 'napi' | 'grpc-js' | undefined) ?? 'grpc-js', { url: net.grpcUrl })),
    core,
    adapters: ADAPTERS,
    addressBudgetBytes: BUDGET,
    maxStreams: 4,
  });
  await runner.start();
  await waitFor(() => runner.stats.streams > 1 && runner.stats.connected && core.lastProcessedSlot > 0n, 10_000, 'every stream');
});

after(async () => {
  runner.stop();
  await net.stop();
});

/** A quotable PumpSwap pool against SOL that ingest placed on an overflow stream. */
function overflowPumpPool(): DexSeedPool & { stream: number } {
  for (const p of net.universe.dexPools) {
    const stream = runner.streamOf(p.address) ?? 0;
    if (p.dex === 'pumpswap' && p.quotable && p.mintB === WSOL && stream > 0) return { ...p, stream };
  }
  throw new Error('no PumpSwap pool on an overflow stream');
}

/** A reference ingest core over the chain's accounts read now at processed commitment. */
async function referenceCore(): Promise<{ core: IngestCore; slab: PoolSlab; deriver: PriceDeriver }> {
  const refSlab = PoolSlab.create(256, 4096);
  const refMints = MintTable.create(256, 8192);
  const ref: IngestCore = new IngestCore({
    slab: refSlab,
    mints: refMints,
    adapters: ADAPTERS,
    onChange: () => undefined,
    onMissingAccounts: (a) => a.forEach((x) => loader.missing.add(x)),
    onMissingOwnedTokenAccounts: (o) => o.forEach((x) => loader.missingOwners.add(x)),
  });
  const loader = new SnapshotLoader(new RpcClient(net.rpcUrl), ref, ADAPTERS, 'processed');
  await loader.load(true);
  return { core: ref, slab: refSlab, deriver: new PriceDeriver({ slab: refSlab, mints: refMints, topology: new Topology(refSlab), adapters: ADAPTERS_BY_DEX_INDEX }, new Catalog()) };
}

/** A record's quotable fields and float mirrors (not its slot or time stamps). */
function quotable(s: PoolExactSnapshot): string {
  return recordKey(s) + ':' + [...s.f64].join(',');
}

test('pools beyond one request go to overflow streams, each pool whole on one; nothing is left unwatched', () => {
  assert.ok(runner.stats.streams >= 2, `${runner.stats.streams} streams`);
  assert.equal(runner.stats.streamsConnected, runner.stats.streams);
  assert.equal(core.unwatchedPools, 0);
  assert.equal(runner.feedStatus().streams, runner.stats.streams);
  const pool = overflowPumpPool();
  const entry = core.registry.get(pool.address)!;
  const own = [pool.address, ...entry.desc.dependencies.slice(2)];
  const primary = requests.filter((r) => Object.keys(r.accounts).some((k) => k.includes(':')));
  const overflow = requests.filter((r) => !Object.keys(r.accounts).some((k) => k.includes(':')));
  assert.ok(primary.length > 0 && overflow.length > 0);
  for (const r of primary) for (const a of own) assert.ok(!(r.accounts.watched?.account ?? []).includes(a), `${a} listed on the primary`);
  const last = overflow.filter((r) => own.every((a) => r.accounts.watched?.account.includes(a)));
  assert.ok(last.length > 0, 'the pool account, its mint and both vaults listed together on an overflow stream');
  for (const r of overflow) {
    assert.deepEqual(Object.keys(r.accounts), ['watched'], 'an overflow request lists accounts only');
    assert.ok(Object.keys(r.slots).length === 1, 'and the slots');
    const listed = r.accounts.watched!.account.reduce((n, a) => n + a.length + 2, 0);
    assert.ok(listed <= BUDGET, `${listed} bytes listed`);
  }
});

test('a swap on a PumpSwap pool of an overflow stream moves its record to the chain and its token price up', async () => {
  const pool = overflowPumpPool();
  const index = poolIndexOf(slab, pool.address);
  const snap = newExactSnapshot();
  assert.ok(slab.readExact(index, VIEW_LATEST, snap));
  const before = quotable(snap);
  const deriver = new PriceDeriver({ slab, mints, topology: new Topology(slab), adapters: ADAPTERS_BY_DEX_INDEX }, new Catalog());
  const p0 = deriver.price(pool.mintA, pool.mintA, true);
  assert.ok(isPrice(p0), JSON.stringify(p0));
  assert.equal(p0.bestAskPool, pool.address);

  // Buy the pump token with 1 SOL.
  const out = net.simulator.swapNow(pool.address, false, 1_000_000_000n);
  assert.equal(out.quote.status, 'OK');
  assert.ok(out.slot !== undefined, 'landed');
  const ref = await referenceCore();
  const refSnap = newExactSnapshot();
  assert.ok(ref.slab.readExact(poolIndexOf(ref.slab, pool.address), VIEW_LATEST, refSnap));
  await waitFor(() => slab.readExact(index, VIEW_LATEST, snap) && quotable(snap) === quotable(refSnap), 5000, 'the record to match the chain');
  assert.notEqual(quotable(snap), before, 'the record moved');
  const p1 = deriver.price(pool.mintA, pool.mintA, true);
  assert.ok(isPrice(p1));
  assert.ok(p1.bestAsk > p0.bestAsk, `ask ${p0.bestAsk} -> ${p1.bestAsk}`);
  const expected = ref.deriver.price(pool.mintA, pool.mintA, true);
  assert.ok(isPrice(expected));
  assert.equal(p1.bestAsk, expected.bestAsk, 'the price a fresh read of the chain gives');
});

test('two swaps in one slot on a pool of an overflow stream, each followed by a swap on a pool of the primary: every image a reading thread sees is before, after one or after both', async () => {
  const pool = overflowPumpPool();
  const index = poolIndexOf(slab, pool.address);
  const sampler = await startRecordSampler(slab, index);
  const expected = new Set<string>();
  const snap = newExactSnapshot();
  const ref = await referenceCore();
  const refIndex = poolIndexOf(ref.slab, pool.address);
  const remember = (): void => {
    ref.slab.readExact(refIndex, VIEW_LATEST, snap);
    expected.add(recordKey(snap));
  };
  const cpmm = net.universe.pools.find((p) => !p.swapsDisabled && runner.streamOf(p.address) === 0)!;
  assert.ok(cpmm, 'a CPMM pool on the primary');
  const rounds = 8;
  for (let round = 0; round < rounds; round++) {
    net.ledger.stop();
    try {
      remember();
      const slots: bigint[] = [];
      const versions: { slot: bigint; accounts: AccountUpdate[] }[] = [];
      ref.slab.readExact(refIndex, VIEW_LATEST, snap);
      const quote = snap.reserveB;
      // Two buys (the localnet's traders hold no pump tokens to sell), of different sizes: both land in the
      // stopped slot, their writes leave for the stream together.
      for (const size of [2_000n, 3_000n + BigInt(round)]) {
        const out = net.simulator.swapNow(pool.address, false, quote / size);
        assert.equal(out.quote.status, 'OK');
        assert.ok(out.slot !== undefined, 'landed');
        slots.push(out.slot);
        // A swap on a pool of the primary right after: its writes reach ingest on the other stream meanwhile (with
        // one grouping for both streams, they would end the PumpSwap transaction's group halfway).
        const other = net.simulator.swapNow(cpmm.address, round % 2 === 0, (round % 2 === 0 ? cpmm.reserveA : cpmm.reserveB) / 5_000n);
        assert.ok(other.slot !== undefined, 'the primary pool swap landed');
        const accounts = out.written.map((a) => net.ledger.getAccount(a)!).map((v) => ({ address: v.address, owner: v.owner, lamports: v.lamports, data: v.data.slice(), slot: v.slot, writeVersion: v.writeVersion }));
        versions.push({ slot: out.slot, accounts });
      }
      for (const v of versions) {
        ref.core.applySnapshot(v.accounts, v.slot, false);
        remember();
      }
      assert.equal(slots[0], slots[1], 'both swaps in one slot');
      const final = [...expected].at(-1)!;
      await waitFor(() => slab.readExact(index, VIEW_LATEST, snap) && recordKey(snap) === final, 5000, 'the second swap');
    } finally {
      net.ledger.start();
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  const { images, reads } = await sampler.stop();
  assert.ok(reads > 1000, `${reads} reads`);
  assert.ok(images.length >= rounds, `${images.length} distinct images seen`);
  for (const img of images) assert.ok(expected.has(img), `an image no transaction boundary produced: ${img}`);
});

test('dropping an overflow stream reconnects it alone; its pools stay live', async () => {
  const pool = overflowPumpPool();
  const stats = () => runner.streamStats().map((s) => ({ connects: s.connects, messages: s.messages }));
  const before = stats();
  runner.dropStream(pool.stream);
  await waitFor(() => runner.streamStats()[pool.stream]!.connects > before[pool.stream]!.connects && runner.stats.connected, 10_000, 'the stream to reconnect');
  // The others kept streaming (slot statuses every 100 ms) on the connection they had.
  await waitFor(() => stats().every((a, s) => s === pool.stream || a.messages > before[s]!.messages), 5000, 'the other streams to deliver');
  const after = stats();
  for (const [s, b] of before.entries()) if (s !== pool.stream) assert.equal(after[s]!.connects, b.connects, `stream ${s} did not reconnect`);
  const index = poolIndexOf(slab, pool.address);
  const snap = newExactSnapshot();
  assert.ok(slab.readExact(index, VIEW_LATEST, snap));
  // Buy with a thousandth of the pool's SOL.
  const out = net.simulator.swapNow(pool.address, false, snap.reserveB / 1_000n);
  assert.equal(out.quote.status, 'OK');
  assert.ok(out.slot !== undefined);
  await waitFor(() => slab.readExact(index, VIEW_LATEST, snap) && snap.slot >= out.slot!, 5000, 'the swap after the reconnect');
  const ref = await referenceCore();
  const refSnap = newExactSnapshot();
  ref.slab.readExact(poolIndexOf(ref.slab, pool.address), VIEW_LATEST, refSnap);
  await waitFor(() => slab.readExact(index, VIEW_LATEST, snap) && quotable(snap) === quotable(refSnap), 5000, 'the record to match the chain');
});

test("an overflow stream kept away past the replay window resyncs its own accounts; the others do not reconnect", async () => {
  const pool = overflowPumpPool();
  const index = poolIndexOf(slab, pool.address);
  const snap = newExactSnapshot();
  const connects = runner.streamStats().map((s) => s.connects);
  const resyncs = runner.stats.resyncs;
  // Its stream drops and cannot come back for 6 s (the window is 4 s); a buy lands meanwhile.
  net.geyser.refuseStreams(6000);
  runner.dropStream(pool.stream);
  await waitFor(() => !runner.streamStats()[pool.stream]!.connected, 2000, 'the stream to drop');
  assert.ok(slab.readExact(index, VIEW_LATEST, snap));
  const out = net.simulator.swapNow(pool.address, false, snap.reserveB / 1_000n);
  assert.equal(out.quote.status, 'OK');
  await waitFor(() => runner.stats.resyncs > resyncs && !runner.stats.resyncPending, 20_000, "the stream's resync");
  assert.equal(runner.stats.reloads, 0);
  for (const [s, c] of connects.entries()) if (s !== pool.stream) assert.equal(runner.streamStats()[s]!.connects, c, `stream ${s} did not reconnect`);
  const ref = await referenceCore();
  const refSnap = newExactSnapshot();
  ref.slab.readExact(poolIndexOf(ref.slab, pool.address), VIEW_LATEST, refSnap);
  await waitFor(() => slab.readExact(index, VIEW_LATEST, snap) && quotable(snap) === quotable(refSnap), 5000, 'the record to match the chain');
});

test('pools launched while streaming go to a stream with room, a new one when none has, and beyond the cap are not watched', async () => {
  const u = net.universe;
  const launch = (seed: string, count: number): DexSeedPool[] => {
    const r = pumpswapScaleSeeder(count)({
      seed,
      sol: u.token('SOL')!,
      usdc: u.token('USDC')!,
      usdt: u.token('USDT')!,
      tokens: new Map(u.tokens.map((t) => [t.symbol, t])),
      genesisSlot: net.ledger.slot,
      addSupply: () => undefined,
    });
    net.ledger.write(r.accounts.filter((a) => !net.ledger.getAccount(a.address)));
    return [...r.pools];
  };
  const streamsBefore = runner.stats.streams;
  assert.ok(streamsBefore < 4, `${streamsBefore} streams open: room for one more`);
  // Enough to fill what is left and open the next stream (an overflow stream holds about six of them at 1,200 bytes).
  const first = launch('late-overflow-1', 8);
  await waitFor(() => first.every((p) => runner.streamOf(p.address) !== undefined), 10_000, 'the launched pools to be placed');
  await waitFor(() => runner.stats.streams > streamsBefore && runner.stats.connected, 10_000, 'a new stream');
  assert.equal(core.unwatchedPools, 0);
  const newest = first.find((p) => runner.streamOf(p.address) === runner.stats.streams - 1)!;
  assert.ok(newest, 'a launched pool on the stream just opened');
  const index = poolIndexOf(slab, newest.address);
  const snap = newExactSnapshot();
  await waitFor(() => slab.readExact(index, VIEW_LATEST, snap) && snap.status === 0, 5000, 'its record');
  // The localnet's traders hold no account for a token launched after genesis: a deposit into the pool's quote
  // vault (a write of that account, as a transfer makes) moves its state instead.
  const quoteVault = net.ledger.getAccount(newest.dependencies[4]!)!;
  const fields = decodeTokenAccount(quoteVault.data);
  net.ledger.write([{ address: quoteVault.address, owner: quoteVault.owner, lamports: quoteVault.lamports + 1_000_000_000n, data: encodeTokenAccount({ ...fields, amount: fields.amount + 1_000_000_000n }) }]);
  const ref = await referenceCore();
  const refSnap = newExactSnapshot();
  ref.slab.readExact(poolIndexOf(ref.slab, newest.address), VIEW_LATEST, refSnap);
  await waitFor(() => slab.readExact(index, VIEW_LATEST, snap) && quotable(snap) === quotable(refSnap), 5000, 'the record of a pool on the new stream to match the chain');

  // Past the cap: every stream full, the next pools are written not tradable and counted.
  const second = launch('late-overflow-2', 30);
  const unwatched = (p: DexSeedPool): boolean => {
    const i = core.registry.get(p.address)?.index;
    return i !== undefined && slab.readExact(i, VIEW_LATEST, snap) && snap.status === RECORD_STATUS_UNWATCHED;
  };
  // Each launched pool ends placed on a stream or left out, once its accounts are read.
  await waitFor(() => second.every((p) => runner.streamOf(p.address) !== undefined || unwatched(p)), 10_000, 'every launched pool placed or left out');
  assert.ok(core.unwatchedPools > 0, 'some left out');
  assert.equal(runner.stats.streams, 4, 'the cap');
  assert.equal(runner.feedStatus().unwatchedPools, core.unwatchedPools);
  const out2 = second.filter((p) => runner.streamOf(p.address) === undefined);
  assert.equal(out2.length, core.unwatchedPools);
  for (const p of out2) assert.ok(unwatched(p), `${p.address} written not tradable`);
});
