/**
 * What the metrics cost on the request path: the request pipeline (auth -> handler -> serialize, a pro key, no
 * limiter) on a bare route without an outcome observer (the baseline), then with the service's metrics observer
 * (request counter by route and status, latency histogram by route), and the observer alone; and what one scrape
 * costs (`/metrics` text) with 60 routes x 3 statuses counted. Run: node dist/bench/metrics-observe.bench.js
 */
import { performance } from 'node:perf_hooks';
import { Bench } from 'tinybench';
import { KeyDirectory } from '../engine/keys/key-directory.js';
import { generateApiKey, hashApiKey } from '../engine/keys/key-material.js';
import { keyAuth } from '../http/auth.js';
import { ServiceMetrics } from '../http/metrics.js';
import { runPipeline, type PipelineStages } from '../http/pipeline.js';
import { noRateLimit } from '../http/rate-limit.js';
import { createRequestContext, type RequestContext } from '../http/request-context.js';
import type { RouteDef } from '../http/route.js';

const route = (name: string): RouteDef => ({
  name,
  method: 'get',
  pattern: `/${name}`,
  auth: 'none',
  apiKeyQuery: false,
  meter: 'prices',
  anonCacheTtlMs: 0,
  handler: () => ({ status: 200, body: '{"ok":true}' }),
});
const price = route('price');

const directory = new KeyDirectory({ changedSince: async () => ({ rows: [], now: new Date() }) });
const key = generateApiKey();
directory.apply({ id: 1, keyHash: hashApiKey(key), tier: 'pro', revokedAt: null });
const auth = keyAuth((k) => directory.lookup(k));

const metrics = new ServiceMetrics({
  sseClients: () => 3,
  sseCounts: () => ({ frames: 1000, writes: 900, slowDropped: 0 }),
  ingest: () => ({ connected: true, slotLag: 1, updatesApplied: 123_456 }),
  slab: () => ({ pools: 20_000, capacity: 32_768, maxPools: 262_144 }),
  quoteQueue: () => 0,
});
const plain: PipelineStages = { auth, rateLimit: noRateLimit, cache: null };
const observed: PipelineStages = { auth, rateLimit: noRateLimit, cache: null, observe: (ctx, r, s) => metrics.observe(ctx, r, s) };
// As the shell builds it: the copy time taken when the request is copied.
const ctx = (): RequestContext => Object.assign(createRequestContext({ path: '/price', headers: { 'x-api-key': key } }), { startedAt: performance.now() });

// A scrape over a realistic label set: 60 routes, each seen with 3 statuses.
const scraped = new ServiceMetrics({
  sseClients: () => 3,
  sseCounts: () => ({ frames: 1000, writes: 900, slowDropped: 0 }),
  ingest: () => ({ connected: true, slotLag: 1, updatesApplied: 123_456 }),
  slab: () => ({ pools: 20_000, capacity: 32_768, maxPools: 262_144 }),
  quoteQueue: () => 0,
});
for (let r = 0; r < 60; r++) for (const s of [200, 404, 429]) scraped.observe(ctx(), route(`route-${r}`), s);

const bench = new Bench({ time: 2000, warmupTime: 300 });
bench
  .add('pipeline, pro key, no observer (baseline)', () => {
    runPipeline(price, ctx(), plain);
  })
  .add('pipeline, pro key, metrics observer', () => {
    runPipeline(price, ctx(), observed);
  })
  .add('metrics.observe alone', () => {
    metrics.observe(ctx(), price, 200);
  })
  .add('one scrape (60 routes x 3 statuses)', async () => {
    await scraped.text();
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
console.log(`scrape size: ${(await scraped.text()).length} bytes`);
