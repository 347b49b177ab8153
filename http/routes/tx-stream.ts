/**
 * GET /v1/stream/tx (key; `?apiKey=` allowed): SSE of transaction lifecycle events (`landed`, `processed`,
 * `confirmed`, `finalized`, `failed`), each `{ type, signature, slot, source, err }` (the spec's transaction-event
 * payload). `signatures=a,b,...` (at most 100, each a base58 signature): those transactions, their history so far
 * replayed first; without it, every transaction this key submits through `POST /v1/send` (and `POST /v1/swap`) from
 * the connect on. `ready` `{ ts, signatures }` first; heartbeats as every stream.
 */
import { MAX_STREAM_SIGNATURES, type TxInterest, type TxTrackingService } from '../../engine/services/tx-tracking-service.js';
import { ApiError } from '../errors.js';
import { listParam } from '../query.js';
import type { RouteDef } from '../route.js';
import { sseFrame, type SseHub } from '../sse.js';
import { isSignature } from './tx-status.js';

/** The transaction stream route. */
export function txStreamRoute(tracking: TxTrackingService, hub: SseHub): RouteDef {
  return {
    name: 'stream.tx',
    method: 'get',
    pattern: '/v1/stream/tx',
    auth: 'key',
    apiKeyQuery: true,
    meter: 'stream',
    stream: true,
    anonCacheTtlMs: 0,
    handler: (ctx) => {
      const raw = ctx.query.get('signatures');
      let interest: TxInterest;
      let listed: string[] | null = null;
      if (raw !== null) {
        listed = [...new Set(listParam(raw))];
        if (listed.length === 0) throw new ApiError('INVALID_REQUEST', 'No signatures', { details: 'signatures is empty; omit it to stream what this key submits' });
        if (listed.length > MAX_STREAM_SIGNATURES) throw new ApiError('INVALID_REQUEST', 'Too many signatures', { details: `${listed.length} signatures; at most ${MAX_STREAM_SIGNATURES} per connection` });
        const bad = listed.find((s) => !isSignature(s));
        if (bad !== undefined) throw new ApiError('INVALID_REQUEST', 'Invalid signature', { details: `"${bad.slice(0, 100)}" is not a base58 transaction signature` });
        interest = { signatures: new Set(listed) };
      } else {
        const p = ctx.principal;
        if (p.kind !== 'key') throw new ApiError('UNAUTHORIZED', 'API key required');
        interest = { keyId: p.keyId };
      }
      return {
        stream: {
          firstFrame: sseFrame('ready', { ts: Date.now(), signatures: listed }),
          open: (client) => {
            // Key per signature and event: every lifecycle step is delivered, none conflated with another.
            const stop = tracking.subscribe(interest, (e) => hub.send(client, `${e.signature}:${e.type}`, sseFrame(e.type, e)));
            hub.onClose(client, stop);
          },
        },
      };
    },
  };
}
