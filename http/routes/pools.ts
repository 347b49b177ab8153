/**
 * GET /v1/pools (filters `token`, `pair=A,B`, `dex`; `sort=liquidity|recency`; `limit`; `cursor`),
 * GET /v1/pools/:token, GET /v1/pools/:tokenA/:tokenB, GET /v1/pools/new, GET /v1/pools/dead, GET /v1/pools/seed
 * (bulk export, JSON or MessagePack by `Accept`) and GET /v1/pool/:address. No key; anonymous answers cached 5 s
 * (not the export). The body of a listing is `{ pools, count, total, nextCursor, sort }` (README, "Pools").
 */
import { pack } from 'msgpackr';
import { MarketData, type PoolsQuery } from '../../engine/services/market-data.js';
import type { PriceService, ResolvedToken } from '../../engine/services/price-service-types.js';
import { ApiError } from '../errors.js';
import { listParam, numberParam } from '../query.js';
import type { Reply, RequestContext } from '../request-context.js';
import type { RouteDef } from '../route.js';
import { requireReady } from './warm-gate.js';

/** Anonymous cache of the pools routes (spec: 5 s). */
export const POOLS_CACHE_MS = 5000;
/** Default and largest page size of a listing. */
export const POOLS_DEFAULT_LIMIT = 50;
export const POOLS_MAX_LIMIT = 500;
/** Default and largest page of the bulk export. */
export const SEED_DEFAULT_LIMIT = 1000;
export const SEED_MAX_LIMIT = 5000;
/** The MessagePack media type of the export. */
export const MSGPACK_TYPE = 'application/x-msgpack';

/** `limit` as an integer in [1, max]. */
function limitParam(ctx: RequestContext, dflt: number, max: number): number {
  const limit = numberParam(ctx.query, 'limit', dflt, 1, max);
  if (!Number.isInteger(limit)) throw new ApiError('INVALID_REQUEST', 'Invalid limit', { details: `limit must be an integer in [1, ${max}]` });
  return limit;
}

/** `dex`, checked against this build's DEXes. */
function dexParam(ctx: RequestContext): string | undefined {
  const dex = ctx.query.get('dex') ?? undefined;
  if (dex !== undefined && !MarketData.isDex(dex)) throw new ApiError('INVALID_REQUEST', 'Unknown dex', { details: `"${dex}" is not a DEX of this service` });
  return dex;
}

/** `cursor` of a listing under `sort`. */
function cursorParam(ctx: RequestContext, sort: 'liquidity' | 'recency'): PoolsQuery['cursor'] {
  const raw = ctx.query.get('cursor');
  if (raw === null) return null;
  const cursor = MarketData.cursor(raw, sort);
  if (cursor === null) throw new ApiError('INVALID_REQUEST', 'Invalid cursor', { details: 'cursor must be the nextCursor of an earlier page with the same sort' });
  return cursor;
}

/** `sort`: liquidity (default) or recency. */
function sortParam(ctx: RequestContext): 'liquidity' | 'recency' {
  const sort = ctx.query.get('sort') ?? 'liquidity';
  if (sort !== 'liquidity' && sort !== 'recency') throw new ApiError('INVALID_REQUEST', 'Invalid sort', { details: 'sort must be liquidity or recency' });
  return sort;
}

function resolveToken(prices: PriceService, input: string, name: string): ResolvedToken {
  const r = prices.resolve(input);
  if (!r) throw new ApiError('INVALID_REQUEST', `Unknown ${name}`, { details: `"${input}" is neither a tracked symbol nor a valid mint` });
  return r;
}

/** Parses the listing parameters shared by the three listing routes; `fixed` carries path tokens. */
function listingQuery(ctx: RequestContext, prices: PriceService, fixed: { token?: string; pair?: [string, string] }): PoolsQuery {
  const q = ctx.query;
  const sortRaw = sortParam(ctx);
  const limit = limitParam(ctx, POOLS_DEFAULT_LIMIT, POOLS_MAX_LIMIT);
  const dex = dexParam(ctx);
  const cursor = cursorParam(ctx, sortRaw);
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
      name: 'pools.new',
      pattern: '/v1/pools/new',
      handler: (ctx) => {
        requireReady(prices);
        const dex = dexParam(ctx);
        return { status: 200, body: market.newPools({ limit: limitParam(ctx, POOLS_DEFAULT_LIMIT, POOLS_MAX_LIMIT), cursor: cursorParam(ctx, 'recency'), ...(dex ? { dex } : {}) }) };
      },
    },
    {
      ...base,
      name: 'pools.dead',
      pattern: '/v1/pools/dead',
      handler: (ctx) => {
        requireReady(prices);
        const dex = dexParam(ctx);
        const sort = sortParam(ctx);
        return { status: 200, body: market.deadPools({ sort, limit: limitParam(ctx, POOLS_DEFAULT_LIMIT, POOLS_MAX_LIMIT), cursor: cursorParam(ctx, sort), ...(dex ? { dex } : {}) }) };
      },
    },
    {
      ...base,
      name: 'pools.seed',
      pattern: '/v1/pools/seed',
      // A bulk export pages through everything: caching its pages for anonymous callers would only hold memory.
      anonCacheTtlMs: 0,
      handler: (ctx): Reply => {
        requireReady(prices);
        const raw = ctx.query.get('cursor');
        const from = raw === null ? 0 : /^\d{1,9}$/.test(raw) ? Number(raw) : -1;
        if (from < 0) throw new ApiError('INVALID_REQUEST', 'Invalid cursor', { details: 'cursor must be the nextCursor of an earlier page' });
        const pageOut = market.seed(from, limitParam(ctx, SEED_DEFAULT_LIMIT, SEED_MAX_LIMIT));
        const accept = ctx.headers['accept'] ?? '';
        if (accept.includes(MSGPACK_TYPE)) return { status: 200, body: pack(pageOut), headers: { 'content-type': MSGPACK_TYPE, vary: 'accept' } };
        return { status: 200, body: pageOut, headers: { vary: 'accept' } };
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
