/**
 * The service's Prometheus metrics (`GET /metrics`, text format 0.0.4) over `prom-client`, in a registry of this
 * service instance (never the global default: two services in one process keep their own counts).
 *
 * On the request path only {@link ServiceMetrics.observe} runs: once per request, with its final status (the
 * pipeline's outcome observer), counting into plain per-route numbers that prom-client reads at scrape time (no
 * label hashing per request). Everything else (SSE, ingest, slab, worker queue)
 * is read lazily from {@link MetricsSources} when a scrape asks (`collect()`), never updated per event.
 */
import { performance } from 'node:perf_hooks';
import { Counter, Gauge, Registry, type Metric } from 'prom-client';
import type { RequestContext } from './request-context.js';
import type { RouteDef } from './route.js';

/** The content type of the Prometheus text exposition format. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Upper bounds of the latency histogram in seconds: 50 µs to 5 s (price hits are sub-ms, swap builds seconds). */
export const LATENCY_BUCKETS_S: readonly number[] = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** What the SSE hub has counted since start. */
export interface SseCounts {
  /** Frames queued to clients after their opening frame (before coalescing; replaced ones included). */
  readonly frames: number;
  /** Socket writes (coalesced frames of one tick go out in one write). */
  readonly writes: number;
  /** Clients dropped for falling too far behind. */
  readonly slowDropped: number;
}

/** What ingest reports, read at scrape time. */
export interface IngestReading {
  /** A Geyser stream is subscribed now. */
  readonly connected: boolean;
  /** Slots ingest trails the chain's processed slot (null while the chain's slot is unknown). */
  readonly slotLag: number | null;
  /** Account updates applied since start. */
  readonly updatesApplied: number;
}

/** The readings behind the gauges, called only when `/metrics` is scraped. */
export interface MetricsSources {
  readonly sseClients: () => number;
  readonly sseCounts: () => SseCounts;
  readonly ingest: () => IngestReading;
  /** Pools indexed in the slab, its current room and its ceiling (`SLAB_MAX_POOLS`). */
  readonly slab: () => { readonly pools: number; readonly capacity: number; readonly maxPools: number };
  /** Tasks waiting in the quote worker pool's queue. */
  readonly quoteQueue: () => number;
}

/** One route's counts, kept as plain numbers on the request path and handed to prom-client at scrape time. */
interface RouteCounts {
  readonly name: string;
  /** Requests by final status. */
  readonly byStatus: Map<number, number>;
  /** Latency observations per bucket (not cumulative); the last slot is above the top bound. */
  readonly buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * The latency histogram family, read from the per-route counts when scraped. Why not prom-client's Histogram:
 * its `observe` validates and hashes the labels on every call (about 1 µs a request here, bench/README.md,
 * "Metrics on the request path"); this keeps the request path to a map lookup and three additions. It has the
 * shape the registry serializes (name, help, type, get, reset).
 */
class LatencyFamily {
  readonly name = 'http_request_duration_seconds';
  readonly help = 'Time from the request copied to its outcome known (reply serialized or stream opened), by route.';
  readonly type = 'histogram';
  readonly aggregator = 'sum';

  constructor(private readonly routes: ReadonlyMap<string, RouteCounts>) {}

  /** The samples, prom-client's metric object shape. */
  async get(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: { labels: Record<string, string | number>; value: number; metricName: string }[] }> {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const r of this.routes.values()) {
      let acc = 0;
      for (let i = 0; i < LATENCY_BUCKETS_S.length; i++) {
        acc += r.buckets[i]!;
        values.push({ labels: { le: LATENCY_BUCKETS_S[i]!, route: r.name }, value: acc, metricName: `${this.name}_bucket` });
      }
      values.push({ labels: { le: '+Inf', route: r.name }, value: r.count, metricName: `${this.name}_bucket` });
      values.push({ labels: { route: r.name }, value: r.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { route: r.name }, value: r.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: 'histogram', aggregator: 'sum', values };
  }

  /** Nothing to reset: the counts belong to the service (the registry's resetMetrics is never called). */
  reset(): void {}
}

/** The metrics of one service instance. */
export class ServiceMetrics {
  /** The registry `/metrics` serializes. */
  readonly registry = new Registry();
  private readonly routes = new Map<string, RouteCounts>();
  /** 429s by rate-limit category. */
  private readonly refused = new Map<string, number>();

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    const routes = this.routes;
    const refused = this.refused;
    new Counter({
      name: 'http_requests_total',
      help: 'Requests by route name and final status.',
      labelNames: ['route', 'status'],
      registers,
      collect() {
        // Why reset then inc: the counts live in plain maps on the request path; a counter has no set().
        this.reset();
        for (const r of routes.values()) for (const [status, n] of r.byStatus) this.inc({ route: r.name, status: String(status) }, n);
      },
    });
    this.registry.registerMetric(new LatencyFamily(routes) as unknown as Metric);
    new Counter({
      name: 'rate_limit_refusals_total',
      help: 'Requests refused with 429 by the rate limit, by category.',
      labelNames: ['category'],
      registers,
      collect() {
        this.reset();
        for (const [category, n] of refused) this.inc({ category }, n);
      },
    });
    new Gauge({
      name: 'sse_clients',
      help: 'SSE clients connected now.',
      registers,
      collect() {
        this.set(sources.sseClients());
      },
    });
    const sseCounter = (name: string, help: string, pick: (c: SseCounts) => number): void => {
      new Counter({
        name,
        help,
        registers,
        collect() {
          // Why reset then inc: the count lives in the hub; a counter has no set().
          this.reset();
          this.inc(pick(sources.sseCounts()));
        },
      });
    };
    sseCounter('sse_frames_total', 'SSE frames queued to clients after the opening frame (coalesced into writes).', (c) => c.frames);
    sseCounter('sse_writes_total', 'SSE socket writes (the frames of one tick coalesced).', (c) => c.writes);
    sseCounter('sse_slow_clients_dropped_total', 'SSE clients dropped for falling too far behind.', (c) => c.slowDropped);
    new Gauge({
      name: 'ingest_stream_connected',
      help: '1 while the Geyser stream is subscribed.',
      registers,
      collect() {
        this.set(sources.ingest().connected ? 1 : 0);
      },
    });
    new Gauge({
      name: 'ingest_slot_lag',
      help: "Slots ingest trails the chain's processed slot (NaN while the chain's slot is unknown).",
      registers,
      collect() {
        this.set(sources.ingest().slotLag ?? NaN);
      },
    });
    new Counter({
      name: 'ingest_updates_applied_total',
      help: 'Account updates ingest applied to the slab (reported by the ingest worker once a second).',
      registers,
      collect() {
        this.reset();
        this.inc(sources.ingest().updatesApplied);
      },
    });
    const slabGauge = (name: string, help: string, pick: (s: ReturnType<MetricsSources['slab']>) => number): void => {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(pick(sources.slab()));
        },
      });
    };
    slabGauge('slab_pools', 'Pools indexed in the pool slab.', (s) => s.pools);
    slabGauge('slab_capacity_pools', 'Pools the slab holds before it grows.', (s) => s.capacity);
    slabGauge('slab_max_pools', 'Pools the slab may grow to (SLAB_MAX_POOLS).', (s) => s.maxPools);
    new Gauge({
      name: 'quote_pool_queue_depth',
      help: 'Tasks waiting in the quote worker pool queue.',
      registers,
      collect() {
        this.set(sources.quoteQueue());
      },
    });
  }

  /** Counts one request with its final status (the pipeline's outcome observer). */
  observe(ctx: RequestContext, route: RouteDef, status: number): void {
    let r = this.routes.get(route.name);
    if (r === undefined) {
      r = { name: route.name, byStatus: new Map(), buckets: new Float64Array(LATENCY_BUCKETS_S.length + 1), sum: 0, count: 0 };
      this.routes.set(route.name, r);
    }
    r.byStatus.set(status, (r.byStatus.get(status) ?? 0) + 1);
    if (status === 429 && route.meter !== null) this.refused.set(route.meter, (this.refused.get(route.meter) ?? 0) + 1);
    if (ctx.startedAt === undefined) return;
    const s = (performance.now() - ctx.startedAt) / 1000;
    let i = 0;
    while (i < LATENCY_BUCKETS_S.length && s > LATENCY_BUCKETS_S[i]!) i++;
    r.buckets[i]!++;
    r.sum += s;
    r.count++;
  }

  /** The text exposition of every metric now. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}
