import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { ArraySlab } from './array-slab.js';
import { ARRAY_CTL_STOP, ARRAY_TORN_POOLS, ARRAY_TORN_WORDS, readGroups, type ArrayTornCounts } from './testing/array-torn.js';
import type { ArrayTornWorkerData } from './testing/array-torn-worker.js';

const WORKER = new URL('./testing/array-torn-worker.js', import.meta.url);
const LOCKED_MS = 1400;
const RAW_MS = 600;

function start(data: ArrayTornWorkerData): { worker: Worker; ready: Promise<void>; done: Promise<Record<string, unknown>> } {
  const worker = new Worker(WORKER, { workerData: data });
  let onReady!: () => void;
  const ready = new Promise<void>((r) => (onReady = r));
  const done = new Promise<Record<string, unknown>>((resolve, reject) => {
    worker.on('message', (m: { type: string }) => (m.type === 'ready' ? onReady() : resolve(m as Record<string, unknown>)));
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`worker ${data.role} exited with ${code} before reporting`)));
  });
  return { worker, ready, done };
}

test('array region: reads in place through a pool view group lock are never torn, with frees, reuse and growth; the control tears', { timeout: 30_000 }, async (t) => {
  // Room for 4 records at first: the writer's directories and arrays alone need 16, its ballast up to 400.
  const slab = ArraySlab.create(ARRAY_TORN_WORDS, 4, 1_024);
  const ctl = new SharedArrayBuffer(4 * (1 + ARRAY_TORN_POOLS));
  const base = { sab: slab.sab, ctl, targetRecords: 400, lockedMs: LOCKED_MS, rawMs: RAW_MS };
  const writer = start({ ...base, role: 'writer' });
  await writer.ready;
  const reader = start({ ...base, role: 'reader' });
  await reader.ready;

  const dirs = Array.from({ length: ARRAY_TORN_POOLS }, (_v, p) => Atomics.load(new Int32Array(ctl), 1 + p));
  const mainLocked = readGroups(slab, dirs, LOCKED_MS, true);
  const mainRaw = readGroups(slab, dirs, RAW_MS, false);
  const fromReader = (await reader.done) as unknown as { locked: ArrayTornCounts; raw: ArrayTornCounts };
  // Why Atomics.store: the writer polls the flag with Atomics.load.
  Atomics.store(new Int32Array(ctl), ARRAY_CTL_STOP, 1);
  const w = await writer.done;
  await Promise.all([writer.worker.terminate(), reader.worker.terminate()]);

  const report = { writer: w, main: { locked: mainLocked, raw: mainRaw }, reader: fromReader };
  t.diagnostic(`array torn-read report ${JSON.stringify(report)}`);

  const reads = mainLocked.reads + fromReader.locked.reads;
  assert.ok(reads > 20_000, `only ${reads} validated group reads`);
  assert.equal(mainLocked.torn, 0, 'main thread saw a torn group through the lock');
  assert.equal(fromReader.locked.torn, 0, 'reader worker saw a torn group through the lock');
  // Arrays were freed and reused, and the region grew past its first 4 records, while both readers read.
  assert.ok((w['groups'] as number) > 1_000, `writer wrote only ${String(w['groups'])} groups`);
  assert.ok((w['records'] as number) > 64, `the region grew only to ${String(w['records'])} records`);
  assert.ok(Math.max(mainLocked.maxRecord, fromReader.locked.maxRecord) > 16, 'readers read arrays allocated after the region grew');
  // Negative control: the same reads without the lock must tear, or this test could not fail.
  assert.ok(mainRaw.torn + fromReader.raw.torn > 0, 'the unsynchronized control saw no torn group: the test proves nothing');
});
