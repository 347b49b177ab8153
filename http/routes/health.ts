/**
 * GET /health: `{ status: 'ok', pools }`, or 503 with Retry-After and
 * `{ error, code: 'SERVICE_UNAVAILABLE', status: 'warming', pools }` while the startup snapshot loads.
 */
import type { PriceService } from '../../engine/services/price-service-types.js';
import { ApiError } from '../errors.js';
import type { RouteDef } from '../route.js';

/** The health route. */
export function healthRoute(svc: PriceService): RouteDef {
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
      return { status: 200, body: { status: 'ok', pools } };
    },
  };
}
