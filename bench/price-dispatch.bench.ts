/**
 * Where should a price be computed? A single price and a batch of 50 read directly on the calling thread, beside
 * the same work sent as one piscina task to a quote worker, and piscina's bare round trip as the floor.
 * Run: node dist/bench/price-dispatch.bench.js
 */
import { Bench } from 'tinybench';
import { BONK, PRICE_UNIVERSE_ACCOUNTS } from '../fixtures/synthetic/price-universe.js';
import { ADAPTERS_BY_DEX_INDEX } from '../engine/adapters/by-dex-index.js';
import { ADAPTERS } from '../engine/adapters/registry.js';
import { Catalog } from '../engine/catalog/catalog.js';
import { WSOL_MINT } from '../engine/catalog/tokens.js';
import { IngestCore } from '../engine/ingest/ingest-core.js';
import { PriceDeriver } from '../engine/router/price.js';
import { MintTable } from '../engine/slab/mint-table.js';
import { PoolSlab } from '../engine/slab/pool-slab.js';
import { Topology } from '../engine/slab/topology.js';
import { QuotePool } from '../workers/quote-pool.js';

const slab = PoolSlab.create(64, 64);
const mints = MintTable.create(64, 64);
new IngestCore({ slab, mints, adapters: ADAPTERS, onChange: () => undefined }).applySnapshot(PRICE_UNIVERSE_ACCOUNTS, 10n);
const deriver = new PriceDeriver({ slab, mints, topology: new Topology(slab), adapters: ADAPTERS_BY_DEX_INDEX }, new Catalog());
const pool = new QuotePool({ poolSab: slab.sab, extSab: slab.ext.sab, mintSab: mints.sab, threads: 1, tasksPerWorker: 8 });
await pool.ping();

const one = [{ token: 'SOL', mint: WSOL_MINT }];
const fifty = Array.from({ length: 50 }, (_, i) => (i % 2 ? { token: 'SOL', mint: WSOL_MINT } : { token: 'BONK', mint: BONK }));

const bench = new Bench({ time: 2000, warmupTime: 300 });
bench
  .add('price SOL: direct read on this thread', () => {
    deriver.price('SOL', WSOL_MINT, false);
  })
  .add('price BONK (multi-hop): direct read', () => {
    deriver.price('BONK', BONK, false);
  })
  .add('price SOL: one piscina task', async () => {
    await pool.prices(one, false);
  })
  .add('50 prices: direct reads', () => {
    for (const t of fifty) deriver.price(t.token, t.mint, false);
  })
  .add('50 prices: one piscina task', async () => {
    await pool.prices(fifty, false);
  })
  .add('piscina no-op round trip (floor)', async () => {
    await pool.ping();
  });
await bench.run();
console.table(
  bench.tasks.map((t) => {
    const r = t.result as unknown as { latency?: { p50?: number; p99?: number; mean?: number }; throughput?: { mean?: number } } | undefined;
    return {
      task: t.name,
      'mean µs': r?.latency?.mean !== undefined ? (r.latency.mean * 1000).toFixed(2) : '?',
      'p50 µs': r?.latency?.p50 !== undefined ? (r.latency.p50 * 1000).toFixed(2) : '?',
      'p99 µs': r?.latency?.p99 !== undefined ? (r.latency.p99 * 1000).toFixed(2) : '?',
      'ops/s': r?.throughput?.mean !== undefined ? Math.round(r.throughput.mean) : '?',
    };
  }),
);
await pool.close();
