/**
 * The rate-limit stage: one fixed-window counter per (category, caller) with the quota of the caller's tier
 * (`engine/limits/table.ts`), keyed by API key id, or by client IP (/64 for IPv6) for anonymous callers.
 *
 * Every metered answer carries `X-RateLimit-Limit` (the category's per-minute quota), `X-RateLimit-Remaining`
 * and `X-RateLimit-Reset` (epoch seconds); a refusal is 429 RATE_LIMITED with `{ limit, tier, retryAfterSeconds }`
 * and a `Retry-After` equal to `retryAfterSeconds`. Internal keys are unlimited and not counted. Synchronous
 * with the memory limiter, and with the Redis one while its instance holds reserved units of the caller's window
 * (`engine/limits/redis-chunked-window.ts`); a Redis round trip otherwise (quotas counted per call, the first
 * request of a window, refusals). With several instances, `X-RateLimit-Remaining` is the remainder as this
 * instance sees it (engine/limits/README.md, "Chunked reservation").
 */
import type { Tier } from '../engine/tiers/tier.js';
import { quotaOf, type Category } from '../engine/limits/table.js';
import type { WindowDecision, WindowLimiter } from '../engine/limits/types.js';
import { clientAddress, ipBucket } from './client-ip.js';
import { ApiError } from './errors.js';
import { step, type MaybePromise } from './maybe-promise.js';
import { tierOf, type RequestContext } from './request-context.js';
import type { RouteDef } from './route.js';

/** What a limiter hands back for an allowed request. */
export interface RateLimitOutcome {
  /** Headers for the response (`x-ratelimit-limit`, `x-ratelimit-remaining`, `x-ratelimit-reset`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Meters a request of a metered route (`route.meter` non-null); throws RATE_LIMITED to refuse. */
export type RateLimitStage = (ctx: RequestContext, route: RouteDef) => MaybePromise<RateLimitOutcome | undefined>;

/** A stage that lets everything through and adds no headers (benchmarks' baseline). */
export const noRateLimit: RateLimitStage = () => undefined;

/** Options of {@link quotaRateLimit}. */
export interface QuotaRateLimitOptions {
  readonly limiter: WindowLimiter;
  /** Trust `X-Forwarded-For` for anonymous callers (behind a proxy that sets it). */
  readonly trustProxy?: boolean;
  /** Clock (tests). */
  readonly now?: () => number;
  /** Quota of a category and tier; default the table's (benchmarks raise it so nothing is refused). */
  readonly quota?: (category: Category, tier: Tier) => number;
}

// The last limit and reset formatted: they change once a window per quota, the remainder with every request.
let lastLimit = NaN;
let lastLimitText = '';
let lastResetS = NaN;
let lastResetText = '';

/** The rate-limit headers of a decision. */
export function rateLimitHeaders(d: WindowDecision): Record<string, string> {
  if (d.limit !== lastLimit) {
    lastLimit = d.limit;
    lastLimitText = String(d.limit);
  }
  const resetS = Math.ceil(d.resetAtMs / 1000);
  if (resetS !== lastResetS) {
    lastResetS = resetS;
    lastResetText = String(resetS);
  }
  return {
    'x-ratelimit-limit': lastLimitText,
    'x-ratelimit-remaining': String(Math.max(0, d.limit - d.used)),
    'x-ratelimit-reset': lastResetText,
  };
}

/** The rate-limit subject of a request: `k<id>` for a key, `ip:<bucket>` otherwise. */
export function rateSubject(ctx: RequestContext, trustProxy: boolean): string {
  const p = ctx.principal;
  return p.kind === 'key' ? `k${p.keyId}` : `ip:${ipBucket(clientAddress(ctx.headers, ctx.remoteAddress, trustProxy))}`;
}

/** The stage over a window limiter. */
export function quotaRateLimit(opts: QuotaRateLimitOptions): RateLimitStage {
  const now = opts.now ?? Date.now;
  const trust = opts.trustProxy ?? false;
  const quota = opts.quota ?? quotaOf;
  return (ctx, route) => {
    const category = route.meter!;
    const tier = tierOf(ctx.principal);
    const limit = quota(category, tier);
    if (limit === Infinity) return undefined;
    const cost = route.cost ? route.cost(ctx) : 1;
    const t = now();
    return step(opts.limiter.consume(`${category}:${rateSubject(ctx, trust)}`, cost, limit, t), (d) => {
      const headers = rateLimitHeaders(d);
      if (d.allowed) return { headers };
      const retryAfterSeconds = Math.max(1, Math.ceil((d.resetAtMs - t) / 1000));
      throw new ApiError('RATE_LIMITED', `Rate limit exceeded: ${limit} ${category} requests per minute for the ${tier} tier`, {
        extra: { limit, tier, retryAfterSeconds },
        headers,
      });
    });
  };
}
