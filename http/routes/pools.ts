/**
 * GET /v1/pools (filters `token`, `pair=A,B`, `dex`; `sort=liquidity|recency`; `limit`; `cursor`),
 * GET /v1/pools/:token, GET /v1/pools/:tokenA/:tokenB and GET /v1/pool/:address. No key; anonymous answers cached 5 s.
 * The body of a listing is `{ pools, count, total, nextCursor, sort }` (README, "Pools").
 */
import { MarketData, type PoolsQuery } from '../../engine/services/market-data.js';
import type { PriceService, ResolvedToken } from '../../engine/services/price-service-types.js';
import { ApiError } from '../errors.js';
import { listParam, numberParam } from '../query.js';
import type { RequestContext } from '../request-context.js';
import type { RouteDef } from '../route.js';
import { requireReady } from './warm-gate.js';

/** Anonymous cache of the pools routes (spec: 5 s). */
export const POOLS_CACHE_MS = 5000;
/** Default and largest page size of a listing. */
export const POOLS_DEFAULT_LIMIT = 50;
export const POOLS_MAX_LIMIT = 500;

function resolveToken(prices: PriceService, input: string, name: string): ResolvedToken {
  const r = prices.resolve(input);
  if (!r) throw new ApiError('INVALID_REQUEST', `Unknown ${name}`, { details: `"${input}" is neither a tracked symbol nor a valid mint` });
  return r;
}

/** Parses the listing parameters shared by the three listing routes; `fixed` carries path tokens. */
function listingQuery(ctx: RequestContext, prices: PriceService, fixed: { token?: string; pair?: [string, string] }): PoolsQuery {
  const q = ctx.query;
  const sortRaw = q.get('sort') ?? 'liquidity';
  if (sortRaw !== 'liquidity' && sortRaw !== 'recency') throw new ApiError('INVALID_REQUEST', 'Invalid sort', { details: 'sort must be liquidity or recency' });
  const limit = numberParam(q, 'limit', POOLS_DEFAULT_LIMIT, 1, POOLS_MAX_LIMIT);
  if (!Number.isInteger(limit)) throw new ApiError('INVALID_REQUEST', 'Invalid limit', { details: `limit must be an integer in [1, ${POOLS_MAX_LIMIT}]` });
  const dex = q.get('dex') ?? undefined;
  if (dex !== undefined && !MarketData.isDex(dex)) throw new ApiError('INVALID_REQUEST', 'Unknown dex', { details: `"${dex}" is not a DEX of this service` });
  const rawCursor = q.get('cursor');
  let cursor: PoolsQuery['cursor'] = null;
  if (rawCursor !== null) {
    cursor = MarketData.cursor(rawCursor, sortRaw);
    if (cursor === null) throw new ApiError('INVALID_REQUEST', 'Invalid cursor', { details: 'cursor must be the nextCursor of an earlier page with the same sort' });
  }
  let token = fixed.token;
  let pair = fixed.pair;
  if (token === undefined && pair === undefined) {
    const t = q.get('token');
    const p = q.get('pair');
    if (t !== null && p !== null) throw new ApiError('INVALID_REQUEST', 'token and pair together', { details: 'give token or pair, not both' });
    if (t !== null) token = t;
    if (p !== null) {
      const parts = listParam(p);
      if (parts.length !== 2) throw new ApiError('INVALID_REQUEST', 'Invalid pair', { details: 'pair is two tokens: pair=<A>,<B>' });
      pair = [parts[0]!, parts[1]!];
    }
  }
  return {
    sort: sortRaw,
    limit,
    cursor,
    ...(dex !== undefined ? { dex } : {}),
    ...(token !== undefined ? { token: resolveToken(prices, token, 'token') } : {}),
    ...(pair !== undefined ? { pair: [resolveToken(prices, pair[0], 'pair token'), resolveToken(prices, pair[1], 'pair token')] as const } : {}),
  };
}

/** The pools routes over `market`. */
export function poolsRoutes(prices: PriceService, market: MarketData): RouteDef[] {
  const base = { method: 'get', auth: 'none', apiKeyQuery: false, meter: 'pools', anonCacheTtlMs: POOLS_CACHE_MS } as const;
  return [
    {
      ...base,
      name: 'pools.browse',
      pattern: '/v1/pools',
      handler: (ctx) => {
        requireReady(prices);
        return { status: 200, body: market.pools(listingQuery(ctx, prices, {})) };
      },
    },
    {
      ...base,
      name: 'pools.token',
      pattern: '/v1/pools/:token',
      handler: (ctx) => {
        requireReady(prices);
        return { status: 200, body: market.pools(listingQuery(ctx, prices, { token: ctx.params.token ?? '' })) };
      },
    },
    {
      ...base,
      name: 'pools.pair',
      pattern: '/v1/pools/:tokenA/:tokenB',
      handler: (ctx) => {
        requireReady(prices);
        return { status: 200, body: market.pools(listingQuery(ctx, prices, { pair: [ctx.params.tokenA ?? '', ctx.params.tokenB ?? ''] })) };
      },
    },
    {
      ...base,
      name: 'pool.one',
      pattern: '/v1/pool/:address',
      handler: (ctx) => {
        requireReady(prices);
        const address = ctx.params.address ?? '';
        if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address)) throw new ApiError('INVALID_REQUEST', 'Invalid pool address', { details: 'address must be a base58 account address' });
        const r = market.pool(address);
        if (r === null) throw new ApiError('NOT_FOUND', 'Pool not indexed', { details: `no indexed pool has address ${address}` });
        return { status: 200, body: r };
      },
    },
  ];
}
