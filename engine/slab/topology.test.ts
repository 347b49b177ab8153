import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PoolSlab } from './pool-slab.js';
import { Topology } from './topology.js';

const ADDR = new Uint8Array(32);

/** A reader-side slab whose poolMints calls are counted (to prove when the topology rebuilds). */
function countingReader(w: PoolSlab): { slab: PoolSlab; calls: () => number } {
  const slab = PoolSlab.attach(structuredClone(w.sab));
  let n = 0;
  const orig = slab.poolMints.bind(slab);
  slab.poolMints = (pool: number) => {
    n++;
    return orig(pool);
  };
  return { slab, calls: () => n };
}

test('poolsOf and poolsBetween index pools by mint and by unordered pair', () => {
  const w = PoolSlab.create(4, 16);
  w.addPool(ADDR, 0, 1, 2); // 0
  w.addPool(ADDR, 1, 2, 1); // 1: same pair, other order
  w.addPool(ADDR, 2, 1, 3); // 2
  w.addPool(ADDR, 3, 3, 3); // 3: degenerate, both sides one mint
  const t = new Topology(PoolSlab.attach(w.sab));
  assert.deepEqual(t.poolsOf(1), [0, 1, 2]);
  assert.deepEqual(t.poolsOf(2), [0, 1]);
  assert.deepEqual(t.poolsOf(3), [2, 3]);
  assert.deepEqual(t.poolsOf(99), []);
  assert.deepEqual(t.poolsBetween(1, 2), [0, 1]);
  assert.deepEqual(t.poolsBetween(2, 1), [0, 1]);
  assert.deepEqual(t.poolsBetween(3, 1), [2]);
  assert.deepEqual(t.poolsBetween(3, 3), [3]);
  assert.deepEqual(t.poolsBetween(2, 3), []);
  assert.ok(Object.isFrozen(t.poolsOf(1)) && Object.isFrozen(t.poolsBetween(1, 2)));
});

test('the topology refreshes only when the generation moved, and only for the pools added', () => {
  const w = PoolSlab.create(1, 64);
  for (let i = 0; i < 10; i++) w.addPool(ADDR, 0, i % 3, 100);
  const { slab, calls } = countingReader(w);
  const t = new Topology(slab);
  assert.equal(t.generation(), -1);
  const before = t.poolsOf(100);
  assert.equal(before.length, 10);
  assert.equal(calls(), 10);
  assert.equal(t.generation(), 10);
  for (let i = 0; i < 100; i++) t.poolsBetween(i % 3, 100);
  assert.equal(calls(), 10, 'no rebuild while the generation is unchanged');

  w.addPool(ADDR, 0, 7, 100); // pool 10, grows the buffer
  assert.deepEqual(t.poolsOf(7), [10]);
  assert.equal(calls(), 11, 'only the new pool is read');
  assert.equal(t.generation(), 11);
  assert.equal(t.poolsOf(100).length, 11);
  assert.equal(before.length, 10, 'arrays handed out earlier are not mutated');
  assert.deepEqual(t.poolsBetween(100, 7), [10]);
});
