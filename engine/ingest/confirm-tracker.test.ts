import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RecordFields } from '../adapters/types.js';
import { ConfirmTracker } from './confirm-tracker.js';

const f = (r: bigint): RecordFields => ({ status: 0, reserveA: r, reserveB: r, u64: [], f64: [] });

test('confirming a slot yields each pool its newest state at or below it, once', () => {
  const t = new ConfirmTracker();
  t.add(1, 10n, f(10n), 1);
  t.add(1, 11n, f(11n), 2);
  t.add(1, 13n, f(13n), 3);
  t.add(2, 12n, f(12n), 4);
  const w = t.confirm(12n);
  assert.deepEqual(
    w.map((x) => [x.pool, x.slot, x.fields.reserveA]),
    [
      [1, 11n, 11n],
      [2, 12n, 12n],
    ],
  );
  assert.deepEqual(t.confirm(12n), []);
  assert.deepEqual(t.confirm(13n).map((x) => x.slot), [13n]);
  assert.equal(t.size, 0);
});

test('two writes in one slot keep the last', () => {
  const t = new ConfirmTracker();
  t.add(7, 3n, f(1n), 1);
  t.add(7, 3n, f(2n), 2);
  assert.equal(t.confirm(3n)[0]!.fields.reserveA, 2n);
});
