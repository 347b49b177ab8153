import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agedPriceEntry } from './price-age.js';
import type { PriceObject } from './price-types.js';

const price = (poolCacheAgeMs: number, optimisticAgeMs?: number): PriceObject => ({
  token: 'X', mint: 'm', priceUsd: 1, bestBid: 1, bestAsk: 1, bestBidPool: 'p', bestAskPool: 'p', bestBidDex: 'd',
  bestAskDex: 'd', bestBidFeeBps: 25, bestAskFeeBps: 25, poolCacheAgeMs, confidence: optimisticAgeMs === undefined ? 'confirmed' : 'optimistic',
  ...(optimisticAgeMs === undefined ? {} : { optimisticAgeMs }), poolCount: 1, timestamp: 0, route: 'direct',
});

test('a price served later is older by the time since it was computed', () => {
  const p = price(120, 40);
  const aged = agedPriceEntry(p, 1500) as PriceObject;
  assert.equal(aged.poolCacheAgeMs, 1620);
  assert.equal(aged.optimisticAgeMs, 1540);
  assert.equal(p.poolCacheAgeMs, 120, 'the cached original is not changed');
});

test('past the stale bound the age becomes -1, and -1 stays -1', () => {
  assert.equal((agedPriceEntry(price(299_000), 2000, 300_000) as PriceObject).poolCacheAgeMs, -1);
  assert.equal((agedPriceEntry(price(-1), 2000) as PriceObject).poolCacheAgeMs, -1);
  const unavailable = { token: 'X', status: 'unavailable' as const, reason: 'r' };
  assert.equal(agedPriceEntry(unavailable, 5000), unavailable);
});
