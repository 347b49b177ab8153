/**
 * The auth stage: finds the caller's API key, resolves it against the in-memory key replica, and decides the
 * principal. Synchronous: no store query per request.
 *
 * Rules (spec, Authentication): the key travels in `x-api-key` on every route; `?apiKey=` is read only on routes
 * that allow it (streams, forensics, portfolio). A missing key on a key route, or an invalid or revoked key on any
 * route, is 401 (a bad key on a public route is a caller bug worth surfacing, not a silent downgrade to
 * anonymous). Below a route's minimum tier (forensics: Starter), anonymous included, is 403 with `{ error }` only.
 */
import { tierAtLeast, type Tier } from '../engine/tiers/tier.js';
import { ApiError } from './errors.js';
import type { MaybePromise } from './maybe-promise.js';
import { ANONYMOUS, type Principal, type RequestContext } from './request-context.js';
import type { RouteDef } from './route.js';

/** Decides the principal of a request or throws an {@link ApiError} (401, 403). */
export type AuthStage = (ctx: RequestContext, route: RouteDef) => MaybePromise<Principal>;

/** Resolves a presented key to its id and tier, or null when unknown or revoked. */
export type KeyLookup = (apiKey: string) => { readonly id: number; readonly tier: Tier } | null;

/**
 * The API key presented by the request, and where it came from; null when none. A key that was sent but is blank
 * (whitespace only, or non-ASCII bytes only, which uWS strips: `copyRequest` records such a header as '') is
 * presented as the empty key, which no lookup finds: 401, never a silent downgrade to anonymous.
 */
export function presentedKey(ctx: Pick<RequestContext, 'headers' | 'query'>, route: RouteDef): { apiKey: string; via: 'header' | 'query' } | null {
  const rawHeader = ctx.headers['x-api-key'];
  const header = rawHeader?.trim();
  if (header) return { apiKey: header, via: 'header' };
  const rawQuery = route.apiKeyQuery ? ctx.query.get('apiKey') : null;
  const q = rawQuery?.trim();
  if (q) return { apiKey: q, via: 'query' };
  if (rawHeader !== undefined) return { apiKey: '', via: 'header' };
  if (rawQuery !== null && rawQuery !== undefined) return { apiKey: '', via: 'query' };
  return null;
}

function keyHint(route: RouteDef): string {
  return route.apiKeyQuery ? 'send the x-api-key header or the apiKey query parameter' : 'send the x-api-key header';
}

function tierTooLow(route: RouteDef, tier: Tier): ApiError {
  const min = route.minTier!;
  return new ApiError('FORBIDDEN', `This endpoint requires the ${min} tier or higher (current tier: ${tier})`, { bare: true });
}

/** The auth stage over a key lookup (the {@link KeyDirectory} of the running service). */
export function keyAuth(lookup: KeyLookup): AuthStage {
  return (ctx, route) => {
    const presented = presentedKey(ctx, route);
    if (presented === null) {
      // Forensics: the spec answers anonymous callers 403 (tier too low), like Free keys.
      if (route.minTier !== undefined) throw tierTooLow(route, 'anonymous');
      if (route.auth === 'key') throw new ApiError('UNAUTHORIZED', 'An API key is required', { details: keyHint(route) });
      return ANONYMOUS;
    }
    const entry = presented.apiKey === '' ? null : lookup(presented.apiKey);
    if (entry === null) throw new ApiError('UNAUTHORIZED', 'Invalid or revoked API key', { details: keyHint(route) });
    if (route.minTier !== undefined && !tierAtLeast(entry.tier, route.minTier)) throw tierTooLow(route, entry.tier);
    return { kind: 'key', apiKey: presented.apiKey, via: presented.via, keyId: entry.id, tier: entry.tier };
  };
}
