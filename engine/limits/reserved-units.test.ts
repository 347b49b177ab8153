import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReservedUnits } from './reserved-units.js';

test('reserved units: spent lowest position first; the answer is the last position taken', () => {
  const u = new ReservedUnits();
  u.add(1, 11);
  assert.equal(u.count, 11);
  assert.equal(u.take(1), 1);
  assert.equal(u.take(3), 4);
  assert.equal(u.count, 7);
  // A contiguous grant extends the range; a later one elsewhere (another instance reserved in between) follows it.
  u.add(12, 14);
  u.add(30, 31);
  assert.equal(u.count, 12);
  assert.equal(u.take(10), 14);
  assert.equal(u.take(2), 31);
  assert.equal(u.count, 0);
});

test('reserved units: a take spanning ranges, empty ranges ignored, clear forgets all', () => {
  const u = new ReservedUnits();
  u.add(5, 4);
  assert.equal(u.count, 0);
  u.add(1, 2);
  u.add(10, 12);
  assert.equal(u.take(4), 11);
  assert.equal(u.count, 1);
  u.clear();
  assert.equal(u.count, 0);
  u.add(20, 20);
  assert.equal(u.take(1), 20);
});

test('reserved units: 100,000 grants and takes keep the count and the order exact', () => {
  const u = new ReservedUnits();
  let next = 1;
  let expect = 0;
  let held = 0;
  for (let i = 0; i < 100_000; i++) {
    const g = 1 + (i % 7);
    // Every third grant skips positions (units another instance took).
    if (i % 3 === 0) next += 5;
    u.add(next, next + g - 1);
    held += g;
    next += g;
    const n = Math.min(held, 1 + (i % 5));
    const last = u.take(n);
    held -= n;
    assert.ok(last > expect, 'positions only grow');
    expect = last;
    assert.equal(u.count, held);
  }
});
