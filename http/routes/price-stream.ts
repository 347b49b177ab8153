/**
 * GET /v1/stream/prices (key; `?apiKey=` allowed): SSE of price objects. `ready` at once; without `tokens`,
 * every tracked token plus an initial snapshot; `includeOptimistic` and `dedupThreshold` per connection.
 */
import { isPrice } from '../../engine/router/price-types.js';
import type { PriceService, ResolvedToken } from '../../engine/services/price-service-types.js';
import { ApiError } from '../errors.js';
import { log } from '../log.js';
import type { PriceFanout } from '../price-fanout.js';
import { booleanParam, listParam, numberParam } from '../query.js';
import type { RouteDef } from '../route.js';
import { sseFrame } from '../sse.js';
import { requireReady } from './warm-gate.js';

/** Most distinct mints one price-stream connection may subscribe to (spec Limits). */
export const MAX_STREAM_MINTS = 50;
/** Server default of `dedupThreshold`: relative priceUsd change below which a frame is not re-sent. */
export const DEFAULT_DEDUP_THRESHOLD = 0.0001;

/** Resolves the `tokens` parameter; every entry must be a catalog symbol or an indexed mint (400 otherwise). */
export function resolveStreamTokens(svc: PriceService, raw: string): ResolvedToken[] {
  const inputs = listParam(raw);
  if (inputs.length === 0) {
    throw new ApiError('INVALID_REQUEST', 'No valid tokens', { details: 'tokens is empty; omit it to stream every tracked token' });
  }
  const byMint = new Map<string, ResolvedToken>();
  for (const input of inputs) {
    const r = svc.resolve(input);
    if (!r || (!r.tracked && !r.indexed)) {
      throw new ApiError('INVALID_REQUEST', 'Unknown token', {
        details: `"${input}" is neither a tracked symbol nor an indexed mint`,
      });
    }
    byMint.set(r.mint, r);
  }
  if (byMint.size > MAX_STREAM_MINTS) {
    throw new ApiError('INVALID_REQUEST', 'Too many mint subscriptions', {
      details: `${byMint.size} mints; at most ${MAX_STREAM_MINTS} per connection`,
    });
  }
  return [...byMint.values()];
}

/** The price stream route. */
export function priceStreamRoute(svc: PriceService, fanout: PriceFanout): RouteDef {
  return {
    name: 'stream-prices',
    method: 'get',
    pattern: '/v1/stream/prices',
    auth: 'key',
    apiKeyQuery: true,
    meter: 'stream',
    stream: true,
    anonCacheTtlMs: 0,
    handler: (ctx) => {
      requireReady(svc);
      const includeOptimistic = booleanParam(ctx.query, 'includeOptimistic', false);
      const dedupThreshold = numberParam(ctx.query, 'dedupThreshold', DEFAULT_DEDUP_THRESHOLD, 0, 1);
      const raw = ctx.query.get('tokens');
      const all = raw === null;
      const tokens = all ? svc.trackedTokens() : resolveStreamTokens(svc, raw);
      return {
        stream: {
          firstFrame: sseFrame('ready', { ts: Date.now() }),
          open: (client) => {
            fanout.add(client, tokens, { includeOptimistic, dedupThreshold });
            if (!all) return;
            // Initial snapshot (confirmed) when every tracked token is streamed (spec).
            svc.prices(tokens, false).then(
              (entries) => {
                if (client.closed) return;
                for (const e of entries) if (isPrice(e)) fanout.offer(client, e, false);
              },
              (e: unknown) => log.error('price stream snapshot failed', { err: e }),
            );
          },
        },
      };
    },
  };
}
