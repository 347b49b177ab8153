/**
 * GET /v1/search?q=&limit= (the spec's search envelope), GET /v1/tokens (the tracked tokens) and GET /v1/token/:mint
 * (a token's page: price, pools, venues per DEX). No key. Shapes in the README ("Search and tokens").
 */
import type { MarketData } from '../../engine/services/market-data.js';
import type { PriceService } from '../../engine/services/price-service-types.js';
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT } from '../../engine/services/token-search.js';
import { ApiError } from '../errors.js';
import { numberParam } from '../query.js';
import type { RouteDef } from '../route.js';
import { requireReady } from './warm-gate.js';

/** Longest accepted `q` (a base58 address is at most 44 characters). */
export const SEARCH_MAX_QUERY = 64;
/** Anonymous cache of search and the token routes. */
export const TOKENS_CACHE_MS = 2000;

/** The search and token routes over `market`. */
export function tokenRoutes(prices: PriceService, market: MarketData): RouteDef[] {
  const base = { method: 'get', auth: 'none', apiKeyQuery: false, anonCacheTtlMs: TOKENS_CACHE_MS } as const;
  return [
    {
      ...base,
      name: 'search',
      pattern: '/v1/search',
      meter: 'search',
      handler: (ctx) => {
        requireReady(prices);
        const q = (ctx.query.get('q') ?? '').trim();
        if (q.length === 0 || q.length > SEARCH_MAX_QUERY) {
          throw new ApiError('INVALID_REQUEST', 'Invalid q', { details: `q is 1 to ${SEARCH_MAX_QUERY} characters: a symbol, a name, a mint or a pool address` });
        }
        const limit = numberParam(ctx.query, 'limit', SEARCH_DEFAULT_LIMIT, 1, SEARCH_MAX_LIMIT);
        if (!Number.isInteger(limit)) throw new ApiError('INVALID_REQUEST', 'Invalid limit', { details: `limit must be an integer in [1, ${SEARCH_MAX_LIMIT}]` });
        return { status: 200, body: market.search(q, limit) };
      },
    },
    {
      ...base,
      name: 'tokens.list',
      pattern: '/v1/tokens',
      meter: 'tokens',
      handler: () => {
        const tokens = market.tokens();
        return { status: 200, body: { tokens, count: tokens.length } };
      },
    },
    {
      ...base,
      name: 'token.page',
      pattern: '/v1/token/:mint',
      meter: 'tokens',
      handler: (ctx) => {
        requireReady(prices);
        const input = ctx.params.mint ?? '';
        const resolved = prices.resolve(input);
        if (!resolved) throw new ApiError('INVALID_REQUEST', 'Invalid mint', { details: `"${input}" is neither a tracked symbol nor a valid mint` });
        const page = market.tokenPage(resolved);
        if (page === null) throw new ApiError('TOKEN_NOT_FOUND', 'Token not indexed', { details: `${resolved.mint} is neither tracked nor in any indexed pool` });
        return { status: 200, body: page };
      },
    },
  ];
}
