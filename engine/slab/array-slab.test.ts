import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArraySlab } from './array-slab.js';
import { ARRAY_HEADER, ARRAY_KIND_DIRECTORY, ARRAY_NO_POOL, ARRAY_SLAB_VERSION } from './array-layout.js';
import { PoolSlab, VIEW_CONFIRMED, VIEW_LATEST } from './pool-slab.js';

const addr = (b: number): Uint8Array => new Uint8Array(32).fill(b);

/** Writes `words` into record `r` with the slab's write protocol. */
function put(slab: ArraySlab, r: number, slot: bigint, words: readonly bigint[]): void {
  const s = slab.beginWrite(r);
  const d = slab.dataWord(r);
  for (let i = 0; i < words.length; i++) slab.u64[d + i] = words[i]!;
  slab.endWrite(r, s, slot, words.length);
}

test('alloc gives zeroed live records; free moves the generation and the next alloc reuses the record', () => {
  const slab = ArraySlab.create(16, 2, 64);
  const a = slab.alloc(7, 1, addr(1), -88);
  const b = slab.alloc(7, 1, addr(2), 0);
  assert.deepEqual([a, b], [0, 1]);
  assert.equal(slab.count(), 2);
  assert.equal(slab.pool(a), 7);
  assert.equal(slab.kind(a), 1);
  assert.equal(slab.startIndex(a), -88);
  assert.deepEqual(slab.address(b), addr(2));
  assert.equal(slab.generation(a), 1);
  put(slab, a, 42n, [5n, 6n, 7n]);
  assert.equal(slab.slot(a), 42n);
  assert.equal(slab.usedWords(a), 3);
  assert.equal(slab.u64[slab.dataWord(a) + 1], 6n);

  slab.free(a);
  assert.equal(slab.isLive(a), false);
  assert.equal(slab.pool(a), ARRAY_NO_POOL);
  assert.equal(slab.generation(a), 2);
  assert.throws(() => slab.free(a), /already free/);
  assert.throws(() => slab.beginWrite(a), /is free/);

  const c = slab.alloc(9, 2, addr(3), 60);
  assert.equal(c, a, 'the freed record is reused');
  assert.equal(slab.generation(c), 3);
  assert.equal(slab.pool(c), 9);
  assert.equal(slab.u64[slab.dataWord(c) + 1], 0n, 'reused data is zeroed');
  assert.equal(slab.usedWords(c), 0);
  assert.equal(slab.count(), 2, 'no new record was needed');
});

test('bad arguments are refused before anything is written', () => {
  const slab = ArraySlab.create(16, 1, 4);
  assert.throws(() => slab.alloc(ARRAY_NO_POOL, 1, addr(0), 0), /not a pool index/);
  assert.throws(() => slab.alloc(1, ARRAY_KIND_DIRECTORY, addr(0), 0), /not an array kind/);
  assert.throws(() => slab.alloc(1, 1, new Uint8Array(31), 0), /32 bytes/);
  assert.throws(() => slab.alloc(1, 1, addr(0), 2 ** 31), /not an i32/);
  assert.equal(slab.count(), 0);
  for (let i = 0; i < 4; i++) slab.alloc(1, 1, addr(i), i);
  assert.throws(() => slab.alloc(1, 1, addr(9), 9), (e: Error & { code?: string }) => e.code === 'SLAB_FULL');
  assert.throws(() => slab.recordBegin(4), /does not exist/);
  assert.throws(() => ArraySlab.create(4, 1, 1), (e: Error & { code?: string }) => e.code === 'SLAB_BAD_CONFIG');
});

test('a directory lists its pool view arrays sorted by startIndex; dirFloor finds the array holding an index', () => {
  const slab = ArraySlab.create(16, 1, 64);
  const dir = slab.allocDirectory(3);
  assert.equal(slab.kind(dir), ARRAY_KIND_DIRECTORY);
  const r60 = slab.alloc(3, 1, addr(1), 60);
  const rm60 = slab.alloc(3, 1, addr(2), -60);
  const r0 = slab.alloc(3, 1, addr(3), 0);
  const other = slab.alloc(4, 1, addr(4), 120);
  assert.throws(() => slab.list([r0]), /outside a group/);
  slab.beginGroup(dir);
  assert.throws(() => slab.beginGroup(dir), /still open/);
  assert.throws(() => slab.list([r0, other]), /not a live array of pool 3/);
  slab.list([r60, rm60, r0]);
  put(slab, r0, 10n, [1n]);
  slab.endGroup(10n);
  assert.throws(() => slab.beginWrite(dir), /directory/);

  const s = slab.dirBegin(dir);
  assert.equal(ArraySlab.odd(s), false);
  assert.equal(slab.dirLength(dir), 3);
  assert.deepEqual([0, 1, 2].map((i) => slab.dirStartIndex(dir, i)), [-60, 0, 60]);
  assert.deepEqual([0, 1, 2].map((i) => slab.dirRecord(dir, i)), [rm60, r0, r60]);
  assert.equal(slab.dirFloor(dir, -61), -1);
  assert.equal(slab.dirFloor(dir, -1), 0);
  assert.equal(slab.dirFloor(dir, 59), 1);
  assert.equal(slab.dirFloor(dir, 1_000), 2);
  assert.ok(slab.dirValid(dir, s));
  assert.equal(slab.slot(dir), 10n);

  // A group moves the directory's sequence: a read begun before it fails validation.
  const before = slab.dirBegin(dir);
  slab.beginGroup(dir);
  assert.equal(ArraySlab.odd(slab.dirBegin(dir)), true, 'odd while the group is open');
  slab.list([r60, r0]);
  slab.free(rm60);
  slab.endGroup(11n);
  assert.equal(slab.dirValid(dir, before), false);
  assert.equal(slab.dirLength(dir), 2);
  assert.ok(slab.entryLive(dir, 0) && slab.entryLive(dir, 1));

  // A record freed and reused after it was listed reads as no longer live for that entry.
  slab.free(r60);
  const reused = slab.alloc(3, 1, addr(5), 180);
  assert.equal(reused, r60);
  assert.equal(slab.entryLive(dir, 1), false, 'the entry names the old generation');
  assert.equal(slab.entryLive(dir, 0), true);
});

test('a directory refuses more records than it holds, and the group stays open to be closed', () => {
  const slab = ArraySlab.create(8, 1, 64);
  assert.equal(slab.directoryCapacity, 3);
  const dir = slab.allocDirectory(0);
  const rs = [0, 1, 2, 3].map((i) => slab.alloc(0, 1, addr(i), i * 10));
  slab.beginGroup(dir);
  assert.throws(() => slab.list(rs), /a directory holds 3/);
  slab.list(rs.slice(0, 3));
  slab.endGroup(1n);
  assert.equal(slab.dirLength(dir), 3);
});

test('another thread view attached to the buffer reads records added and grown after it attached', () => {
  const w = ArraySlab.create(16, 1, 1_000);
  const r = ArraySlab.attach(w.sab);
  const ids: number[] = [];
  for (let i = 0; i < 300; i++) ids.push(w.alloc(i, 1, addr(i & 255), i));
  put(w, ids[299]!, 5n, [99n]);
  assert.equal(r.count(), 300);
  const s = r.recordBegin(ids[299]!);
  assert.equal(r.u64[r.dataWord(ids[299]!)], 99n);
  assert.ok(r.recordValid(ids[299]!, s));
  assert.equal(r.startIndex(ids[299]!), 299);
});

test('attach refuses another magic or layout version', () => {
  const slab = ArraySlab.create(16, 1, 2);
  const wrong = new SharedArrayBuffer(slab.sab.byteLength);
  new Uint8Array(wrong).set(new Uint8Array(slab.sab));
  new Uint32Array(wrong)[ARRAY_HEADER.layoutVersion >> 2] = ARRAY_SLAB_VERSION + 1;
  assert.throws(() => ArraySlab.attach(wrong), (e: Error & { code?: string }) => e.code === 'SLAB_VERSION_MISMATCH');
  new Uint32Array(wrong)[0] = 1;
  assert.throws(() => ArraySlab.attach(wrong), (e: Error & { code?: string }) => e.code === 'SLAB_MAGIC_MISMATCH');
});

test('a pool record points each view at its own directory; another thread attached with arrays.sab reads it', () => {
  const slab = PoolSlab.create(4, 16);
  const p = slab.addPool(addr(9), 0, 1, 2);
  assert.equal(slab.arrayDir(p, VIEW_LATEST), -1);
  const d0 = slab.arrays.allocDirectory(p);
  const d1 = slab.arrays.allocDirectory(p);
  slab.setArrayDir(p, VIEW_LATEST, d0);
  slab.setArrayDir(p, VIEW_CONFIRMED, d1);
  const other = PoolSlab.attach(slab.sab, slab.ext.sab, slab.arrays.sab);
  assert.equal(other.arrayDir(p, VIEW_LATEST), d0);
  assert.equal(other.arrayDir(p, VIEW_CONFIRMED), d1);
  assert.equal(other.arrays.kind(d1), ARRAY_KIND_DIRECTORY);
  assert.equal(other.arrayDir(p + 1, VIEW_LATEST), -1, 'no such pool');
  slab.setArrayDir(p, VIEW_LATEST, -1);
  assert.equal(other.arrayDir(p, VIEW_LATEST), -1);
  assert.throws(() => slab.setArrayDir(p, VIEW_LATEST, 1.5), /not a record index/);
});
