/**
 * GET /v1/price/:token/history?interval=1m|5m|1h&from=&to= (an extension: the spec has no history route): OHLC
 * candles of the token's USD price from the service's own history (`engine/services/price-history.ts`), oldest
 * first, `{ token, mint, interval, from, to, candles: [{ t, open, high, low, close }], count }`. `from` / `to` are
 * epoch ms (default: the last 24 h), at most 25 h apart and at most 1,500 candles; a bucket with no sample is absent
 * (no candle is invented). No key; anonymous answers cached 10 s.
 */
import type { CandleInterval, PriceHistory } from '../../engine/services/price-history.js';
import type { PriceService } from '../../engine/services/price-service-types.js';
import { ApiError } from '../errors.js';
import { numberParam } from '../query.js';
import type { RouteDef } from '../route.js';
import { requireReady } from './warm-gate.js';

const HOUR = 3_600_000;
/** Longest window one request may ask. */
export const HISTORY_MAX_SPAN_MS = 25 * HOUR;
const INTERVALS: readonly CandleInterval[] = ['1m', '5m', '1h'];
const INTERVAL_MS: Readonly<Record<CandleInterval, number>> = { '1m': 60_000, '5m': 300_000, '1h': HOUR };
const MAX_CANDLES = 1500;

/** The candles route. */
export function priceHistoryRoute(prices: PriceService, history: PriceHistory, now: () => number = Date.now): RouteDef {
  return {
    name: 'price.history',
    method: 'get',
    pattern: '/v1/price/:token/history',
    auth: 'none',
    apiKeyQuery: false,
    meter: 'prices',
    anonCacheTtlMs: 10_000,
    handler: async (ctx) => {
      requireReady(prices);
      const input = ctx.params.token ?? '';
      const resolved = prices.resolve(input);
      if (!resolved) throw new ApiError('INVALID_REQUEST', 'Unknown token', { details: `"${input}" is neither a tracked symbol nor a valid mint` });
      const interval = (ctx.query.get('interval') ?? '5m') as CandleInterval;
      if (!INTERVALS.includes(interval)) throw new ApiError('INVALID_REQUEST', 'Invalid interval', { details: 'interval is 1m, 5m or 1h' });
      const nowMs = now();
      const to = numberParam(ctx.query, 'to', nowMs, 0, 8.64e15);
      const from = numberParam(ctx.query, 'from', to - 24 * HOUR, 0, 8.64e15);
      if (!Number.isInteger(from) || !Number.isInteger(to) || from >= to) throw new ApiError('INVALID_REQUEST', 'Invalid window', { details: 'from and to are epoch ms, from < to' });
      if (to - from > HISTORY_MAX_SPAN_MS) throw new ApiError('INVALID_REQUEST', 'Window too long', { details: `at most ${HISTORY_MAX_SPAN_MS / HOUR} h between from and to` });
      if ((to - from) / INTERVAL_MS[interval] > MAX_CANDLES) throw new ApiError('INVALID_REQUEST', 'Too many candles', { details: `at most ${MAX_CANDLES} candles: a larger interval or a shorter window` });
      const candles = await history.candles(resolved.mint, interval, from, to);
      return { status: 200, body: { token: resolved.token, mint: resolved.mint, interval, from, to, candles, count: candles.length } };
    },
  };
}
