import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TIERS } from '../tiers/tier.js';
import { CATEGORIES, DEFAULT_CELLS, LIMITS, SOURCE, STREAM_SLOTS, isCategory, quotaOf, streamSlotsOf } from './table.js';

const row = (c: (typeof CATEGORIES)[number]): number[] => TIERS.map((t) => quotaOf(c, t));

test('the spec rows are pinned (anonymous, free, starter, growth, pro, internal)', () => {
  assert.deepEqual(row('prices'), [30, 60, 300, 600, 1000, Infinity]);
  assert.deepEqual(row('pools'), [60, 300, 300, 300, 300, Infinity]);
  assert.deepEqual(row('quote'), [0, 60, 60, 60, 60, Infinity]);
  assert.deepEqual(row('quote-stream'), [0, 10, 60, 150, 300, Infinity]);
  assert.deepEqual(row('swap'), [0, 10, 10, 10, 10, Infinity]);
  assert.deepEqual(row('forensics'), [0, 0, 60, 150, 300, Infinity]);
  assert.deepEqual(row('portfolio'), [0, 5, 30, 75, 150, Infinity]);
  assert.deepEqual(TIERS.map(streamSlotsOf), [0, 1, 3, 5, 10, Infinity]);
});

test('the default rows are pinned', () => {
  assert.deepEqual(row('search'), [60, 120, 300, 600, 1000, Infinity]);
  assert.deepEqual(row('tokens'), [60, 60, 300, 600, 1000, Infinity]);
  assert.deepEqual(row('logo'), [120, 600, 600, 1200, 2000, Infinity]);
  assert.deepEqual(row('history'), [0, 5, 30, 60, 120, Infinity]);
  assert.deepEqual(row('tx'), [0, 60, 300, 600, 1000, Infinity]);
  assert.deepEqual(row('stream'), [0, 10, 60, 150, 300, Infinity]);
  assert.deepEqual(row('send'), [0, 10, 10, 10, 10, Infinity]);
  assert.deepEqual(row('webhooks'), [0, 30, 60, 120, 300, Infinity]);
  assert.deepEqual(row('points'), [0, 30, 30, 60, 60, Infinity]);
  assert.deepEqual(row('supply'), [60, 120, 300, 600, 1000, Infinity]);
  assert.deepEqual(row('attestation'), row('supply'));
  assert.deepEqual(row('balances'), [0, 30, 120, 300, 600, Infinity]);
});

test('every category has a source; the spec ones are exactly the seven the spec gives', () => {
  assert.deepEqual(Object.keys(LIMITS).sort(), [...CATEGORIES].sort());
  assert.deepEqual(Object.keys(SOURCE).sort(), [...CATEGORIES].sort());
  assert.deepEqual(
    CATEGORIES.filter((c) => SOURCE[c] === 'spec'),
    ['prices', 'pools', 'quote', 'quote-stream', 'swap', 'forensics', 'portfolio'],
  );
  assert.deepEqual(DEFAULT_CELLS, [
    { table: 'quote-stream', tier: 'growth' },
    { table: 'stream-slots', tier: 'growth' },
  ]);
});

test('the tables are frozen and isCategory guards names', () => {
  assert.ok(Object.isFrozen(LIMITS) && Object.isFrozen(LIMITS.prices) && Object.isFrozen(STREAM_SLOTS));
  assert.throws(() => {
    (LIMITS.prices as Record<string, number>).free = 1;
  });
  assert.equal(isCategory('prices'), true);
  assert.equal(isCategory('nope'), false);
});
