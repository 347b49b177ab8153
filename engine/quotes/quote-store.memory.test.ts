import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryQuoteStore } from './memory-quote-store.js';
import { EXPIRED_KEPT_MS, isQuoteId, newQuoteId } from './quote-store.js';
import { quoteStoreSuite } from './testing/quote-store-suite.js';

quoteStoreSuite('memory', async (now) => {
  const s = new MemoryQuoteStore({ now });
  return { a: s, b: s, close: () => s.close() };
});

test('quote ids: q_ and 128 random bits, never repeated', () => {
  const ids = new Set(Array.from({ length: 10_000 }, () => newQuoteId()));
  assert.equal(ids.size, 10_000);
  for (const id of [...ids].slice(0, 10)) assert.ok(isQuoteId(id), id);
  for (const bad of ['', 'q_', 'q_XYZ', `q_${'a'.repeat(31)}`, `Q_${'a'.repeat(32)}`, `q_${'a'.repeat(33)}`]) assert.equal(isQuoteId(bad), false, bad);
});

test('memory: bounded, oldest dropped first; quotes past their expired mark swept on the next put', async () => {
  let now = 1_000_000;
  const s = new MemoryQuoteStore({ maxEntries: 3, now: () => now });
  const ids = Array.from({ length: 4 }, () => newQuoteId());
  for (const id of ids) await s.put({ quoteId: id, expiresAtMs: now + 30_000, payload: id });
  assert.equal(s.size, 3);
  assert.deepEqual(await s.take(ids[0]!, now), { status: 'not-found' }, 'the oldest was dropped');
  assert.equal((await s.take(ids[3]!, now)).status, 'ok');
  now += 30_000 + EXPIRED_KEPT_MS;
  await s.put({ quoteId: newQuoteId(), expiresAtMs: now + 30_000, payload: '' });
  assert.equal(s.size, 1, 'the two left were swept');
});
