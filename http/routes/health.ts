/**
 * GET /health: whether this instance's data is fresh, for load balancers and operators.
 *
 * 200 `{ status: 'ok', pools, slot, chainSlot, slotLag, lastUpdateAgeMs, ... }` while the live feed is fresh
 * (`unwatchedPools` when some pools could not be watched: they are served as not tradable, never as live;
 * `streams` and `streamsConnected`: the Subscribe streams open and subscribed, `streamConnected` true when all are);
 * 503 with Retry-After and `{ error, code: 'SERVICE_UNAVAILABLE', status, reason, details, ...the same fields }`
 * while warming (`status: 'warming'`) or stale (`status: 'stale'`, `reason` one of `reloading`, `resyncing`,
 * `slot-lag`, `stream-silent`, `no-feed`; bounds in {@link FreshnessBounds}). Data routes keep answering while
 * stale; their `poolCacheAgeMs` and `confidence` say how old the data is.
 */
import { assessFeed, DEFAULT_FRESHNESS, type FeedStatus, type FreshnessBounds } from '../../engine/ingest/feed-status.js';
import type { PriceService } from '../../engine/services/price-service-types.js';
import { ApiError } from '../errors.js';
import type { RouteDef } from '../route.js';

/** Where the health route reads the feed's freshness. */
export interface HealthDeps {
  /** The newest feed status reported by ingest (null before the first report). */
  readonly feed?: () => FeedStatus | null;
  readonly bounds?: FreshnessBounds;
  readonly now?: () => number;
}

/** Retry-After while stale: load balancers probe again soon. */
const STALE_RETRY_AFTER_S = 5;

/** The health route. */
export function healthRoute(svc: PriceService, deps: HealthDeps = {}): RouteDef {
  const now = deps.now ?? Date.now;
  const bounds = deps.bounds ?? DEFAULT_FRESHNESS;
  return {
    name: 'health',
    method: 'get',
    pattern: '/health',
    auth: 'none',
    apiKeyQuery: false,
    meter: null,
    anonCacheTtlMs: 0,
    handler: () => {
      const pools = svc.poolCount();
      if (!svc.ready()) {
        throw new ApiError('SERVICE_UNAVAILABLE', 'The service is warming up', { extra: { status: 'warming', pools } });
      }
      if (!deps.feed) return { status: 200, body: { status: 'ok', pools } };
      const feed = deps.feed();
      if (feed === null) {
        throw new ApiError('SERVICE_UNAVAILABLE', 'The live feed has not reported yet', {
          extra: { status: 'stale', reason: 'no-feed', pools },
          retryAfterSeconds: STALE_RETRY_AFTER_S,
        });
      }
      const a = assessFeed(feed, now(), bounds);
      const fields = {
        pools,
        slot: Number(feed.processedSlot),
        chainSlot: feed.chainSlot > 0n ? Number(feed.chainSlot) : null,
        slotLag: a.slotLag,
        lastUpdateAgeMs: a.lastUpdateAgeMs,
        chainSlotAgeMs: a.chainSlotAgeMs,
        streamConnected: feed.connected,
        // Subscribe streams open (the primary and its overflow streams) and how many are subscribed now.
        streams: feed.streams ?? 1,
        streamsConnected: feed.streamsConnected ?? (feed.connected ? 1 : 0),
        resyncs: feed.resyncs,
        resyncFailures: feed.resyncFailures,
        reloads: feed.reloads,
        // Only when some: pools the stream cannot watch (over the Subscribe request's byte budget), not tradable.
        ...(feed.unwatchedPools ? { unwatchedPools: feed.unwatchedPools } : {}),
        bounds: { maxSlotLag: bounds.maxSlotLag, maxUpdateAgeMs: bounds.maxUpdateAgeMs },
      };
      if (!a.fresh) {
        throw new ApiError('SERVICE_UNAVAILABLE', 'The data of this instance is not fresh', {
          ...(a.detail ? { details: a.detail } : {}),
          extra: { status: 'stale', reason: a.reason, ...fields },
          retryAfterSeconds: STALE_RETRY_AFTER_S,
        });
      }
      return { status: 200, body: { status: 'ok', ...fields } };
    },
  };
}
