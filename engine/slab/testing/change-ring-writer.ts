/**
 * Test support: a worker thread that writes `batches` batches of `perBatch` changes into a change ring
 * (pool = running index, confirmed on odd indices), publishing after each batch, `gapMs` apart.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ChangeRing } from '../change-ring.js';

const { sab, batches, perBatch, gapMs } = workerData as { sab: SharedArrayBuffer; batches: number; perBatch: number; gapMs: number };
const ring = ChangeRing.attach(sab);
let n = 0;
for (let b = 0; b < batches; b++) {
  for (let i = 0; i < perBatch; i++, n++) ring.push(n, n % 2 === 1);
  ring.publish();
  if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
}
parentPort!.postMessage('done');
