/**
 * Thread entry of the array region's torn-read test (`array-slab.torn.test.ts`), loaded compiled from dist. Role
 * `writer`: the single writer (directories, groups, frees and reuse, growth) until told to stop. Role `reader`: a
 * second reader thread, through the group locks, then without them (the negative control).
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { ArraySlab } from '../array-slab.js';
import { ARRAY_CTL_STOP, ARRAY_TORN_ARRAYS, ARRAY_TORN_POOLS, readGroups, writeGroup } from './array-torn.js';

/** Data the test passes to this worker. */
export interface ArrayTornWorkerData {
  readonly role: 'writer' | 'reader';
  readonly sab: SharedArrayBuffer;
  readonly ctl: SharedArrayBuffer;
  /** writer: records to reach by allocating ballast (growing the region while readers read). */
  readonly targetRecords: number;
  /** reader: phase lengths. */
  readonly lockedMs: number;
  readonly rawMs: number;
}

function runWriter(d: ArrayTornWorkerData): void {
  const slab = ArraySlab.attach(d.sab);
  const ctl = new Int32Array(d.ctl);
  const dirs: number[] = [];
  const listed: number[][] = [];
  for (let p = 0; p < ARRAY_TORN_POOLS; p++) {
    const dir = slab.allocDirectory(p);
    const rs = Array.from({ length: ARRAY_TORN_ARRAYS }, (_v, i) => slab.alloc(p, 1, new Uint8Array(32).fill(p), i * 10));
    dirs.push(dir);
    listed.push(rs);
    writeGroup(slab, dir, p, 1, rs);
    Atomics.store(ctl, 1 + p, dir);
  }
  parentPort!.postMessage({ type: 'ready' });
  let k = 1;
  let groups = 0;
  // Why Atomics.load: the stop flag is set by another thread; an atomic load is never hoisted out of the loop.
  while (Atomics.load(ctl, ARRAY_CTL_STOP) === 0) {
    for (let j = 0; j < 32; j++) {
      k++;
      const p = k % ARRAY_TORN_POOLS;
      writeGroup(slab, dirs[p]!, p, k, listed[p]!);
      groups++;
    }
    // Ballast of another pool: the region grows while readers read.
    if (slab.count() < d.targetRecords) slab.alloc(1_000, 2, new Uint8Array(32), 0);
  }
  parentPort!.postMessage({ type: 'done', groups, records: slab.count(), free: slab.freeCount, bytes: d.sab.byteLength });
}

function runReader(d: ArrayTornWorkerData): void {
  const slab = ArraySlab.attach(d.sab);
  const ctl = new Int32Array(d.ctl);
  const dirs = Array.from({ length: ARRAY_TORN_POOLS }, (_v, p) => Atomics.load(ctl, 1 + p));
  parentPort!.postMessage({ type: 'ready' });
  const locked = readGroups(slab, dirs, d.lockedMs, true);
  const raw = readGroups(slab, dirs, d.rawMs, false);
  parentPort!.postMessage({ type: 'done', locked, raw });
}

if (!isMainThread) {
  const d = workerData as ArrayTornWorkerData;
  if (d.role === 'writer') runWriter(d);
  else runReader(d);
}
