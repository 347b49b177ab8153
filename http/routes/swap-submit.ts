/**
 * POST /v1/swap (key): `{ transaction }` (base64, signed) submitted to the block engine as a tipped bundle
 * (`engine/services/swap-submit-service.ts`). 200 `{ status: 'submitted', signature, bundleId }`. Every non-2xx
 * body carries `signature` (null when the bytes never got far enough to have one), per the spec's rule.
 */
import type { TxTrackingService } from '../../engine/services/tx-tracking-service.js';
import type { SwapSubmitService } from '../../engine/services/swap-submit-service.js';
import { ApiError } from '../errors.js';
import type { Reply, RequestContext } from '../request-context.js';
import type { RouteDef } from '../route.js';
import { SEND_BODY_LIMIT, transactionField } from './send.js';

/** The swap submit route. */
export function swapSubmitRoute(submitter: SwapSubmitService, tracking?: TxTrackingService): RouteDef {
  return {
    name: 'swap.submit',
    method: 'post',
    pattern: '/v1/swap',
    auth: 'key',
    apiKeyQuery: false,
    meter: 'swap',
    rpc: true,
    maxBodyBytes: SEND_BODY_LIMIT,
    anonCacheTtlMs: 0,
    handler: async (ctx: RequestContext): Promise<Reply> => {
      const out = await submitter.submit(transactionField(ctx.body));
      if (out.ok) {
        // The key's transaction stream follows what it submitted.
        tracking?.submitted(ctx.principal.kind === 'key' ? ctx.principal.keyId : null, out.signature);
        return { status: 200, body: { status: 'submitted', signature: out.signature, bundleId: out.bundleId } };
      }
      throw new ApiError(out.code, out.message, {
        ...(out.details === undefined ? {} : { details: JSON.stringify(out.details) }),
        extra: { signature: out.signature },
      });
    },
  };
}
