/**
 * The route table: every route the server mounts, in one place.
 */
import type { PriceService } from '../../engine/services/price-service-types.js';
import type { QuoteService } from '../../engine/services/quote-service.js';
import type { QuoteStreams } from '../../engine/services/quote-stream.js';
import type { PriceFanout } from '../price-fanout.js';
import type { SseHub } from '../sse.js';
import type { RouteDef } from '../route.js';
import { healthRoute, type HealthDeps } from './health.js';
import { notBuiltRoutes } from './not-built.js';
import { pointsRoute, type PointsReader } from './points.js';
import { priceStreamRoute } from './price-stream.js';
import { priceRoute, pricesRoute } from './prices.js';
import { quoteRoutes } from './quote.js';
import { quoteStreamRoute } from './quote-stream.js';

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
  /** The quote streams and the hub their frames go through (absent: GET /v1/quote/stream answers 501). */
  readonly quoteStreams?: { readonly streams: QuoteStreams; readonly hub: SseHub };
}

/** Builds the route table. */
export function buildRoutes(deps: RouteDeps): RouteDef[] {
  const opts = deps.anonCacheTtlMs === undefined ? {} : { anonCacheTtlMs: deps.anonCacheTtlMs };
  return [
    healthRoute(deps.priceService, deps.health),
    priceRoute(deps.priceService, opts),
    pricesRoute(deps.priceService, opts),
    priceStreamRoute(deps.priceService, deps.fanout),
    pointsRoute(deps.points),
    ...(deps.quotes ? quoteRoutes(deps.priceService, deps.quotes) : []),
    ...(deps.quotes && deps.quoteStreams ? [quoteStreamRoute(deps.priceService, deps.quotes.dexIds, deps.quoteStreams.streams, deps.quoteStreams.hub)] : []),
    ...notBuiltRoutes().filter((r) => !(deps.quotes && r.name === 'quote') && !(deps.quotes && deps.quoteStreams && r.name === 'stream.quote')),
  ];
}
