/**
 * GET /v1/points/me: the caller's points object (spec, Points), 404 NOT_FOUND when the key has no points record
 * (internal keys earn none). The ledger is reconciled about every 5 minutes.
 */
import { ApiError } from '../errors.js';
import type { RouteDef } from '../route.js';

/** Reads the points object of a key, or null when it has no record. */
export type PointsReader = (apiKeyId: number) => Promise<unknown | null>;

/** The route. */
export function pointsRoute(read: PointsReader): RouteDef {
  return {
    name: 'points.me',
    method: 'get',
    pattern: '/v1/points/me',
    auth: 'key',
    apiKeyQuery: false,
    meter: 'points',
    anonCacheTtlMs: 0,
    handler: async (ctx) => {
      const p = ctx.principal;
      if (p.kind !== 'key') throw new ApiError('UNAUTHORIZED', 'An API key is required');
      const view = await read(p.keyId);
      if (view === null) throw new ApiError('NOT_FOUND', 'This key has no points record yet');
      return { status: 200, body: view, headers: { 'cache-control': 'no-store' } };
    },
  };
}
