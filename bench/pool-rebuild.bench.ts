/**
 * Pool rebuild cost per DEX: what ingest does for every pool an account update touches, `buildState` from the
 * pool's accounts plus `toRecord` into a record image, on the default localnet universe's pools (every DEX, the
 * same accounts ingest would see). Raydium CPMM is the baseline. Each task rebuilds all of that DEX's quotable
 * pools per iteration; the result is reported per rebuild. Decoded configs are cached per account buffer (ingest
 * hands the same buffer until the account changes), as in production. A second task per DEX adds the seqlocked slab
 * write ingest makes next (for DBC, the curve's extension interned in the slab's extension region).
 * Run: `npx tsc -p tsconfig.json && node dist/bench/pool-rebuild.bench.js`. Results: bench/README.md.
 */
import os from 'node:os';
import { Bench } from 'tinybench';
import { adapterByProgramId } from '../engine/adapters/registry.js';
import type { ChainClock, DexAdapter, PoolDescriptor } from '../engine/adapters/types.js';
import { newRecordFields } from '../engine/ingest/ingest-core.js';
import { mintDecimalsOf } from '../engine/ingest/mint-decimals.js';
import { PoolSlab, VIEW_LATEST } from '../engine/slab/pool-slab.js';
import { buildUniverse } from '../fixtures/localnet/universe/universe.js';

const TIME_MS = 1500;
const universe = buildUniverse();
const byAddress = new Map(universe.accounts.map((a) => [a.address, { owner: a.owner ?? '11111111111111111111111111111111', data: a.data }]));
const clock: ChainClock = { slot: 300_000_000n, unixTimestamp: 1_800_000_000n, epoch: 694n };

interface Rebuild {
  readonly adapter: DexAdapter;
  readonly desc: PoolDescriptor;
  readonly data: Uint8Array;
  readonly deps: Map<string, Uint8Array>;
}

/** Every pool of the universe described as ingest describes it (inputs, mint decimals, owned token accounts). */
function rebuilds(): Map<string, Rebuild[]> {
  const out = new Map<string, Rebuild[]>();
  const addresses = [...universe.pools.map((p) => p.address), ...universe.dexPools.map((p) => p.address)];
  for (const address of addresses) {
    const acc = byAddress.get(address)!;
    const adapter = adapterByProgramId(acc.owner)!;
    const keys = [...(adapter.descriptorInputs?.(acc.data) ?? [])];
    if (adapter.describedByOwnedTokenAccounts) keys.push(...(universe.dexPools.find((p) => p.address === address)?.dependencies ?? []));
    const inputs = new Map(keys.filter((k) => byAddress.has(k)).map((k) => [k, byAddress.get(k)!]));
    const decimals = (m: string): number | undefined => {
      const a = byAddress.get(m);
      return a ? mintDecimalsOf(a.owner, a.data) : undefined;
    };
    const desc = adapter.decodePool(address, acc.data, decimals, inputs);
    if (!desc) throw new Error(`${adapter.dex} pool ${address} does not decode`);
    const deps = new Map(desc.dependencies.map((d) => [d, byAddress.get(d)!.data]));
    const state = adapter.buildState(desc, acc.data, deps, clock);
    if (!state) throw new Error(`${adapter.dex} pool ${address} does not build`);
    const list = out.get(adapter.dex) ?? [];
    list.push({ adapter, desc, data: acc.data, deps });
    out.set(adapter.dex, list);
  }
  return out;
}

const all = rebuilds();
const rec = newRecordFields();
const slab = PoolSlab.create(256, 256);
const slabIndex = new Map<Rebuild, number>();
for (const list of all.values()) for (const r of list) slabIndex.set(r, slab.addPool(new Uint8Array(32), 0, 0, 1));
const bench = new Bench({ time: TIME_MS });
for (const [dex, list] of all) {
  bench.add(dex, () => {
    for (const r of list) {
      const s = r.adapter.buildState(r.desc, r.data, r.deps, clock);
      r.adapter.toRecord(s!, rec);
    }
  });
  bench.add(`${dex} + slab write`, () => {
    for (const r of list) {
      const s = r.adapter.buildState(r.desc, r.data, r.deps, clock);
      const out = newRecordFields();
      r.adapter.toRecord(s!, out);
      slab.write(slabIndex.get(r)!, VIEW_LATEST, out, 300_000_000n, 0, false);
    }
  });
}
await bench.run();
console.log(`machine: ${os.cpus()[0]?.model ?? '?'} x${os.cpus().length}, node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
console.log('| DEX | pools | µs per rebuild | rebuilds/s | vs raydium-cpmm | µs with the slab write |');
console.log('|---|---:|---:|---:|---:|---:|');
const perRebuildUs = (task: string): number => {
  const t = bench.tasks.find((x) => x.name === task)!;
  const ms = (t.result as { latency?: { mean: number } }).latency?.mean ?? 0;
  return (ms * 1000) / all.get(task.replace(' + slab write', ''))!.length;
};
const base = perRebuildUs('raydium-cpmm');
for (const dex of all.keys()) {
  const us = perRebuildUs(dex);
  console.log(`| ${dex} | ${all.get(dex)!.length} | ${us.toFixed(2)} | ${Math.round(1e6 / us).toLocaleString('en-US')} | ${(us / base).toFixed(1)}x | ${perRebuildUs(`${dex} + slab write`).toFixed(2)} |`);
}
