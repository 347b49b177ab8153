import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PARAM_F64_WORDS, PARAM_U64_WORDS } from './record-fields.js';
import type { RecordF64, RecordFields } from './record-fields.js';
import { isEngineError } from '../errors.js';
import { dexIndex } from '../dex-ids.js';
import { FLAG_CONFIRMED, FLAG_TRADABLE, FLAG_WRITTEN, HEADER, POOL_SLAB_VERSION, REC, recordOffset } from './layout.js';
import { PoolSlab, VIEW_CONFIRMED, VIEW_LATEST } from './pool-slab.js';
import { newExactSnapshot, newF64Snapshot } from './pool-snapshot.js';

function fields(k: number, status = 0): RecordFields {
  return {
    status,
    reserveA: 1_000_000_000_000n + BigInt(k),
    reserveB: (1n << 63n) + BigInt(k), // above 2^53: the exact path must keep every bit
    u64: Array.from({ length: PARAM_U64_WORDS }, (_, i) => (1n << 64n) - 1n - BigInt(i * 7 + k)),
    f64: Array.from({ length: PARAM_F64_WORDS }, (_, i) => k + i / 8),
  };
}

function addr(b: number): Uint8Array {
  return new Uint8Array(32).map((_, i) => (b + i) & 0xff);
}

/** Another JS object over the same memory, as another thread gets it through postMessage / workerData. */
function otherThread(slab: PoolSlab): PoolSlab {
  return PoolSlab.attach(structuredClone(slab.sab));
}

/** A byte copy in separate memory (structuredClone of a SharedArrayBuffer would share the memory). */
function copyOf(sab: SharedArrayBuffer): SharedArrayBuffer {
  const c = new SharedArrayBuffer(sab.byteLength);
  new Uint8Array(c).set(new Uint8Array(sab));
  return c;
}

function throwsCode(fn: () => unknown, code: string): void {
  assert.throws(fn, (e: unknown) => isEngineError(e, code), `expected EngineError ${code}`);
}

test('create / attach round trip: header, identity and both read paths', () => {
  const w = PoolSlab.create(4, 16);
  const dex = dexIndex('orca-whirlpool');
  const p = w.addPool(addr(9), dex, 3, 7);
  assert.equal(p, 0);
  const f = fields(5);
  w.write(p, VIEW_LATEST, f, 123_456_789n, 1_700_000_000_123.5, false);
  w.setClock({ slot: 123_456_789n, unixTimestamp: -5n, epoch: 700n });
  w.setProcessedSlot(123_456_789n);
  w.setConfirmedSlot(123_456_700n);

  const r = otherThread(w);
  assert.equal(r.count(), 1);
  assert.equal(r.generation(), 1);
  assert.equal(r.capacity(), 4);
  assert.equal(r.maxPools(), 16);
  assert.deepEqual(r.clock(), { slot: 123_456_789n, unixTimestamp: -5n, epoch: 700n });
  assert.equal(r.processedSlot(), 123_456_789n);
  assert.equal(r.confirmedSlot(), 123_456_700n);
  assert.equal(r.poolDex(p), dex);
  assert.deepEqual(r.poolMints(p), { mintA: 3, mintB: 7 });
  assert.deepEqual(r.address(p), addr(9));

  const s = newF64Snapshot();
  assert.equal(r.readF64(p, VIEW_LATEST, s), true);
  assert.equal(s.status, 0);
  assert.equal(s.dex, dex);
  assert.equal(s.mintA, 3);
  assert.equal(s.mintB, 7);
  assert.equal(s.reserveA, Number(f.reserveA));
  assert.equal(s.reserveB, Number(f.reserveB));
  assert.equal(s.slot, 123_456_789);
  assert.equal(s.updatedAtMs, 1_700_000_000_123.5);
  assert.deepEqual([...s.f64], f.f64);
  assert.equal(s.flags, FLAG_WRITTEN | FLAG_TRADABLE);
  assert.equal(s.confirmed, false);

  const e = newExactSnapshot();
  assert.equal(r.readExact(p, VIEW_LATEST, e), true);
  assert.equal(e.reserveA, f.reserveA);
  assert.equal(e.reserveB, f.reserveB);
  assert.equal(e.reserveAF64, Number(f.reserveA));
  assert.equal(e.reserveBF64, Number(f.reserveB));
  assert.equal(e.slot, 123_456_789n);
  assert.deepEqual(e.u64, f.u64);
  assert.deepEqual(e.f64, f.f64);
  assert.equal(e.dex, dex);

  // The snapshots are what adapters consume.
  const asF64: RecordF64 = s;
  const asExact: RecordFields = e;
  assert.equal(asF64.reserveA, Number(asExact.reserveA));
});

test('attach refuses a wrong magic, a wrong layout version and a buffer that is not a slab', () => {
  const good = PoolSlab.create(1, 2);
  const badMagic = copyOf(good.sab);
  new Uint32Array(badMagic)[HEADER.magic >> 2] = 0xdeadbeef;
  throwsCode(() => PoolSlab.attach(badMagic), 'SLAB_MAGIC_MISMATCH');
  const badVersion = copyOf(good.sab);
  new Uint32Array(badVersion)[HEADER.layoutVersion >> 2] = POOL_SLAB_VERSION + 1;
  throwsCode(() => PoolSlab.attach(badVersion), 'SLAB_VERSION_MISMATCH');
  throwsCode(() => PoolSlab.attach(new SharedArrayBuffer(8)), 'SLAB_MAGIC_MISMATCH');
  throwsCode(() => PoolSlab.attach(new ArrayBuffer(4096) as unknown as SharedArrayBuffer), 'SLAB_MAGIC_MISMATCH');
  assert.doesNotThrow(() => PoolSlab.attach(good.sab));
});

test('growth keeps existing records readable through an instance attached before the growth', () => {
  const w = PoolSlab.create(1, 100);
  const r = otherThread(w);
  const s = newF64Snapshot();
  for (let p = 0; p < 100; p++) {
    assert.equal(w.addPool(addr(p), p % 12, p, p + 1), p);
    w.write(p, VIEW_LATEST, fields(p), BigInt(p), p, false);
    if (p === 0) assert.equal(r.readF64(0, VIEW_LATEST, s), true);
  }
  assert.ok(w.sab.byteLength > recordOffset(99, VIEW_CONFIRMED), 'the buffer grew');
  assert.equal(r.count(), 100);
  assert.equal(r.capacity(), 100);
  for (let p = 0; p < 100; p++) {
    assert.equal(r.readF64(p, VIEW_LATEST, s), true, `pool ${p}`);
    assert.equal(s.reserveA, Number(fields(p).reserveA));
    assert.equal(s.mintB, p + 1);
    assert.deepEqual(r.address(p), addr(p));
  }
  assert.equal(r.generation(), 100);
  throwsCode(() => w.addPool(addr(0), 0, 0, 0), 'SLAB_FULL');
});

test('a reader learns of new pools lazily: unknown index reads false, then true once published', () => {
  const w = PoolSlab.create(2, 8);
  const r = otherThread(w);
  const s = newF64Snapshot();
  assert.equal(r.readF64(0, VIEW_LATEST, s), false);
  w.addPool(addr(1), 0, 1, 2);
  assert.equal(r.readF64(0, VIEW_LATEST, s), false, 'added but never written');
  w.write(0, VIEW_LATEST, fields(1), 1n, 1, false);
  assert.equal(r.readF64(0, VIEW_LATEST, s), true);
  assert.equal(r.readF64(-1, VIEW_LATEST, s), false);
  assert.equal(r.readF64(1.5, VIEW_LATEST, s), false);
  throwsCode(() => r.readF64(0, 2, s), 'SLAB_BAD_VIEW');
  throwsCode(() => r.poolDex(5), 'SLAB_NO_SUCH_POOL');
});

test('the two views of a pool are independent records', () => {
  const w = PoolSlab.create(2, 2);
  const p = w.addPool(addr(0), 1, 10, 11);
  const q = w.addPool(addr(1), 2, 12, 13);
  const s = newExactSnapshot();
  w.write(p, VIEW_CONFIRMED, fields(1), 100n, 1, true);
  assert.equal(w.readExact(p, VIEW_LATEST, s), false, 'latest not written yet');
  assert.equal(w.readExact(p, VIEW_CONFIRMED, s), true);
  w.write(p, VIEW_LATEST, fields(2, 4), 101n, 2, false);
  assert.equal(w.readExact(p, VIEW_LATEST, s), true);
  assert.equal(s.slot, 101n);
  assert.equal(s.status, 4);
  assert.equal(s.reserveA, fields(2).reserveA);
  assert.equal(w.readExact(p, VIEW_CONFIRMED, s), true);
  assert.equal(s.slot, 100n);
  assert.equal(s.status, 0);
  assert.equal(s.reserveA, fields(1).reserveA);
  assert.deepEqual(s.u64, fields(1).u64);
  assert.equal(w.readExact(q, VIEW_LATEST, s), false, 'the neighbour pool is untouched');
  assert.equal(w.readExact(q, VIEW_CONFIRMED, s), false);
});

test('flags: confirmed follows write and setConfirmed, tradable follows status', () => {
  const w = PoolSlab.create(1, 1);
  const p = w.addPool(addr(0), 0, 0, 1);
  const s = newF64Snapshot();
  w.write(p, VIEW_LATEST, fields(1, 2), 5n, 5, false);
  w.readF64(p, VIEW_LATEST, s);
  assert.equal(s.confirmed, false);
  assert.equal(s.flags, FLAG_WRITTEN, 'status 2 is not tradable');
  w.setConfirmed(p, VIEW_LATEST, true);
  w.readF64(p, VIEW_LATEST, s);
  assert.equal(s.confirmed, true);
  assert.equal(s.flags, FLAG_WRITTEN | FLAG_CONFIRMED);
  w.write(p, VIEW_LATEST, fields(2, 0), 6n, 6, true);
  w.readF64(p, VIEW_LATEST, s);
  assert.equal(s.flags, FLAG_WRITTEN | FLAG_CONFIRMED | FLAG_TRADABLE);
  w.setConfirmed(p, VIEW_LATEST, false);
  w.readF64(p, VIEW_LATEST, s);
  assert.equal(s.confirmed, false);
  assert.equal(s.flags, FLAG_WRITTEN | FLAG_TRADABLE);
  assert.equal(s.reserveA, Number(fields(2).reserveA), 'setConfirmed leaves the data alone');
});

test('a rejected write throws before the seqlock: the record stays even and unchanged', () => {
  const w = PoolSlab.create(1, 1);
  const p = w.addPool(addr(0), 0, 0, 1);
  w.write(p, VIEW_LATEST, fields(1), 1n, 1, false);
  const seq = new Int32Array(w.sab);
  const seqAt = (recordOffset(p, VIEW_LATEST) + REC.seq) >> 2;
  const before = seq[seqAt]!;
  const bad: RecordFields[] = [
    { ...fields(2), reserveA: -1n },
    { ...fields(2), reserveB: 1n << 64n },
    { ...fields(2), u64: fields(2).u64.slice(1) },
    { ...fields(2), u64: [...fields(2).u64.slice(1), 5 as unknown as bigint] },
    { ...fields(2), f64: fields(2).f64.slice(1) },
    { ...fields(2), status: -1 },
  ];
  for (const f of bad) throwsCode(() => w.write(p, VIEW_LATEST, f, 2n, 2, false), 'SLAB_BAD_RECORD');
  throwsCode(() => w.write(p, VIEW_LATEST, fields(2), -2n, 2, false), 'SLAB_BAD_RECORD');
  assert.equal(seq[seqAt], before);
  assert.equal(before % 2, 0);
  const s = newExactSnapshot();
  assert.equal(w.readExact(p, VIEW_LATEST, s), true);
  assert.equal(s.reserveA, fields(1).reserveA);
});

test('create validates its bounds', () => {
  throwsCode(() => PoolSlab.create(5, 4), 'SLAB_BAD_CONFIG');
  throwsCode(() => PoolSlab.create(0, 0), 'SLAB_BAD_CONFIG');
  throwsCode(() => PoolSlab.create(-1, 4), 'SLAB_BAD_CONFIG');
  const empty = PoolSlab.create(0, 4);
  assert.equal(empty.addPool(addr(0), 0, 0, 0), 0, 'an empty slab grows on the first add');
});

test('writeSeq: moves on every write and confirmation of its own view only, seen from another thread', () => {
  const slab = PoolSlab.create(4, 64);
  const p = slab.addPool(addr(1), dexIndex('raydium-cpmm'), 1, 2);
  const reader = otherThread(slab);
  const latest0 = reader.writeSeq(p);
  const confirmed0 = reader.writeSeq(p, VIEW_CONFIRMED);
  slab.write(p, VIEW_LATEST, fields(1), 10n, 1000, false);
  const latest1 = reader.writeSeq(p);
  assert.notEqual(latest1, latest0);
  assert.equal(latest1 & 1, 0, 'even once the write is done');
  assert.equal(reader.writeSeq(p, VIEW_CONFIRMED), confirmed0, 'the other view is untouched');
  slab.setConfirmed(p, VIEW_LATEST, true);
  assert.notEqual(reader.writeSeq(p), latest1);
  throwsCode(() => reader.writeSeq(p + 1), 'SLAB_NO_SUCH_POOL');
});
