import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BlockhashCache, type RecentBlockhash } from './blockhash-cache.js';

const hash = (n: number): RecentBlockhash => ({ blockhash: `h${n}`, lastValidBlockHeight: n });

test('no blockhash before the first answer; the latest after each refresh', async () => {
  let n = 0;
  const cache = new BlockhashCache(async () => hash(++n));
  assert.equal(cache.current(), null);
  await cache.refresh();
  assert.deepEqual(cache.current(), hash(1));
  await cache.refresh();
  assert.deepEqual(cache.current(), hash(2));
});

test('a failed refresh keeps the previous blockhash until it is too old', async () => {
  let now = 0;
  let fail = false;
  const errors: unknown[] = [];
  const cache = new BlockhashCache(
    async () => {
      if (fail) throw new Error('node down');
      return hash(7);
    },
    { now: () => now, maxAgeMs: 1000, onError: (e) => errors.push(e) },
  );
  await cache.refresh();
  fail = true;
  now = 900;
  await cache.refresh();
  assert.deepEqual(cache.current(), hash(7));
  assert.equal(errors.length, 1);
  now = 1001;
  assert.equal(cache.current(), null, 'older than maxAgeMs: none');
});

test('start fetches at once and on the timer; close stops it', async () => {
  let calls = 0;
  const cache = new BlockhashCache(async () => hash(++calls), { refreshMs: 5 });
  cache.start();
  assert.equal(calls, 1, 'the first fetch starts at once');
  while (calls < 3) await new Promise((r) => setTimeout(r, 5));
  cache.close();
  const seen = calls;
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(calls, seen, 'no fetch after close');
  assert.deepEqual(cache.current(), hash(seen));
});
