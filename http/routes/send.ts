/**
 * POST /v1/send (key): `{ transaction }` (base64, signed) sent over RPC and rebroadcast until it lands or its
 * blockhash expires (`engine/services/send-service.ts`). 200 `{ status: 'sent', signature }`. Every non-2xx body
 * carries `signature` (null when the bytes never got far enough to have one), per the spec's rule.
 */
import type { SendService } from '../../engine/services/send-service.js';
import type { TxTrackingService } from '../../engine/services/tx-tracking-service.js';
import { ApiError } from '../errors.js';
import { jsonObjectBody } from '../json-body.js';
import type { Reply, RequestContext } from '../request-context.js';
import type { RouteDef } from '../route.js';

/** Largest request body: a 1,232-byte transaction is 1,644 base64 characters; room for whitespace and fields. */
export const SEND_BODY_LIMIT = 8 * 1024;

/** The `transaction` field of a JSON body, or a 400 carrying `signature: null`. */
export function transactionField(body: Buffer | null): unknown {
  const bad = (details: string): ApiError => new ApiError('INVALID_REQUEST', 'Invalid request body', { details, extra: { signature: null } });
  const b = jsonObjectBody(body, '{ transaction }');
  if (!b.ok) throw bad(b.details);
  const t = b.value.transaction;
  if (t === undefined) throw bad('transaction is required (base64 of the signed transaction)');
  return t;
}

/** The send route; with `tracking`, a sent transaction is followed for its key's transaction stream. */
export function sendRoute(sender: SendService, tracking?: TxTrackingService): RouteDef {
  return {
    name: 'send',
    method: 'post',
    pattern: '/v1/send',
    auth: 'key',
    apiKeyQuery: false,
    meter: 'send',
    rpc: true,
    maxBodyBytes: SEND_BODY_LIMIT,
    anonCacheTtlMs: 0,
    handler: async (ctx: RequestContext): Promise<Reply> => {
      const keyId = ctx.principal.kind === 'key' ? ctx.principal.keyId : null;
      const out = await sender.send(transactionField(ctx.body));
      if (out.ok) {
        tracking?.submitted(keyId, out.signature);
        return { status: 200, body: { status: 'sent', signature: out.signature } };
      }
      throw new ApiError(out.code, out.message, {
        ...(out.details === undefined ? {} : { details: JSON.stringify(out.details) }),
        extra: { signature: out.signature },
      });
    },
  };
}
