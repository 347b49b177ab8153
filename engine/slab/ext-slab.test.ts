import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { PARAM_F64_WORDS, PARAM_U64_WORDS, type RecordFields } from './record-fields.js';
import { EngineError } from '../errors.js';
import { ExtSlab } from './ext-slab.js';
import { newExactSnapshot, newF64Snapshot } from './pool-snapshot.js';
import { PoolSlab, VIEW_LATEST } from './pool-slab.js';

function fields(ext: RecordFields['ext']): RecordFields {
  return { status: 0, reserveA: 5n, reserveB: 7n, u64: new Array<bigint>(PARAM_U64_WORDS).fill(1n), f64: new Array<number>(PARAM_F64_WORDS).fill(2), ext };
}

const curve = (k: number) => ({
  u64: Array.from({ length: 40 }, (_, i) => (BigInt(k) << 40n) + BigInt(i) + (i === 3 ? (1n << 64n) - 1n - BigInt(k) - 3n - (BigInt(k) << 40n) : 0n)),
  f64: Array.from({ length: 20 }, (_, i) => k * 1000 + i + 0.5),
});

test('interned blobs read back exactly; equal content shares one offset, other content gets another', () => {
  const ext = ExtSlab.create(2, 1 << 16);
  const a = ext.intern(curve(1));
  const b = ext.intern(curve(2));
  assert.equal(ext.intern(curve(1)), a);
  assert.notEqual(a, b);
  assert.deepEqual(ext.read(a), curve(1));
  assert.deepEqual(ext.read(b), curve(2));
  assert.deepEqual([...ext.floats(b)], curve(2).f64);
  assert.equal(ext.floats(b), ext.floats(b), 'the float view is cached');
  assert.equal(ext.usedWords(), 2 + 2 * 61);
});

test('the region grows in place and an attached reader follows it', () => {
  const writer = ExtSlab.create(2, 1 << 20);
  const reader = ExtSlab.attach(writer.sab);
  const offsets = Array.from({ length: 500 }, (_, k) => writer.intern(curve(k)));
  for (const [k, o] of offsets.entries()) assert.deepEqual(reader.read(o), curve(k));
});

test('bad input and a full region are refused with engine errors, before anything is published', () => {
  const ext = ExtSlab.create(2, 32);
  assert.throws(() => ext.intern({ u64: [-1n], f64: [] }), (e) => e instanceof EngineError && e.code === 'SLAB_BAD_RECORD');
  assert.throws(() => ext.intern({ u64: [1n << 64n], f64: [] }), (e) => e instanceof EngineError && e.code === 'SLAB_BAD_RECORD');
  assert.throws(() => ext.intern(curve(1)), (e) => e instanceof EngineError && e.code === 'SLAB_FULL');
  assert.equal(ext.usedWords(), 2);
  assert.throws(() => ext.read(2), (e) => e instanceof EngineError && e.code === 'SLAB_BAD_RECORD');
  assert.throws(() => ExtSlab.attach(new SharedArrayBuffer(16)), (e) => e instanceof EngineError && e.code === 'SLAB_MAGIC_MISMATCH');
});

test('a pool record carries its extension: exact and float readers, and records without one read null', () => {
  const slab = PoolSlab.create(2, 8);
  const p0 = slab.addPool(new Uint8Array(32).fill(1), 8, 0, 1);
  const p1 = slab.addPool(new Uint8Array(32).fill(2), 0, 0, 1);
  slab.write(p0, VIEW_LATEST, fields(curve(9)), 10n, 1, false);
  slab.write(p1, VIEW_LATEST, fields(null), 10n, 1, false);
  const reader = PoolSlab.attach(slab.sab, slab.ext.sab);
  const exact = newExactSnapshot();
  const f = newF64Snapshot();
  assert.ok(reader.readExact(p0, VIEW_LATEST, exact));
  assert.deepEqual(exact.ext, curve(9));
  assert.ok(reader.readF64(p0, VIEW_LATEST, f));
  assert.deepEqual([...f.ext!], curve(9).f64);
  assert.ok(reader.readExact(p1, VIEW_LATEST, exact));
  assert.equal(exact.ext, null);
  assert.ok(reader.readF64(p1, VIEW_LATEST, f));
  assert.equal(f.ext, null);
  // A new curve replaces the pointer; the old blob stays readable by anyone still holding it.
  slab.write(p0, VIEW_LATEST, fields(curve(10)), 11n, 2, false);
  assert.ok(reader.readExact(p0, VIEW_LATEST, exact));
  assert.deepEqual(exact.ext, curve(10));
});

test('a worker thread reads blobs appended (and the region grown) while it runs', async () => {
  const slab = PoolSlab.create(1, 4);
  const pool = slab.addPool(new Uint8Array(32).fill(3), 8, 0, 1);
  slab.write(pool, VIEW_LATEST, fields(curve(0)), 1n, 1, false);
  const src = `
    const { workerData, parentPort } = require('node:worker_threads');
    parentPort.on('message', async (m) => {
      const { PoolSlab } = await import(${JSON.stringify(new URL('./pool-slab.js', import.meta.url).href)});
      const { newExactSnapshot } = await import(${JSON.stringify(new URL('./pool-snapshot.js', import.meta.url).href)});
      const slab = PoolSlab.attach(workerData.sab, workerData.ext);
      const snap = newExactSnapshot();
      slab.readExact(0, 0, snap);
      parentPort.postMessage({ first: snap.ext.u64[0].toString(), last: snap.ext.f64[19] });
    });`;
  const worker = new Worker(src, { eval: true, workerData: { sab: slab.sab, ext: slab.ext.sab } });
  try {
    // Grow the region well past its initial size (64 KiB) before the worker reads.
    for (let k = 1; k <= 300; k++) slab.write(pool, VIEW_LATEST, fields(curve(k)), BigInt(k + 1), 1, false);
    const got = await new Promise<{ first: string; last: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.postMessage('read');
    });
    assert.deepEqual(got, { first: curve(300).u64[0]!.toString(), last: curve(300).f64[19] });
    assert.ok(slab.ext.sab.byteLength > 8192 * 8, 'the region grew');
  } finally {
    await worker.terminate();
  }
});
