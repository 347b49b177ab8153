import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLimiters } from './factory.js';
import { MemorySlotLimiter } from './memory-slots.js';
import { MemoryWindowLimiter } from './memory-window.js';
import { slotsSuite } from './testing/slots-suite.js';
import { windowSuite } from './testing/window-suite.js';

windowSuite('memory', async (windowMs) => {
  const l = new MemoryWindowLimiter({ windowMs });
  return { a: l, b: l, close: () => l.close() };
});

slotsSuite('memory', async () => {
  const l = new MemorySlotLimiter();
  return { a: l, b: l, settle: async () => undefined, close: () => l.close() };
});

test('memory window: consume answers synchronously', async () => {
  const l = new MemoryWindowLimiter();
  const d = l.consume('sync', 1, 1, Date.now());
  assert.equal(d instanceof Promise, false);
  assert.equal(d.allowed, true);
  await l.close();
});

test('memory window: past windows are dropped, so memory follows the active buckets', async () => {
  const l = new MemoryWindowLimiter({ windowMs: 1000, sweepIntervalMs: 0 });
  const t = 1_000_000_000_000;
  for (let i = 0; i < 10_000; i++) l.consume(`b${i}`, 1, 10, t);
  assert.equal(l.size, 10_000);
  // The previous window is kept for calls stamped just before the boundary...
  l.consume('next', 1, 10, t + 1000);
  assert.equal(l.size, 10_001);
  // ...and dropped when a newer window opens.
  l.consume('later', 1, 10, t + 2000);
  assert.equal(l.size, 2);
  l.sweep(t + 10_000);
  assert.equal(l.size, 0);
  // Refused and zero-cost calls allocate nothing.
  l.consume('refused', 1, 0, t + 10_000);
  l.consume('peek', 0, 10, t + 10_000);
  assert.equal(l.size, 0);
  await l.close();
});

test('memory window: the sweep timer empties an idle limiter', async () => {
  const l = new MemoryWindowLimiter({ windowMs: 1000, sweepIntervalMs: 20 });
  l.consume('old', 1, 10, Date.now() - 5000);
  assert.equal(l.size, 1);
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(l.size, 0);
  await l.close();
});

test('memory slots: a subject back at zero has no entry; leases from before close() are inert', async () => {
  const l = new MemorySlotLimiter();
  const d = await l.acquire('k', 2);
  assert.equal(l.size, 1);
  if (d.ok) d.lease.release();
  assert.equal(l.size, 0);
  const old = await l.acquire('k', 2);
  await l.close();
  const fresh = await l.acquire('k', 2);
  if (old.ok) old.lease.release();
  assert.equal(await l.held('k'), 1);
  if (fresh.ok) fresh.lease.release();
  assert.equal(l.size, 0);
});

test('factory without a Redis URL builds memory limiters', async () => {
  const limits = createLimiters();
  assert.equal(limits.backend, 'memory');
  assert.equal(await limits.ready(), true);
  assert.equal((await limits.window.consume('f', 1, 1, Date.now())).allowed, true);
  const d = await limits.slots.acquire('f', 1);
  assert.equal(d.ok, true);
  await limits.close();
});
