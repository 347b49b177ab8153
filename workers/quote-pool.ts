/**
 * The piscina pool of quote workers, with typed helpers per task kind.
 */
import { Piscina } from 'piscina';
import type { PriceEntry } from '../engine/router/price-types.js';
import { TASK_PROTOCOL_VERSION, type PingResult, type PriceItem, type PricesResult, type QuoteWorkerData, type RouteResult, type RouteTask } from './protocol.js';

/** Options of the quote pool. */
export interface QuotePoolOptions extends QuoteWorkerData {
  readonly threads?: number;
  /** Tasks in flight per worker (piscina's concurrentTasksPerWorker): above 1 pipelines round trips. */
  readonly tasksPerWorker?: number;
}

/** The quote worker pool. */
export class QuotePool {
  private readonly pool: Piscina;

  constructor(o: QuotePoolOptions) {
    const workerData: QuoteWorkerData = { poolSab: o.poolSab, extSab: o.extSab, mintSab: o.mintSab, catalogFile: o.catalogFile };
    this.pool = new Piscina({
      filename: new URL('./quote.worker.js', import.meta.url).href,
      // SharedArrayBuffers inside workerData are shared with the workers, not copied.
      workerData,
      minThreads: o.threads ?? 1,
      maxThreads: o.threads ?? 1,
      concurrentTasksPerWorker: o.tasksPerWorker ?? 8,
      idleTimeout: 60_000,
    });
  }

  /** Prices of many tokens in one task. */
  async prices(items: readonly PriceItem[], optimistic: boolean): Promise<PriceEntry[]> {
    const r = (await this.pool.run({ v: TASK_PROTOCOL_VERSION, kind: 'prices', items, optimistic })) as PricesResult;
    return r.entries;
  }

  /** One route search in a worker (see {@link RouteTask}). */
  async route(task: Omit<RouteTask, 'v' | 'kind'>): Promise<RouteResult> {
    return (await this.pool.run({ v: TASK_PROTOCOL_VERSION, kind: 'route', ...task })) as RouteResult;
  }

  /** A no-op round trip. */
  async ping(): Promise<void> {
    (await this.pool.run({ v: TASK_PROTOCOL_VERSION, kind: 'ping' })) as PingResult;
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
