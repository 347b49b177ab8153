/**
 * The service's Prometheus metrics (`GET /metrics`, text format 0.0.4) over `prom-client`, in a registry of this
 * service instance (never the global default: two services in one process keep their own counts).
 *
 * On the request path only {@link ServiceMetrics.observe} runs: once per request, with its final status (the
 * pipeline's outcome observer). Its label children are resolved once per route and status and kept, so a request
 * costs one counter increment and one histogram observation. Everything else (SSE, ingest, slab, worker queue)
 * is read lazily from {@link MetricsSources} when a scrape asks (`collect()`), never updated per event.
 */
import { performance } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
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

/** One route's label children, resolved once. */
interface RouteChildren {
  readonly latency: { observe(v: number): void };
  readonly byStatus: Map<number, { inc(): void }>;
  readonly refused: { inc(): void } | null;
}

/** The metrics of one service instance. */
export class ServiceMetrics {
  /** The registry `/metrics` serializes. */
  readonly registry = new Registry();
  private readonly requests: Counter<'route' | 'status'>;
  private readonly latency: Histogram<'route'>;
  private readonly refusals: Counter<'category'>;
  private readonly children = new Map<string, RouteChildren>();

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    this.requests = new Counter({ name: 'http_requests_total', help: 'Requests by route name and final status.', labelNames: ['route', 'status'], registers });
    this.latency = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request copied to its outcome known (reply serialized or stream opened), by route.',
      labelNames: ['route'],
      buckets: [...LATENCY_BUCKETS_S],
      registers,
    });
    this.refusals = new Counter({ name: 'rate_limit_refusals_total', help: 'Requests refused with 429 by the rate limit, by category.', labelNames: ['category'], registers });
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
      help: "Slots ingest trails the chain's processed slot (absent while the chain's slot is unknown).",
      registers,
      collect() {
        const lag = sources.ingest().slotLag;
        if (lag === null) this.reset();
        else this.set(lag);
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
    let c = this.children.get(route.name);
    if (c === undefined) {
      c = {
        latency: this.latency.labels(route.name),
        byStatus: new Map(),
        refused: route.meter === null ? null : this.refusals.labels(route.meter),
      };
      this.children.set(route.name, c);
    }
    let s = c.byStatus.get(status);
    if (s === undefined) {
      s = this.requests.labels(route.name, String(status));
      c.byStatus.set(status, s);
    }
    s.inc();
    if (status === 429) c.refused?.inc();
    if (ctx.startedAt !== undefined) c.latency.observe((performance.now() - ctx.startedAt) / 1000);
  }

  /** The text exposition of every metric now. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}
