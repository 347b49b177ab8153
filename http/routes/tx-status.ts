/**
 * GET /v1/tx/:signature (key): the transaction status object (`engine/services/tx-status-service.ts`). A malformed
 * signature is a 400; `not_found` is a 200 (the check was made: the node does not have it); `error` (the node could
 * not be asked) is a 502 with the same body and `Retry-After: 1`.
 */
import bs58 from 'bs58';
import type { TxStatusService } from '../../engine/services/tx-status-service.js';
import { ApiError } from '../errors.js';
import type { Reply, RequestContext } from '../request-context.js';
import type { RouteDef } from '../route.js';

/** True when `s` is a base58 transaction signature (64 bytes). */
export function isSignature(s: string): boolean {
  if (s.length < 64 || s.length > 88) return false;
  try {
    return bs58.decode(s).length === 64;
  } catch {
    return false;
  }
}

/** The transaction status route. */
export function txStatusRoute(txs: TxStatusService): RouteDef {
  return {
    name: 'tx.status',
    method: 'get',
    pattern: '/v1/tx/:signature',
    auth: 'key',
    apiKeyQuery: false,
    meter: 'tx',
    anonCacheTtlMs: 0,
    handler: async (ctx: RequestContext): Promise<Reply> => {
      const signature = ctx.params.signature ?? '';
      if (!isSignature(signature)) throw new ApiError('INVALID_REQUEST', 'Invalid signature', { details: 'signature must be a base58 transaction signature (64 bytes)' });
      const body = await txs.status(signature);
      if (body.status === 'error') return { status: 502, body, headers: { 'retry-after': '1' } };
      return { status: 200, body };
    },
  };
}
