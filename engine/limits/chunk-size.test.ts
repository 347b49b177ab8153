import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isEngineError } from '../errors.js';
import { checkChunkRule, chunkSizeOf, DEFAULT_CHUNK_RULE, lowWaterOf } from './chunk-size.js';
import { LIMITS } from './table.js';

test('chunk rule: 1% of the quota, per call below 200 a window, at most 1000', () => {
  const cases: [number, number][] = [
    [0, 1],
    [5, 1],
    [30, 1], // anonymous prices
    [60, 1], // free prices
    [199, 1],
    [200, 2],
    [300, 3], // starter prices
    [600, 6],
    [1000, 10], // pro prices
    [2000, 20],
    [99_999, 999],
    [100_000, 1000],
    [1e9, 1000],
    [Infinity, 1],
  ];
  for (const [limit, chunk] of cases) assert.equal(chunkSizeOf(limit), chunk, `limit ${limit}`);
  assert.equal(chunkSizeOf(100, { divisor: 4, max: 1000 }), 25);
  assert.equal(chunkSizeOf(100, { divisor: 1, max: 50 }), 50);
});

test('chunk rule: every cell of the quota table gets a chunk of at most 1% of it (or 1)', () => {
  for (const [category, row] of Object.entries(LIMITS)) {
    for (const [tier, limit] of Object.entries(row as Record<string, number>)) {
      const chunk = chunkSizeOf(limit);
      assert.ok(chunk === 1 || chunk * DEFAULT_CHUNK_RULE.divisor <= limit, `${category}/${tier}: ${chunk} of ${limit}`);
    }
  }
});

test('chunk rule: the top-up mark is half a chunk (0 for chunks of 1)', () => {
  assert.deepEqual([1, 2, 3, 10, 1000].map(lowWaterOf), [0, 1, 1, 5, 500]);
});

test('chunk rule: knobs must be integers >= 1', () => {
  for (const rule of [{ divisor: 0, max: 1 }, { divisor: 1, max: 0 }, { divisor: 2.5, max: 10 }, { divisor: NaN, max: 10 }]) {
    assert.throws(() => checkChunkRule(rule), (e: unknown) => isEngineError(e, 'LIMITS_BAD_ARGUMENT'));
  }
  checkChunkRule(DEFAULT_CHUNK_RULE);
  assert.equal(Object.isFrozen(DEFAULT_CHUNK_RULE), true);
});
