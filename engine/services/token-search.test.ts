import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogToken } from '../catalog/tokens.js';
import type { PriceEntry } from '../router/price-types.js';
import type { PoolRecord } from './pool-records.js';
import { searchTokens, type SearchSource } from './token-search.js';

const tok = (symbol: string, name: string, mint: string, aliases: string[] = []): CatalogToken => ({ symbol, name, mint, decimals: 6, aliases, category: 'defi' });
const TOKENS = [
  tok('SOL', 'Solana', 'So11111111111111111111111111111111111111112'),
  tok('SOLX', 'Sol Extra', 'SoLx111111111111111111111111111111111111111'),
  tok('JITOSOL', 'Jito Staked SOL', 'J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn'),
  tok('WBTC', 'Wrapped BTC', '3NZ9JMVBmGAqocybic2c7LQCJScmgsAZ6vQqTDzcqmJh', ['BTC']),
  tok('NOPOOL', 'Never traded', '4vNvSPX9Lxs8wZMmGk8twwUwmdb2u5QGjYnj94aefHJe'),
];
const POOL = '7JuwJuNU88gurFnyWeiyGKbFmExMWcmRZntn9imEzdny';
const OUTSIDE = 'FrnsiaHaDfWsonmBkApwudxNmuYY5PuYnmZNhSqjifqD';

const price = (token: string, priceUsd: number): PriceEntry =>
  ({ token, mint: token, priceUsd, bestBid: priceUsd, bestAsk: priceUsd, bestBidPool: '', bestAskPool: '', bestBidDex: '', bestAskDex: '', bestBidFeeBps: 0, bestAskFeeBps: 0, poolCacheAgeMs: 10, confidence: 'confirmed', poolCount: 1, timestamp: 0, route: 'direct' });

const SOURCE: SearchSource = {
  tokens: TOKENS,
  token: (mint) => {
    if (mint === TOKENS[4]!.mint) return null;
    if (mint === OUTSIDE) return { price: price(mint, 0.01), poolCount: 1, activePools: 1 };
    const i = TOKENS.findIndex((t) => t.mint === mint);
    if (i < 0) return null;
    return { price: price(mint, 10 + i), poolCount: 10 - i, activePools: i === 1 ? 0 : 1 };
  },
  pool: (address) =>
    address === POOL
      ? ({ address: POOL, dex: 'raydium-cpmm', mintA: TOKENS[0]!.mint, mintB: TOKENS[3]!.mint, symbolA: 'SOL', symbolB: 'WBTC', poolCacheAgeMs: 5, status: 'active' } as PoolRecord)
      : null,
};

test('the exact symbol first, then symbol prefixes, then names, each deeper first', () => {
  const r = searchTokens('sol', 8, SOURCE);
  assert.deepEqual(r.results.map((x) => x.symbol), ['SOL', 'SOLX', 'JITOSOL']);
  assert.equal(r.query, 'sol');
  assert.equal(r.count, 3);
  assert.equal(r.limit, 8);
  const first = r.results[0]!;
  assert.deepEqual(
    { type: first.type, id: first.id, href: first.href, live: first.live, tradeable: first.tradeable, poolCount: first.poolCount, priceUsd: first.priceUsd, change24h: first.change24h },
    { type: 'token', id: TOKENS[0]!.mint, href: `/v1/token/${TOKENS[0]!.mint}`, live: true, tradeable: true, poolCount: 10, priceUsd: 10, change24h: null },
  );
  assert.equal(r.results[1]!.tradeable, false, 'SOLX has no active pool');
});

test('an alias is an exact symbol; limit cuts the ranked list', () => {
  assert.deepEqual(searchTokens('btc', 8, SOURCE).results.map((x) => x.symbol), ['WBTC']);
  assert.deepEqual(searchTokens('s', 1, SOURCE).results.map((x) => x.symbol), ['SOL']);
});

test('mints by prefix (catalog) or whole (indexed outside the catalog); pools by whole address; nothing discovered', () => {
  assert.deepEqual(searchTokens('J1to', 8, SOURCE).results.map((x) => x.symbol), ['JITOSOL']);
  const outside = searchTokens(OUTSIDE, 8, SOURCE).results;
  assert.deepEqual(outside.map((x) => [x.type, x.mint]), [['token', OUTSIDE]]);
  const pool = searchTokens(POOL, 8, SOURCE).results;
  assert.deepEqual(pool.map((x) => [x.type, x.id, x.symbol, x.href]), [['pool', POOL, 'SOL/WBTC', `/v1/pool/${POOL}`]]);
  assert.equal(searchTokens('NOPOOL', 8, SOURCE).count, 0, 'a tracked token with no indexed pool is not found');
  assert.equal(searchTokens('Never', 8, SOURCE).count, 0);
  assert.equal(searchTokens('11111111111111111111111111111111', 8, SOURCE).count, 0);
});
