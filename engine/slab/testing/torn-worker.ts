/**
 * Thread entry of the torn-read test (`seqlock.torn.test.ts`), loaded compiled from dist by `worker_threads`.
 * Role `writer`: the single writer, flipping records between whole states and adding pools (growing the buffer)
 * until told to stop. Role `reader`: a second reader thread, seqlock phase then unsynchronized phase.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { PoolSlab } from '../pool-slab.js';
import { CTL_STOP, TORN_HOT_POOLS, newTornFields, readSeqlocked, readUnsynchronized, tornMints, tornState } from './torn-fixture.js';

/** Data the test passes to this worker. */
export interface TornWorkerData {
  readonly role: 'writer' | 'reader';
  readonly slab: SharedArrayBuffer;
  readonly ctl: SharedArrayBuffer;
  /** writer: pools to reach (one added every `addEveryMs`, growing the buffer while readers read). */
  readonly targetPools: number;
  readonly addEveryMs: number;
  /** reader: phase lengths. */
  readonly seqlockMs: number;
  readonly rawMs: number;
}

function addTornPool(slab: PoolSlab): number {
  const p = slab.count();
  const { mintA, mintB } = tornMints(p);
  const address = new Uint8Array(32).fill(p & 0xff);
  return slab.addPool(address, p % 12, mintA, mintB);
}

function runWriter(d: TornWorkerData): void {
  const slab = PoolSlab.attach(d.slab);
  const ctl = new Int32Array(d.ctl);
  const fields = newTornFields();
  let k = 0;
  const writeBoth = (p: number): void => {
    for (let view = 0; view < 2; view++) {
      k++;
      const confirmed = tornState(k, fields);
      slab.write(p, view, fields, BigInt(k), k + 0.5, confirmed);
    }
  };
  for (let p = 0; p < TORN_HOT_POOLS; p++) writeBoth(addTornPool(slab));
  parentPort!.postMessage({ type: 'ready' });
  let writes = 0;
  let nextAddAt = performance.now() + d.addEveryMs;
  // Why Atomics.load: the stop flag is set by the main thread; an atomic load is never hoisted out of the loop.
  while (Atomics.load(ctl, CTL_STOP) === 0) {
    for (let j = 0; j < 64; j++) {
      k++;
      const p = k % TORN_HOT_POOLS;
      const confirmed = tornState(k, fields);
      slab.write(p, (k >>> 2) & 1, fields, BigInt(k), k + 0.5, confirmed);
      writes++;
    }
    if (slab.count() < d.targetPools && performance.now() >= nextAddAt) {
      writeBoth(addTornPool(slab));
      nextAddAt += d.addEveryMs;
    }
  }
  parentPort!.postMessage({ type: 'done', writes, pools: slab.count(), capacity: slab.capacity(), bytes: d.slab.byteLength });
}

function runReader(d: TornWorkerData): void {
  const slab = PoolSlab.attach(d.slab);
  parentPort!.postMessage({ type: 'ready' });
  const seqlock = readSeqlocked(slab, d.seqlockMs);
  const raw = readUnsynchronized(slab, d.rawMs);
  parentPort!.postMessage({ type: 'done', seqlock, raw });
}

if (!isMainThread) {
  const d = workerData as TornWorkerData;
  if (d.role === 'writer') runWriter(d);
  else runReader(d);
}
