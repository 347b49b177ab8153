/**
 * GET /v1/stream/pools (key; `?apiKey=` allowed): SSE of new pool discoveries. `ready` `{ ts }` first, then one
 * `pool` event per pool discovered after the startup snapshot, its data the pool record of `GET /v1/pool/:address`,
 * as soon as ingest publishes the pool. Optional filters: `dex` (one DEX id) and `token` (a symbol or mint: pools
 * holding it). Heartbeats as every stream. Frames are never conflated (one key per pool).
 */
import { MarketData } from '../../engine/services/market-data.js';
import type { PriceService } from '../../engine/services/price-service-types.js';
import { ApiError } from '../errors.js';
import type { RouteDef } from '../route.js';
import { sseFrame, type SseHub } from '../sse.js';

/** The pool discovery stream route. */
export function poolStreamRoute(prices: PriceService, market: MarketData, hub: SseHub): RouteDef {
  return {
    name: 'stream.pools',
    method: 'get',
    pattern: '/v1/stream/pools',
    auth: 'key',
    apiKeyQuery: true,
    meter: 'stream',
    stream: true,
    anonCacheTtlMs: 0,
    handler: (ctx) => {
      const dex = ctx.query.get('dex') ?? undefined;
      if (dex !== undefined && !MarketData.isDex(dex)) throw new ApiError('INVALID_REQUEST', 'Unknown dex', { details: `"${dex}" is not a DEX of this service` });
      const tokenRaw = ctx.query.get('token');
      const token = tokenRaw === null ? null : prices.resolve(tokenRaw);
      if (tokenRaw !== null && token === null) throw new ApiError('INVALID_REQUEST', 'Unknown token', { details: `"${tokenRaw}" is neither a tracked symbol nor a valid mint` });
      const mint = token?.mint;
      return {
        stream: {
          firstFrame: sseFrame('ready', { ts: Date.now(), dex: dex ?? null, token: mint ?? null }),
          open: (client) => {
            const stop = market.onDiscovered((r) => {
              if (dex !== undefined && r.dex !== dex) return;
              if (mint !== undefined && r.mintA !== mint && r.mintB !== mint) return;
              hub.send(client, `pool:${r.address}`, sseFrame('pool', r));
            });
            hub.onClose(client, stop);
          },
        },
      };
    },
  };
}
