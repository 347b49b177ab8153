import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { ChangeReader, ChangeRing } from './change-ring.js';

test('published changes are read once, in order, split by view; unpublished ones are not seen', () => {
  const ring = ChangeRing.create(16);
  const reader = new ChangeReader(ring.sab);
  ring.push(3, false);
  ring.push(5, true);
  assert.deepEqual(reader.read(), { runs: [], lapped: false }, 'nothing before publish');
  ring.publish();
  ring.push(6, true);
  ring.push(7, false);
  ring.push(8, false);
  ring.publish();
  assert.deepEqual(reader.read(), {
    runs: [
      { confirmed: false, pools: [3] },
      { confirmed: true, pools: [5, 6] },
      { confirmed: false, pools: [7, 8] },
    ],
    lapped: false,
  });
  assert.deepEqual(reader.read(), { runs: [], lapped: false }, 'each change read once');
  ring.push(0x7fff_fffe, true);
  ring.publish();
  assert.deepEqual(reader.read().runs, [{ confirmed: true, pools: [0x7fff_fffe] }], 'the largest pool index survives the view bit');
});

test('each reader has its own cursor; a reader starts at the present', () => {
  const ring = ChangeRing.create(16);
  const early = new ChangeReader(ring.sab);
  ring.push(1, false);
  ring.publish();
  const late = new ChangeReader(ring.sab);
  ring.push(2, false);
  ring.publish();
  assert.deepEqual(early.read().runs, [{ confirmed: false, pools: [1, 2] }]);
  assert.deepEqual(late.read().runs, [{ confirmed: false, pools: [2] }]);
});

test('a reader lapped by the writer is told so, then follows again; the count wraps at 2^32', () => {
  const ring = ChangeRing.create(16);
  const reader = new ChangeReader(ring.sab);
  for (let i = 0; i < 17; i++) ring.push(i, false);
  ring.publish();
  assert.equal(reader.read().lapped, true);
  ring.push(99, false);
  ring.publish();
  assert.deepEqual(reader.read(), { runs: [{ confirmed: false, pools: [99] }], lapped: false });
  // Exactly a full ring behind is not lapped.
  for (let i = 0; i < 16; i++) ring.push(i, false);
  ring.publish();
  assert.equal(reader.read().runs[0]!.pools.length, 16);
  // Near the wrap of the 32-bit count.
  const words = new Int32Array(ring.sab);
  Atomics.store(words, 2, -3); // 2^32 - 3
  const wrapped = ChangeRing.attach(ring.sab);
  const r2 = new ChangeReader(ring.sab);
  for (let i = 0; i < 6; i++) wrapped.push(i, i === 5);
  wrapped.publish();
  assert.deepEqual(r2.read(), { runs: [{ confirmed: false, pools: [0, 1, 2, 3, 4] }, { confirmed: true, pools: [5] }], lapped: false });
});

test('a reader on this thread wakes on another thread\'s publish and sees every change exactly once', async () => {
  const ring = ChangeRing.create(1 << 12);
  const reader = new ChangeReader(ring.sab);
  const seen: number[] = [];
  let wakes = 0;
  const watching = reader.watch((b) => {
    assert.equal(b.lapped, false);
    wakes++;
    for (const r of b.runs) seen.push(...r.pools);
  });
  const w = new Worker(new URL('./testing/change-ring-writer.js', import.meta.url), { workerData: { sab: ring.sab, batches: 200, perBatch: 7, gapMs: 1 } });
  await new Promise((r) => w.once('message', r));
  await w.terminate();
  const deadline = Date.now() + 2000;
  while (seen.length < 1400 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  reader.stop();
  await watching;
  assert.deepEqual([...seen].sort((a, b) => a - b), Array.from({ length: 1400 }, (_, i) => i));
  assert.ok(wakes > 1, `woken ${wakes} times`);
});
