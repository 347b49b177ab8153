/**
 * Test support (a worker thread): reads one pool's latest record in a tight loop, the way a quote worker would,
 * and reports every distinct image it saw (reserves and parameter words) when told to stop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { newExactSnapshot } from '../../slab/pool-snapshot.js';
import { PoolSlab, VIEW_LATEST } from '../../slab/pool-slab.js';
import { recordKey } from './record-sampler.js';

const { poolSab, extSab, pool } = workerData as { poolSab: SharedArrayBuffer; extSab: SharedArrayBuffer; pool: number };
const slab = PoolSlab.attach(poolSab, extSab);
const snap = newExactSnapshot();
const seen = new Set<string>();
let stop = false;
let reads = 0;
parentPort!.on('message', () => (stop = true));
parentPort!.postMessage({ type: 'started' });
while (!stop) {
  // Bursts of reads between turns of the event loop, which delivers the stop message.
  for (let i = 0; i < 20_000; i++) {
    if (slab.readExact(pool, VIEW_LATEST, snap)) {
      reads++;
      seen.add(recordKey(snap));
    }
  }
  await new Promise((r) => setImmediate(r));
}
parentPort!.postMessage({ type: 'seen', images: [...seen], reads });

