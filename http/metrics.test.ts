/**
 * The metrics' request counts and latency histogram on their own: observed outcomes come out of the text
 * exposition with their route and status, cumulative buckets in seconds, 429s by category; the gauges read their
 * sources at scrape time.
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { LATENCY_BUCKETS_S, ServiceMetrics, type MetricsSources } from './metrics.js';
import { createRequestContext, type RequestContext } from './request-context.js';
import type { RouteDef } from './route.js';
import { parsePromText } from './testing/prom-text.js';

const route = (name: string, meter: RouteDef['meter']): RouteDef => ({
  name,
  method: 'get',
  pattern: `/${name}`,
  auth: 'none',
  apiKeyQuery: false,
  meter,
  anonCacheTtlMs: 0,
  handler: () => ({ status: 200, body: '' }),
});

/** A context copied `agoMs` ago. */
const ctxAgo = (agoMs: number): RequestContext => Object.assign(createRequestContext({ path: '/x' }), { startedAt: performance.now() - agoMs });

let clients = 0;
const sources: MetricsSources = {
  sseClients: () => clients,
  sseCounts: () => ({ frames: 7, writes: 5, slowDropped: 1 }),
  ingest: () => ({ connected: true, slotLag: null, updatesApplied: 42 }),
  slab: () => ({ pools: 10, capacity: 16, maxPools: 64 }),
  quoteQueue: () => 3,
};

test('outcomes are counted by route and status; latencies land in cumulative buckets in seconds; 429s by category', async () => {
  // A warm-up on another instance first: the first call's compile time must not land in the timed ones.
  new ServiceMetrics(sources).observe(ctxAgo(1), route('warm', null), 200);
  const m = new ServiceMetrics(sources);
  const price = route('price', 'prices');
  const health = route('health', null);
  m.observe(ctxAgo(2), price, 200);
  m.observe(ctxAgo(30), price, 200);
  m.observe(ctxAgo(300), price, 429);
  m.observe(ctxAgo(0.2), health, 503);
  m.observe(createRequestContext({ path: '/x' }), health, 200); // no copy time: counted, not timed
  const s = parsePromText(await m.text());
  assert.equal(s.value('http_requests_total', { route: 'price', status: '200' }), 2);
  assert.equal(s.value('http_requests_total', { route: 'price', status: '429' }), 1);
  assert.equal(s.value('http_requests_total', { route: 'health', status: '503' }), 1);
  assert.equal(s.value('http_requests_total', { route: 'health', status: '200' }), 1);
  assert.equal(s.value('rate_limit_refusals_total', { category: 'prices' }), 1);
  assert.equal(s.value('http_request_duration_seconds_count', { route: 'price' }), 3);
  assert.equal(s.value('http_request_duration_seconds_count', { route: 'health' }), 1);
  const bucket = (le: string): number | undefined => s.value('http_request_duration_seconds_bucket', { route: 'price', le });
  // Margins of 0.5 ms and more over each observation: the bucket does not depend on how fast the test runs.
  assert.equal(bucket('0.001'), 0, 'nothing under 1 ms');
  assert.equal(bucket('0.0025'), 1, '2 ms');
  assert.equal(bucket('0.025'), 1);
  assert.equal(bucket('0.05'), 2, '30 ms');
  assert.equal(bucket('0.25'), 2);
  assert.equal(bucket('0.5'), 3, '300 ms');
  assert.equal(bucket('+Inf'), 3);
  assert.equal(s.types.get('http_request_duration_seconds'), 'histogram');
  const sum = s.value('http_request_duration_seconds_sum', { route: 'price' })!;
  assert.ok(sum >= 0.332 && sum < 1, `sum ${sum} s`);
  // Every bound appears, in order, and the counts never decrease.
  let prev = 0;
  for (const b of LATENCY_BUCKETS_S) {
    const v = bucket(String(b));
    assert.ok(v !== undefined && v >= prev, `bucket ${b}`);
    prev = v;
  }
});

test('gauges read their sources when scraped; an unknown slot lag is NaN', async () => {
  const m = new ServiceMetrics(sources);
  clients = 2;
  let s = parsePromText(await m.text());
  assert.equal(s.value('sse_clients'), 2);
  clients = 0;
  s = parsePromText(await m.text());
  assert.equal(s.value('sse_clients'), 0);
  assert.equal(s.value('sse_frames_total'), 7);
  assert.equal(s.value('sse_writes_total'), 5);
  assert.equal(s.value('sse_slow_clients_dropped_total'), 1);
  assert.equal(s.value('ingest_stream_connected'), 1);
  assert.equal(s.value('ingest_updates_applied_total'), 42);
  assert.ok(Number.isNaN(s.value('ingest_slot_lag')));
  assert.equal(s.value('slab_pools'), 10);
  assert.equal(s.value('slab_capacity_pools'), 16);
  assert.equal(s.value('slab_max_pools'), 64);
  assert.equal(s.value('quote_pool_queue_depth'), 3);
});

test('two instances keep their own counts', async () => {
  const a = new ServiceMetrics(sources);
  const b = new ServiceMetrics(sources);
  a.observe(ctxAgo(1), route('price', 'prices'), 200);
  assert.equal(parsePromText(await a.text()).value('http_requests_total', { route: 'price', status: '200' }), 1);
  assert.equal(parsePromText(await b.text()).value('http_requests_total', { route: 'price', status: '200' }), undefined);
});
