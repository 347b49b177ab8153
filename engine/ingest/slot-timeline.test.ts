import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SlotTimeline } from './slot-timeline.js';

test('a slot opened no earlier than the newest poll that answered below it', () => {
  const t = new SlotTimeline();
  t.observe(100n, 1000);
  t.observe(100n, 1200);
  t.observe(101n, 1400);
  t.observe(103n, 1600);
  assert.equal(t.notAfterOpenMs(101n, 9999), 1200);
  assert.equal(t.notAfterOpenMs(102n, 9999), 1400);
  assert.equal(t.notAfterOpenMs(104n, 9999), 1600);
  assert.equal(t.notAfterOpenMs(500n, 9999), 1600);
  // Never later than the caller's own bound (the arrival time).
  assert.equal(t.notAfterOpenMs(104n, 1500), 1500);
});

test('slots at or below every kept poll are estimated back from the oldest poll', () => {
  const t = new SlotTimeline({ assumedSlotMs: 400 });
  t.observe(100n, 10_000);
  assert.equal(t.notAfterOpenMs(100n, 99_999), 10_000 - 400);
  assert.equal(t.notAfterOpenMs(90n, 99_999), 10_000 - 11 * 400);
  assert.equal(new SlotTimeline().notAfterOpenMs(5n, 123), 123);
});

test('the ring keeps the newest polls in order and ignores answers that go backwards', () => {
  const t = new SlotTimeline({ capacity: 4 });
  for (let i = 0; i < 10; i++) t.observe(BigInt(100 + i), 1000 + i * 100);
  t.observe(50n, 5000);
  assert.equal(t.newest()!.tip, 109n);
  // Kept: tips 106..109 at 1600..1900.
  assert.equal(t.notAfterOpenMs(108n, 1e9), 1700);
  assert.equal(t.notAfterOpenMs(107n, 1e9), 1600);
  assert.equal(t.notAfterOpenMs(106n, 1e9), 1600 - 400);
  t.reset();
  assert.equal(t.newest(), undefined);
});
