/**
 * The route table: every route the server mounts, in one place.
 */
import type { PriceService } from '../../engine/services/price-service-types.js';
import type { AttestationService } from '../../engine/services/attestation-service.js';
import type { QuoteService } from '../../engine/services/quote-service.js';
import type { TxStatusService } from '../../engine/services/tx-status-service.js';
import type { SendService } from '../../engine/services/send-service.js';
import type { TxTrackingService } from '../../engine/services/tx-tracking-service.js';
import type { SwapSubmitService } from '../../engine/services/swap-submit-service.js';
import type { QuoteStreams } from '../../engine/services/quote-stream.js';
import type { SwapBuildService } from '../../engine/services/swap-build-service.js';
import type { MarketData } from '../../engine/services/market-data.js';
import type { PriceHistory } from '../../engine/services/price-history.js';
import type { AccountStreams } from '../../engine/services/account-streams.js';
import type { PriceFanout } from '../price-fanout.js';
import type { SseHub } from '../sse.js';
import type { RouteDef } from '../route.js';
import { attestationKeyRoute } from './attestation.js';
import { healthRoute, type HealthDeps } from './health.js';
import { notBuiltRoutes } from './not-built.js';
import { pointsRoute, type PointsReader } from './points.js';
import { priceStreamRoute } from './price-stream.js';
import { priceRoute, pricesRoute } from './prices.js';
import { quoteRoutes } from './quote.js';
import { txStatusRoute } from './tx-status.js';
import { sendRoute } from './send.js';
import { txStreamRoute } from './tx-stream.js';
import { swapSubmitRoute } from './swap-submit.js';
import { quoteStreamRoute } from './quote-stream.js';
import { swapBuildRoute } from './swap-build.js';
import { poolsRoutes } from './pools.js';
import { tokenRoutes } from './tokens.js';
import { poolStreamRoute } from './pool-stream.js';
import { priceHistoryRoute } from './price-history.js';
import { accountStreamRoute } from './account-stream.js';

/** What the routes need. */
export interface RouteDeps {
  readonly priceService: PriceService;
  readonly fanout: PriceFanout;
  /** Anonymous cache TTL of the price routes (default 2 s). */
  readonly anonCacheTtlMs?: number;
  /** The points ledger view. */
  readonly points: PointsReader;
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
  /** Submitting signed transactions as bundles (absent: POST /v1/swap answers 501). */
  readonly swapSubmit?: SwapSubmitService;
  /** The quote streams and the hub their frames go through (absent: GET /v1/quote/stream answers 501). */
  readonly quoteStreams?: { readonly streams: QuoteStreams; readonly hub: SseHub };
  /** Transaction tracking and the hub its stream writes through (absent: GET /v1/stream/tx answers 501). */
  readonly txTracking?: { readonly tracking: TxTrackingService; readonly hub: SseHub };
  /** Building swap transactions from quote ids (absent: POST /v1/swap/build answers 501). */
  readonly swapBuild?: SwapBuildService;
  /** Pools, search, the token routes and the pool stream, with the hub the stream writes through (absent: 501). */
  readonly marketData?: { readonly market: MarketData; readonly hub: SseHub };
  /** The price history (absent: no candles route). */
  readonly priceHistory?: PriceHistory;
  /** The Geyser account streams and the hub they write through (absent: GET /v1/stream/accounts answers 501). */
  readonly accountStreams?: { readonly streams: AccountStreams; readonly hub: SseHub };
}

/** Builds the route table. */
export function buildRoutes(deps: RouteDeps): RouteDef[] {
  const opts = deps.anonCacheTtlMs === undefined ? {} : { anonCacheTtlMs: deps.anonCacheTtlMs };
  const built = [
    healthRoute(deps.priceService, deps.health),
    priceRoute(deps.priceService, opts),
    pricesRoute(deps.priceService, opts),
    priceStreamRoute(deps.priceService, deps.fanout),
    pointsRoute(deps.points),
    ...(deps.quotes ? quoteRoutes(deps.priceService, deps.quotes) : []),
    ...(deps.attestation ? [attestationKeyRoute(deps.attestation)] : []),
    ...(deps.txStatus ? [txStatusRoute(deps.txStatus)] : []),
    ...(deps.send ? [sendRoute(deps.send, deps.txTracking?.tracking)] : []),
    ...(deps.txTracking ? [txStreamRoute(deps.txTracking.tracking, deps.txTracking.hub)] : []),
    ...(deps.swapSubmit ? [swapSubmitRoute(deps.swapSubmit, deps.txTracking?.tracking)] : []),
    ...(deps.swapBuild ? [swapBuildRoute(deps.swapBuild)] : []),
    ...(deps.accountStreams ? [accountStreamRoute(deps.accountStreams.streams, deps.accountStreams.hub)] : []),
    ...(deps.priceHistory ? [priceHistoryRoute(deps.priceService, deps.priceHistory)] : []),
    ...(deps.marketData
      ? [
          ...poolsRoutes(deps.priceService, deps.marketData.market),
          ...tokenRoutes(deps.priceService, deps.marketData.market),
          poolStreamRoute(deps.priceService, deps.marketData.market, deps.marketData.hub),
        ]
      : []),
    ...(deps.quotes && deps.quoteStreams ? [quoteStreamRoute(deps.priceService, deps.quotes.dexIds, deps.quoteStreams.streams, deps.quoteStreams.hub)] : []),
  ];
  // Why by name: a route built above replaces its 501 placeholder.
  const names = new Set(built.map((r) => r.name));
  return [...built, ...notBuiltRoutes().filter((r) => !names.has(r.name))];
}
