import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RouteSearcher } from './route-search.js';
import { DEFAULT_ROUTE_LIMITS } from './route-types.js';
import { randomUniverse, UNIVERSE_NOW_MS } from './testing/random-universe.js';

test('a raised cancel word stops the search with CANCELLED (not ROUTE_TIMEOUT), before it starts or midway', () => {
  const u = randomUniverse(3, 6, 14, 0);
  const s = new RouteSearcher(u.src, { ...DEFAULT_ROUTE_LIMITS, confirmCount: 1_000_000 });
  const req = { inputMint: u.mints[0]!, outputMint: u.mints[1]!, amount: 1000n, mode: 'ExactIn' as const, nowMs: UNIVERSE_NOW_MS };
  const free = s.search(req);
  assert.ok(free.ok, 'the pair has a route: a cancel is what stops it');
  // The worker's cancel check: one Int32 word of a SharedArrayBuffer, read atomically.
  const word = new Int32Array(new SharedArrayBuffer(4));
  const cancelled = (): boolean => Atomics.load(word, 0) !== 0;
  assert.deepEqual(s.search({ ...req, cancelled }), free, 'a word never raised changes nothing');
  Atomics.store(word, 0, 1);
  assert.deepEqual(s.search({ ...req, cancelled }), { ok: false, code: 'CANCELLED', message: 'route search cancelled' });
  // Raised during the search: at the n-th check, for every n the search makes.
  let checks = 0;
  const counting = (): boolean => (checks++, false);
  s.search({ ...req, cancelled: counting });
  assert.ok(checks >= 3, `only ${checks} checks`);
  for (let n = 1; n < checks; n++) {
    let seen = 0;
    const midway = s.search({ ...req, cancelled: () => ++seen > n });
    assert.equal(midway.ok ? 'ok' : midway.code, 'CANCELLED', `raised after ${n} of ${checks} checks`);
  }
  // Both a passed deadline and a cancel: the cancel is what the answer says.
  assert.equal((s.search({ ...req, deadlineMs: performance.now() - 1, cancelled: () => true }) as { code: string }).code, 'CANCELLED');
});
