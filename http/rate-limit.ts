/**
 * The rate-limit stage contract. The default is a no-op; the rate-limit issue plugs a real limiter here.
 * A limiter returns the `X-RateLimit-*` headers for every metered response, or throws
 * `ApiError('RATE_LIMITED', ..., { extra: { limit, tier, retryAfterSeconds }, headers })`.
 */
import type { MaybePromise } from './maybe-promise.js';
import type { RequestContext } from './request-context.js';
import type { RouteDef } from './route.js';

/** What a limiter hands back for an allowed request. */
export interface RateLimitOutcome {
  /** Headers for the response (`x-ratelimit-limit`, `x-ratelimit-remaining`, `x-ratelimit-reset`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Meters a request of a metered route (`route.meter` non-null); throws RATE_LIMITED to refuse. */
export type RateLimitStage = (ctx: RequestContext, route: RouteDef) => MaybePromise<RateLimitOutcome | undefined>;

/** The default stage: lets everything through, adds no headers. */
export const noRateLimit: RateLimitStage = () => undefined;
