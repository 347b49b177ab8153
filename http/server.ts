/**
 * Assembles the HTTP shell: the uWS app (native only), the route table behind the fixed pipeline, the SSE hub
 * and price fan-out, CORS, the 404 fallback, and a graceful close.
 */
import type { QuoteService } from '../engine/services/quote-service.js';
import type { AttestationService } from '../engine/services/attestation-service.js';
import type { TxStatusService } from '../engine/services/tx-status-service.js';
import type { SendService } from '../engine/services/send-service.js';
import type { TxTrackingService } from '../engine/services/tx-tracking-service.js';
import type { SwapSubmitService } from '../engine/services/swap-submit-service.js';
import type { SwapBuildService } from '../engine/services/swap-build-service.js';
import type { MarketData } from '../engine/services/market-data.js';
import type { PriceHistory } from '../engine/services/price-history.js';
import type { AccountStreams } from '../engine/services/account-streams.js';
import type { QuoteStreams } from '../engine/services/quote-stream.js';
import type { TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import type { PriceService } from '../engine/services/price-service-types.js';
import { AnonymousCache } from './anon-cache.js';
import type { AuthStage } from './auth.js';
import { ApiError } from './errors.js';
import { log } from './log.js';
import {
  CORS_HEADERS,
  mountRoute,
  toErrorWire,
  writeWire,
  type InflightTracker,
  type OutcomeObserver,
  type PipelineStages,
} from './pipeline.js';
import { PriceFanout } from './price-fanout.js';
import { noRateLimit, type RateLimitStage } from './rate-limit.js';
import { buildRoutes } from './routes/index.js';
import type { HealthDeps } from './routes/health.js';
import type { PointsReader } from './routes/points.js';
import type { StreamSlotStage } from './stream-slots.js';
import { SseHub } from './sse.js';
import { loadUws } from './uws.js';
import { mountMetrics, type MetricsText } from './metrics-endpoint.js';
import type { SseCounts } from './metrics.js';

/** Options of {@link createServer}. */
export interface ServerOptions {
  /** The pricing side. */
  readonly priceService: PriceService;
  /** Port to listen on; 0 picks a free port. */
  readonly port: number;
  /** Interface to bind; default `0.0.0.0`. */
  readonly host?: string;
  /** Auth stage (`keyAuth` over the key replica). */
  readonly auth: AuthStage;
  /** Rate-limit stage; default: no-op. */
  readonly rateLimit?: RateLimitStage;
  /** Concurrent-stream slots; default: streams unlimited. */
  readonly slots?: StreamSlotStage;
  /** Sees every final status (usage counters). */
  readonly observe?: OutcomeObserver;
  /** The points view of a key (GET /v1/points/me). */
  readonly points: PointsReader;
  /** Anonymous cache TTL of the price routes in ms; default 2000. */
  readonly anonCacheTtlMs?: number;
  /** SSE heartbeat period in ms; default 15000. */
  readonly heartbeatMs?: number;
  /** The feed's freshness for /health (absent: health reports readiness only). */
  readonly health?: HealthDeps;
  /** The quote service (absent: the quote routes answer 501). */
  readonly quotes?: QuoteService;
  /** The attestation signer (absent: the attestation key route answers 501). */
  readonly attestation?: AttestationService;
  /** Transaction status over the node (absent: the route answers 501). */
  readonly txStatus?: TxStatusService;
  /** Sending signed transactions over the node (absent: the route answers 501). */
  readonly send?: SendService;
  /** Transaction tracking (absent: GET /v1/stream/tx answers 501). */
  readonly txTracking?: TxTrackingService;
  /** Submitting signed transactions as bundles (absent: POST /v1/swap answers 501). */
  readonly swapSubmit?: SwapSubmitService;
  /** The quote streams (with `quotes`: GET /v1/quote/stream; absent: it answers 501). */
  readonly quoteStreams?: QuoteStreams;
  /** Building swap transactions from quote ids (absent: POST /v1/swap/build answers 501). */
  readonly swapBuild?: SwapBuildService;
  /** Pools, search and the token routes (absent: they answer 501). */
  readonly marketData?: MarketData;
  /** The price history (absent: no candles route). */
  readonly priceHistory?: PriceHistory;
  /** Serves `GET /metrics` on this port too (`METRICS_PUBLIC=1`); absent: 404 here (the admin listener has it). */
  readonly publicMetrics?: MetricsText;
  /** The Geyser account streams (absent: GET /v1/stream/accounts answers 501). */
  readonly accountStreams?: AccountStreams;
  /** How long `close()` waits for in-flight requests before dropping connections; default 5000 ms. */
  readonly shutdownGraceMs?: number;
}

/** A listening server. */
export interface RunningServer {
  /** The bound port (useful with port 0). */
  readonly port: number;
  /** Connected SSE clients (tests, metrics). */
  sseClientCount(): number;
  /** What the SSE hub counted since start (metrics). */
  sseCounts(): SseCounts;
  /** Ends SSE streams, stops listening, waits for in-flight requests, then drops remaining connections. */
  close(): Promise<void>;
}

const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  ...CORS_HEADERS,
  'access-control-allow-methods': 'GET, POST, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers': 'x-api-key, content-type, accept',
  'access-control-max-age': '600',
};

/** Creates the uWS app with every route and starts listening. Rejects if the port cannot be bound. */
export async function createServer(opts: ServerOptions): Promise<RunningServer> {
  // Fail hard on the JS fallback (different SSE/backpressure semantics, no faster than node:http).
  const uWS = loadUws();
  const app: TemplatedApp = uWS.App();
  const hub = new SseHub({ heartbeatMs: opts.heartbeatMs ?? 15_000 });
  const fanout = new PriceFanout(opts.priceService, hub);
  const stages: PipelineStages = {
    auth: opts.auth,
    rateLimit: opts.rateLimit ?? noRateLimit,
    cache: new AnonymousCache(),
    slots: opts.slots ?? null,
    observe: opts.observe ?? null,
  };
  const tracker: InflightTracker = { inflight: 0 };
  const routes = buildRoutes({
    priceService: opts.priceService,
    fanout,
    points: opts.points,
    ...(opts.health ? { health: opts.health } : {}),
    ...(opts.quotes ? { quotes: opts.quotes } : {}),
    ...(opts.attestation ? { attestation: opts.attestation } : {}),
    ...(opts.txStatus ? { txStatus: opts.txStatus } : {}),
    ...(opts.send ? { send: opts.send } : {}),
    ...(opts.txTracking ? { txTracking: { tracking: opts.txTracking, hub } } : {}),
    ...(opts.swapSubmit ? { swapSubmit: opts.swapSubmit } : {}),
    ...(opts.swapBuild ? { swapBuild: opts.swapBuild } : {}),
    ...(opts.marketData ? { marketData: { market: opts.marketData, hub } } : {}),
    ...(opts.priceHistory ? { priceHistory: opts.priceHistory } : {}),
    ...(opts.accountStreams ? { accountStreams: { streams: opts.accountStreams, hub } } : {}),
    ...(opts.quoteStreams ? { quoteStreams: { streams: opts.quoteStreams, hub } } : {}),
    ...(opts.anonCacheTtlMs === undefined ? {} : { anonCacheTtlMs: opts.anonCacheTtlMs }),
  });
  for (const r of routes) mountRoute(app, r, { stages, hub, tracker });

  if (opts.publicMetrics) mountMetrics(app, opts.publicMetrics);
  // CORS preflight for browsers sending x-api-key.
  app.options('/*', (res) => {
    res.writeStatus('204 No Content');
    for (const k in PREFLIGHT_HEADERS) res.writeHeader(k, PREFLIGHT_HEADERS[k]!);
    res.end();
  });
  // Anything else: 404 ROUTE_NOT_FOUND. Synchronous answer inside the handler: no onAborted needed.
  app.any('/*', (res, req) => {
    const method = req.getMethod().toUpperCase();
    const path = req.getUrl();
    writeWire(res, toErrorWire(new ApiError('ROUTE_NOT_FOUND', `No route for ${method} ${path}`), 'unmatched', path));
  });

  const host = opts.host ?? '0.0.0.0';
  const listenSocket = await new Promise<us_listen_socket>((resolve, reject) => {
    app.listen(host, opts.port, (ls) => {
      if (ls) resolve(ls);
      else reject(new Error(`cannot listen on ${host}:${opts.port}`));
    });
  });
  const port = uWS.us_socket_local_port(listenSocket as unknown as Parameters<typeof uWS.us_socket_local_port>[0]);
  log.info('http listening', { host, port });

  let closing: Promise<void> | null = null;
  const close = async (): Promise<void> => {
    fanout.close();
    hub.close();
    uWS.us_listen_socket_close(listenSocket);
    const deadline = Date.now() + (opts.shutdownGraceMs ?? 5000);
    while (tracker.inflight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    // Idle keep-alive connections would keep the loop alive; the runtime's App has close() (absent from types).
    (app as unknown as { close?: () => void }).close?.();
    log.info('http closed', { port, inflightLeft: tracker.inflight });
  };

  return {
    port,
    sseClientCount: () => hub.size,
    sseCounts: () => ({ frames: hub.stats.framesQueued, writes: hub.stats.writes, slowDropped: hub.stats.slowDropped }),
    close: () => (closing ??= close()),
  };
}
