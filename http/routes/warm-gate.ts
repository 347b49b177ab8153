/**
 * The warming gate of data routes: while the price service loads its startup snapshot, data routes answer
 * 503 SERVICE_UNAVAILABLE with Retry-After.
 */
import type { PriceService } from '../../engine/services/price-service-types.js';
import { ApiError } from '../errors.js';

/** Throws 503 SERVICE_UNAVAILABLE while `svc` is not ready. */
export function requireReady(svc: PriceService): void {
  if (!svc.ready()) {
    throw new ApiError('SERVICE_UNAVAILABLE', 'The price service is warming up', {
      details: `${svc.poolCount()} pools indexed so far`,
    });
  }
}
