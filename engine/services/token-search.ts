/**
 * Search (GET /v1/search) inside the tracked universe: the catalog's tokens by symbol (aliases too), name and mint,
 * an indexed mint given whole, and an indexed pool given by its address. Ranked as the spec says: the exact symbol
 * first, then symbol prefixes, then names, then mints and pools; within a rank, deeper tokens (more pools) first,
 * then symbols in order. Nothing is discovered: a string that names nothing indexed finds nothing.
 */
import type { CatalogToken } from '../catalog/tokens.js';
import { isPrice, type PriceEntry } from '../router/price-types.js';
import type { PoolRecord } from './pool-records.js';

/** Default and largest `limit` (spec Limits: default 8, max 20). */
export const SEARCH_DEFAULT_LIMIT = 8;
export const SEARCH_MAX_LIMIT = 20;

/** One search result (spec: "Search result"). */
export interface SearchResult {
  readonly type: 'token' | 'pool';
  /** The mint of a token, the address of a pool. */
  readonly id: string;
  /** Where the service describes it: `/v1/token/<mint>` or `/v1/pool/<address>`. */
  readonly href: string;
  readonly symbol: string;
  readonly mint: string;
  readonly name: string;
  readonly category: string;
  /** True when a fresh price (or, for a pool, a fresh record) backs it now. */
  readonly live: boolean;
  /** True when at least one of its pools can trade now. */
  readonly tradeable: boolean;
  readonly poolCount: number;
  readonly priceUsd: number | null;
  /** The price's `change24h`; null while the price history holds no point 24 h old. */
  readonly change24h: number | null;
}

/** The search envelope. */
export interface SearchEnvelope {
  readonly query: string;
  readonly results: SearchResult[];
  readonly count: number;
  readonly limit: number;
}

/** What search reads. */
export interface SearchSource {
  readonly tokens: readonly CatalogToken[];
  /** Price and pools of an indexed or tracked mint; null when it is neither. */
  token(mint: string): { readonly price: PriceEntry; readonly poolCount: number; readonly activePools: number } | null;
  /** The record of an indexed pool, or null. */
  pool(address: string): PoolRecord | null;
}

/** A record older than this is not `live` (the price layer's staleness bound). */
const STALE_MS = 300_000;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

function tokenResult(mint: string, symbol: string, name: string, category: string, src: SearchSource): SearchResult | null {
  const t = src.token(mint);
  if (t === null) return null;
  const priced = isPrice(t.price);
  return {
    type: 'token',
    id: mint,
    href: `/v1/token/${mint}`,
    symbol,
    mint,
    name,
    category,
    live: priced && t.price.poolCacheAgeMs >= 0,
    tradeable: t.activePools > 0,
    poolCount: t.poolCount,
    priceUsd: priced && Number.isFinite(t.price.priceUsd) ? t.price.priceUsd : null,
    change24h: priced && t.price.change24h !== undefined ? t.price.change24h : null,
  };
}

function poolResult(r: PoolRecord, src: SearchSource): SearchResult {
  const a = r.symbolA ?? r.mintA.slice(0, 4);
  const b = r.symbolB ?? r.mintB.slice(0, 4);
  const priceA = src.token(r.mintA)?.price;
  return {
    type: 'pool',
    id: r.address,
    href: `/v1/pool/${r.address}`,
    symbol: `${a}/${b}`,
    mint: r.mintA,
    name: `${r.dex} ${a}/${b}`,
    category: 'pool',
    live: r.poolCacheAgeMs <= STALE_MS,
    tradeable: r.status === 'active',
    poolCount: 1,
    priceUsd: priceA !== undefined && isPrice(priceA) && Number.isFinite(priceA.priceUsd) ? priceA.priceUsd : null,
    change24h: null,
  };
}

/** Searches `query` (trimmed; 1-64 characters, the route checks) and returns at most `limit` results. */
export function searchTokens(query: string, limit: number, src: SearchSource): SearchEnvelope {
  const q = query.trim();
  const upper = q.toUpperCase();
  const lower = q.toLowerCase();
  type Hit = { rank: number; depth: number; key: string; result: SearchResult };
  const hits: Hit[] = [];
  const seen = new Set<string>();
  for (const t of src.tokens) {
    const names = [t.symbol, ...t.aliases].map((s) => s.toUpperCase());
    let rank = -1;
    if (names.includes(upper)) rank = 0;
    else if (names.some((s) => s.startsWith(upper))) rank = 1;
    else if (t.name.toLowerCase().includes(lower)) rank = 2;
    else if (q.length >= 4 && t.mint.startsWith(q)) rank = 3;
    if (rank < 0 || seen.has(t.mint)) continue;
    const result = tokenResult(t.mint, t.symbol, t.name, t.category, src);
    if (result === null) continue;
    seen.add(t.mint);
    hits.push({ rank, depth: result.poolCount, key: t.symbol, result });
  }
  if (BASE58.test(q) && !seen.has(q)) {
    // A whole address: an indexed mint outside the catalog, or a pool.
    const asToken = tokenResult(q, q.slice(0, 4), q, 'token', src);
    if (asToken !== null && asToken.poolCount > 0) hits.push({ rank: 3, depth: asToken.poolCount, key: q, result: asToken });
    const pool = src.pool(q);
    if (pool !== null) hits.push({ rank: 3, depth: 1, key: q, result: poolResult(pool, src) });
  }
  hits.sort((x, y) => x.rank - y.rank || y.depth - x.depth || (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  const results = hits.slice(0, limit).map((h) => h.result);
  return { query: q, results, count: results.length, limit };
}
