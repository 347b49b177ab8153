/**
 * GET /v1/stream/prices (key; `?apiKey=` allowed): SSE of price objects. `ready` at once; without `tokens`,
 * every tracked token plus an initial snapshot; `includeOptimistic` and `dedupThreshold` per connection.
 *
 * Warm-up: the stream is accepted while the startup snapshot loads (a browser's EventSource gives up for good on
 * a non-200, so a 503 would lose a page that reconnects at the wrong moment). Everything decidable then is still
 * a 4xx: parameters, unknown symbols, malformed mints, more than 50 mints. A well-formed mint outside the catalog
 * cannot be known to be indexed until the snapshot is in: it is accepted provisionally; once warm, if one is still
 * unknown the stream is ended, and the client's reconnect gets the 400 a connect after warm-up gets. Otherwise
 * each stream opened during warm-up receives the confirmed price of every one of its tokens when warm (the load
 * is the change from no price to a price), then live frames.
 */
import { isPrice } from '../../engine/router/price-types.js';
import type { PriceService, ResolvedToken } from '../../engine/services/price-service-types.js';
import { ApiError } from '../errors.js';
import { log } from '../log.js';
import type { PriceFanout } from '../price-fanout.js';
import { booleanParam, listParam, numberParam } from '../query.js';
import type { RouteDef } from '../route.js';
import { sseFrame, type SseClient } from '../sse.js';

/** Most distinct mints one price-stream connection may subscribe to (spec Limits). */
export const MAX_STREAM_MINTS = 50;
/** Server default of `dedupThreshold`: relative priceUsd change below which a frame is not re-sent. */
export const DEFAULT_DEDUP_THRESHOLD = 0.0001;

/**
 * Resolves the `tokens` parameter; every entry must be a catalog symbol or an indexed mint (400 otherwise).
 * `provisional` (warm-up): a well-formed mint not indexed yet is accepted.
 */
export function resolveStreamTokens(svc: PriceService, raw: string, provisional = false): ResolvedToken[] {
  const inputs = listParam(raw);
  if (inputs.length === 0) {
    throw new ApiError('INVALID_REQUEST', 'No valid tokens', { details: 'tokens is empty; omit it to stream every tracked token' });
  }
  const byMint = new Map<string, ResolvedToken>();
  for (const input of inputs) {
    const r = svc.resolve(input);
    if (!r || (!r.tracked && !r.indexed && !provisional)) {
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
      const warm = svc.ready();
      const includeOptimistic = booleanParam(ctx.query, 'includeOptimistic', false);
      const dedupThreshold = numberParam(ctx.query, 'dedupThreshold', DEFAULT_DEDUP_THRESHOLD, 0, 1);
      const raw = ctx.query.get('tokens');
      const all = raw === null;
      const tokens = all ? svc.trackedTokens() : resolveStreamTokens(svc, raw, !warm);
      const snapshot = (client: SseClient): void => {
        svc.prices(tokens, false).then(
          (entries) => {
            if (client.closed) return;
            for (const e of entries) if (isPrice(e)) fanout.offer(client, e, false);
          },
          (e: unknown) => log.error('price stream snapshot failed', { err: e }),
        );
      };
      return {
        stream: {
          firstFrame: sseFrame('ready', { ts: Date.now() }),
          open: (client) => {
            fanout.add(client, tokens, { includeOptimistic, dedupThreshold });
            if (warm) {
              // Initial snapshot (confirmed) when every tracked token is streamed (spec).
              if (all) snapshot(client);
              return;
            }
            svc.whenReady().then(
              () => {
                if (client.closed) return;
                // A provisional mint still unknown: end; the reconnect gets the 400 of a connect after warm-up.
                if (!all && tokens.some((t) => !t.tracked && svc.resolve(t.mint)?.indexed !== true)) {
                  fanout.end(client);
                  return;
                }
                snapshot(client);
              },
              (e: unknown) => log.error('price stream warm-up wait failed', { err: e }),
            );
          },
        },
      };
    },
  };
}
