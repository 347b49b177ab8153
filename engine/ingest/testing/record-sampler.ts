/**
 * Test support: starts {@link ./record-sampler.worker.ts} on a pool of a slab and collects what it saw.
 */
import { Worker } from 'node:worker_threads';
import type { PoolSlab } from '../../slab/pool-slab.js';

/** A running sampler. */
export interface RecordSampler {
  /** Stops sampling; resolves with every distinct image seen (see `recordKey`) and the number of reads. */
  stop(): Promise<{ images: string[]; reads: number }>;
}

/** Starts sampling pool `pool` of `slab` from another thread; resolves once the thread reads. */
export async function startRecordSampler(slab: PoolSlab, pool: number): Promise<RecordSampler> {
  const w = new Worker(new URL('./record-sampler.worker.js', import.meta.url), { workerData: { poolSab: slab.sab, extSab: slab.ext.sab, pool } });
  await new Promise<void>((resolve, reject) => {
    w.once('message', () => resolve());
    w.once('error', reject);
  });
  return {
    async stop() {
      const result = new Promise<{ images: string[]; reads: number }>((resolve, reject) => {
        w.on('message', (m: { type: string; images: string[]; reads: number }) => {
          if (m.type === 'seen') resolve({ images: m.images, reads: m.reads });
        });
        w.once('error', reject);
      });
      w.postMessage('stop');
      const r = await result;
      await w.terminate();
      return r;
    },
  };
}

/** The key `record-sampler.worker` gives an image: status, reserves and parameter words. */
export function recordKey(s: { status: number; reserveA: bigint; reserveB: bigint; u64: readonly bigint[] }): string {
  return [s.status, s.reserveA, s.reserveB, ...s.u64].join(':');
}
