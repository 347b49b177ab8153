/**
 * Piscina quote worker: read-only over the shared slabs; answers price batches (and later quotes and routes)
 * through the versioned task protocol. One task per request, never one per pool.
 */
import { workerData } from 'node:worker_threads';
import { ADAPTERS_BY_DEX_INDEX } from '../engine/adapters/by-dex-index.js';
import { Catalog } from '../engine/catalog/catalog.js';
import { loadCatalogTokens } from '../engine/catalog/load.js';
import { PriceDeriver } from '../engine/router/price.js';
import { RouteSearcher } from '../engine/router/route-search.js';
import { newF64Snapshot } from '../engine/slab/pool-snapshot.js';
import { VIEW_LATEST } from '../engine/slab/pool-slab.js';
import { MintTable } from '../engine/slab/mint-table.js';
import { PoolSlab } from '../engine/slab/pool-slab.js';
import { Topology } from '../engine/slab/topology.js';
import bs58 from 'bs58';
import { TASK_PROTOCOL_VERSION, type PingResult, type PricesResult, type QuoteTask, type QuoteWorkerData, type RouteResult, type RouteTask } from './protocol.js';
import type { RouteWire } from '../engine/router/route-wire.js';

const data = workerData as QuoteWorkerData;
// attach() checks magic and layout version: a worker built for another layout refuses to read.
const slab = PoolSlab.attach(data.poolSab, data.extSab, data.arraySab);
const mints = MintTable.attach(data.mintSab);
const source = { slab, mints, topology: new Topology(slab), adapters: ADAPTERS_BY_DEX_INDEX };
const deriver = new PriceDeriver(source, new Catalog(loadCatalogTokens(data.catalogFile)));
// One searcher per thread: it owns the scratch snapshots every search reuses.
const searcher = new RouteSearcher(source);
const scratch = newF64Snapshot();
const addresses = new Map<number, string>();
const cancelWords = data.cancelSab ? new Int32Array(data.cancelSab) : null;

/** The piscina task entry. */
export default function run(task: QuoteTask): PricesResult | PingResult | RouteResult {
  if (task.v !== TASK_PROTOCOL_VERSION) throw new Error(`task protocol v${String(task.v)} != worker v${TASK_PROTOCOL_VERSION}`);
  if (task.kind === 'ping') return { v: TASK_PROTOCOL_VERSION, pong: true };
  if (task.kind === 'route') return route(task);
  const now = Date.now();
  return { v: TASK_PROTOCOL_VERSION, entries: deriver.batch(() => task.items.map((i) => deriver.price(i.token, i.mint, task.optimistic, now))) };
}

function poolAddress(pool: number): string {
  let a = addresses.get(pool);
  if (a === undefined) {
    a = bs58.encode(slab.address(pool));
    addresses.set(pool, a);
  }
  return a;
}

/** The cancel check of a task: its word in the pool's cancel words, read atomically (undefined: not cancellable). */
function cancelCheck(task: RouteTask): (() => boolean) | undefined {
  const slot = task.cancelSlot;
  if (cancelWords === null || slot === undefined || slot < 0 || slot >= cancelWords.length) return undefined;
  return () => Atomics.load(cancelWords, slot) !== 0;
}

/** One route search over the slabs in place; pools and mints leave as base58. */
function route(task: RouteTask): RouteResult {
  const contextSlot = slab.processedSlot();
  const cancelled = cancelCheck(task);
  // Why before anything: a task abandoned while it waited in the queue costs one message, not a search.
  if (cancelled?.()) return { v: TASK_PROTOCOL_VERSION, ok: false, code: 'CANCELLED', message: 'route task cancelled before it started', contextSlot };
  const inputMint = mints.idOf(task.inputMint);
  const outputMint = mints.idOf(task.outputMint);
  if (inputMint === undefined || outputMint === undefined) {
    return { v: TASK_PROTOCOL_VERSION, ok: false, code: 'NO_ROUTE', message: 'no indexed pool holds one of the mints', contextSlot };
  }
  const nowMs = Date.now();
  const r = searcher.search({
    inputMint,
    outputMint,
    amount: task.amount,
    mode: task.mode,
    maxHops: task.maxHops,
    onlyDirectRoutes: task.onlyDirectRoutes,
    ...(task.dexes.length > 0 ? { dexes: task.dexes } : {}),
    excludeDexes: task.excludeDexes,
    restrictIntermediateTokens: task.restrictIntermediateTokens,
    deadlineMs: performance.now() + (task.deadlineEpochMs - nowMs),
    nowMs,
    maxAccounts: task.maxAccounts,
    cancelled,
    collectPools: task.collectPools === true,
  });
  if (!r.ok) return { v: TASK_PROTOCOL_VERSION, ok: false, code: r.code, message: r.message, contextSlot };
  const routes: RouteWire[] = r.routes.map((rt) => {
    let oldest = nowMs;
    let confirmed = true;
    for (const h of rt.hops) {
      if (!slab.readF64(h.pool, VIEW_LATEST, scratch)) continue;
      if (scratch.updatedAtMs < oldest) oldest = scratch.updatedAtMs;
      if (!scratch.confirmed) confirmed = false;
    }
    return {
      hops: rt.hops.map((h) => ({
        dex: h.dex,
        poolAddress: poolAddress(h.pool),
        inputMint: mints.mintOf(h.inputMint),
        outputMint: mints.mintOf(h.outputMint),
        inAmount: h.inAmount,
        outAmount: h.outAmount,
        feeAmount: h.feeAmount,
        feeMint: mints.mintOf(h.feeMint),
        feeBps: h.feeBps,
      })),
      inAmount: rt.inAmount,
      outAmount: rt.outAmount,
      priceImpactBps: rt.priceImpactBps,
      feeBps: rt.feeBps,
      poolCacheAgeMs: Math.max(0, nowMs - oldest),
      confirmed,
    };
  });
  if (r.watched === undefined) return { v: TASK_PROTOCOL_VERSION, ok: true, routes, contextSlot };
  return { v: TASK_PROTOCOL_VERSION, ok: true, routes, contextSlot, watch: r.watched };
}
