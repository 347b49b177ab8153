/**
 * The auth stage: finds the caller's API key and decides the principal.
 *
 * Placeholder until the keys issue lands: any non-empty key passes. The header `x-api-key` is always read;
 * `?apiKey=` only on routes that allow it (streams). A missing key on a `key` route is 401 UNAUTHORIZED.
 */
import { ApiError } from './errors.js';
import type { MaybePromise } from './maybe-promise.js';
import { ANONYMOUS, type Principal, type RequestContext } from './request-context.js';
import type { RouteDef } from './route.js';

/** Decides the principal of a request or throws an {@link ApiError} (401). */
export type AuthStage = (ctx: RequestContext, route: RouteDef) => MaybePromise<Principal>;

/** The API key presented by the request, and where it came from; null when none. */
export function presentedKey(ctx: RequestContext, route: RouteDef): { apiKey: string; via: 'header' | 'query' } | null {
  const header = ctx.headers['x-api-key']?.trim();
  if (header) return { apiKey: header, via: 'header' };
  if (route.apiKeyQuery) {
    const q = ctx.query.get('apiKey')?.trim();
    if (q) return { apiKey: q, via: 'query' };
  }
  return null;
}

/** The default auth stage: any non-empty key is accepted (until key storage exists). */
export const acceptAnyKeyAuth: AuthStage = (ctx, route) => {
  const key = presentedKey(ctx, route);
  if (key) return { kind: 'key', apiKey: key.apiKey, via: key.via };
  if (route.auth === 'key') {
    throw new ApiError('UNAUTHORIZED', 'An API key is required', {
      details: route.apiKeyQuery ? 'send the x-api-key header or the apiKey query parameter' : 'send the x-api-key header',
    });
  }
  return ANONYMOUS;
};
