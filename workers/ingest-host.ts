/**
 * Starts the ingest worker from the main thread, relays its messages and watches its change ring.
 */
import { Worker } from 'node:worker_threads';
import { ChangeReader, type ChangeRun } from '../engine/slab/change-ring.js';
import type { FeedStatus } from '../engine/ingest/feed-status.js';
import type { IngestMessage, IngestWorkerData } from './protocol.js';

/** Callbacks of the ingest worker. */
export interface IngestHostHandlers {
  onReady(pools: number): void;
  /**
   * Pools whose records changed, read from the change ring: runs of one view in the order ingest published them.
   * `lapped`: changes were lost (the reader fell a whole ring behind); treat every pool as changed.
   */
  onChange(runs: readonly ChangeRun[], lapped: boolean): void;
  onLog(level: 'debug' | 'info' | 'warn' | 'error', msg: string, ctx?: Record<string, unknown>): void;
  onExit(code: number): void;
}

/** A running ingest worker. */
export interface IngestHost {
  /** Latest stats reported by the worker. */
  stats(): Record<string, number | boolean | string>;
  /** The newest feed status the worker reported (null before the first). */
  feed(): FeedStatus | null;
  /** Stops the worker. */
  stop(): Promise<void>;
}

/** Starts `workers/ingest.worker.js` with the shared slabs. */
export function startIngestWorker(data: IngestWorkerData, h: IngestHostHandlers): IngestHost {
  const changes = new ChangeReader(data.changeSab);
  void changes.watch((b) => {
    try {
      h.onChange(b.runs, b.lapped);
    } catch (e) {
      h.onLog('error', 'change handler failed', { error: (e as Error).message });
    }
  });
  const worker = new Worker(new URL('./ingest.worker.js', import.meta.url), { workerData: data });
  let stats: Record<string, number | boolean | string> = {};
  let feed: FeedStatus | null = null;
  worker.on('message', (m: IngestMessage) => {
    switch (m.type) {
      case 'ready':
        h.onReady(m.pools);
        break;
      case 'stats':
        stats = m.stats;
        break;
      case 'feed':
        feed = { ...m.feed, processedSlot: BigInt(m.feed.processedSlot), chainSlot: BigInt(m.feed.chainSlot) };
        break;
      case 'log':
        h.onLog(m.level, m.msg, m.ctx);
        break;
      case 'fatal':
        h.onLog('error', m.error);
        break;
    }
  });
  worker.on('error', (e) => h.onLog('error', 'ingest worker crashed', { error: e.message }));
  worker.on('exit', (code) => h.onExit(code));
  return {
    stats: () => stats,
    feed: () => feed,
    async stop(): Promise<void> {
      changes.stop();
      worker.postMessage({ type: 'stop' });
      await Promise.race([new Promise((r) => worker.once('exit', r)), new Promise((r) => setTimeout(r, 2000))]);
      await worker.terminate();
    },
  };
}
