/**
 * Piscina quote worker: read-only over the shared slabs; answers price batches (and later quotes and routes)
 * through the versioned task protocol. One task per request, never one per pool.
 */
import { workerData } from 'node:worker_threads';
import { ADAPTERS_BY_DEX_INDEX } from '../engine/adapters/by-dex-index.js';
import { Catalog } from '../engine/catalog/catalog.js';
import { loadCatalogTokens } from '../engine/catalog/load.js';
import { PriceDeriver } from '../engine/router/price.js';
import { MintTable } from '../engine/slab/mint-table.js';
import { PoolSlab } from '../engine/slab/pool-slab.js';
import { Topology } from '../engine/slab/topology.js';
import { TASK_PROTOCOL_VERSION, type PingResult, type PricesResult, type QuoteTask, type QuoteWorkerData } from './protocol.js';

const data = workerData as QuoteWorkerData;
// attach() checks magic and layout version: a worker built for another layout refuses to read.
const slab = PoolSlab.attach(data.poolSab, data.extSab);
const mints = MintTable.attach(data.mintSab);
const deriver = new PriceDeriver(
  { slab, mints, topology: new Topology(slab), adapters: ADAPTERS_BY_DEX_INDEX },
  new Catalog(loadCatalogTokens(data.catalogFile)),
);

/** The piscina task entry. */
export default function run(task: QuoteTask): PricesResult | PingResult {
  if (task.v !== TASK_PROTOCOL_VERSION) throw new Error(`task protocol v${String(task.v)} != worker v${TASK_PROTOCOL_VERSION}`);
  if (task.kind === 'ping') return { v: TASK_PROTOCOL_VERSION, pong: true };
  const now = Date.now();
  return { v: TASK_PROTOCOL_VERSION, entries: deriver.batch(() => task.items.map((i) => deriver.price(i.token, i.mint, task.optimistic, now))) };
}
