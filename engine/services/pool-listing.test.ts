import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeCursor, encodeCursor, page, sortRecords } from './pool-listing.js';
import type { PoolRecord } from './pool-records.js';

function rec(address: string, liquidityUsd: number | null, discoveredAt: number): PoolRecord {
  return {
    address, dex: 'raydium-cpmm', programId: 'p', mintA: 'a', mintB: 'b', symbolA: null, symbolB: null, decimalsA: 6, decimalsB: 9,
    reserveA: '1', reserveB: '1', feeBps: 25, liquidityUsd, priceAInB: 1, slot: 1, poolCacheAgeMs: 0, confidence: 'confirmed',
    discoveredAt, status: 'active', statusCode: 0,
  };
}

test('liquidity order: deepest first, unpriced last, ties by address; recency: newest first', () => {
  const rs = [rec('c', 5, 3), rec('a', null, 9), rec('b', 5, 1), rec('d', 50, 2)];
  assert.deepEqual(sortRecords([...rs], 'liquidity').map((r) => r.address), ['d', 'b', 'c', 'a']);
  assert.deepEqual(sortRecords([...rs], 'recency').map((r) => r.address), ['a', 'c', 'd', 'b']);
});

test('paging by cursor visits every record once, also when records are added between pages', () => {
  const all = sortRecords(Array.from({ length: 23 }, (_v, i) => rec(`p${String(i).padStart(2, '0')}`, (i * 7) % 10, i)), 'liquidity');
  const seen: string[] = [];
  let cursor = null;
  let list = all;
  for (let n = 0; n < 20; n++) {
    const p = page(list, 'liquidity', cursor, 4);
    seen.push(...p.pools.map((r) => r.address));
    if (p.nextCursor === null) break;
    cursor = decodeCursor(p.nextCursor, 'liquidity');
    assert.ok(cursor);
    if (n === 1) {
      // A pool deeper than every record already served, and one shallower than all: only the second is still ahead.
      list = sortRecords([...list, rec('zz-deep', 1_000, 99), rec('zz-shallow', 0.5, 98)], 'liquidity');
    }
  }
  assert.deepEqual(seen, [...all.map((r) => r.address), 'zz-shallow'].sort((x, y) => {
    const order = sortRecords([...all, rec('zz-shallow', 0.5, 98)], 'liquidity').map((r) => r.address);
    return order.indexOf(x) - order.indexOf(y);
  }));
  assert.equal(new Set(seen).size, seen.length, 'no record twice');
});

test('a cursor decodes only for the sort it was issued for; garbage is refused', () => {
  const c = encodeCursor(rec('abc', 12.5, 7), 'liquidity');
  assert.deepEqual(decodeCursor(c, 'liquidity'), { sort: 'liquidity', value: 12.5, address: 'abc' });
  assert.equal(decodeCursor(c, 'recency'), null);
  for (const bad of ['', '!!', 'e30', Buffer.from('{"s":"liquidity","v":"x","a":"a"}').toString('base64url'), 'a'.repeat(600)]) {
    assert.equal(decodeCursor(bad, 'liquidity'), null, bad);
  }
});

test('the last page has no next cursor; an empty list gives an empty page', () => {
  const rs = sortRecords([rec('a', 1, 1), rec('b', 2, 2)], 'liquidity');
  assert.equal(page(rs, 'liquidity', null, 2).nextCursor, null);
  assert.notEqual(page(rs, 'liquidity', null, 1).nextCursor, null);
  assert.deepEqual(page([], 'liquidity', null, 5), { pools: [], nextCursor: null });
});
