/**
 * The piscina pool of quote workers, with typed helpers per task kind.
 *
 * Route tasks can be abandoned (`route(task, signal)`): each cancellable task holds one Int32 word of a small
 * SharedArrayBuffer the workers share; the abort sets it, and the worker's search reads it wherever it checks its
 * deadline (and before it starts, so a task abandoned while queued costs one message, not a search). Why not
 * piscina's own `signal` option: piscina removes an aborted task from its queue, but for a task already handed to a
 * worker it terminates the worker thread, and with several tasks in flight per worker a task is handed over as soon
 * as it is submitted: one client going away would kill the other searches on that worker and cost a worker restart.
 */
import { Piscina } from 'piscina';
import type { PriceEntry } from '../engine/router/price-types.js';
import { TASK_PROTOCOL_VERSION, type PingResult, type PriceItem, type PricesResult, type QuoteWorkerData, type RouteResult, type RouteTask } from './protocol.js';

/** Cancellable route tasks in flight at once (cancel words); past that a task runs to its deadline if abandoned. */
export const CANCEL_SLOTS = 1024;

/** The answer of a route task abandoned before it was submitted. */
const NOT_SENT: RouteResult = Object.freeze({ v: TASK_PROTOCOL_VERSION, ok: false, code: 'CANCELLED', message: 'route task abandoned before it was sent', contextSlot: 0n });

/** Options of the quote pool. */
export interface QuotePoolOptions extends Omit<QuoteWorkerData, 'cancelSab'> {
  readonly threads?: number;
  /** Tasks in flight per worker (piscina's concurrentTasksPerWorker): above 1 pipelines round trips. */
  readonly tasksPerWorker?: number;
}

/** The quote worker pool. */
export class QuotePool {
  private readonly pool: Piscina;
  /** One word per cancel slot: 0 live, 1 abandoned. */
  private readonly cancelWords = new Int32Array(new SharedArrayBuffer(4 * CANCEL_SLOTS));
  private readonly freeSlots: number[] = Array.from({ length: CANCEL_SLOTS }, (_v, i) => CANCEL_SLOTS - 1 - i);

  constructor(o: QuotePoolOptions) {
    const workerData: QuoteWorkerData = { poolSab: o.poolSab, extSab: o.extSab, arraySab: o.arraySab, mintSab: o.mintSab, catalogFile: o.catalogFile, cancelSab: this.cancelWords.buffer as SharedArrayBuffer };
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

  /** Tasks waiting in the pool's queue (not yet handed to a worker). */
  queueSize(): number {
    return this.pool.queueSize;
  }

  /** Prices of many tokens in one task. */
  async prices(items: readonly PriceItem[], optimistic: boolean): Promise<PriceEntry[]> {
    const r = (await this.pool.run({ v: TASK_PROTOCOL_VERSION, kind: 'prices', items, optimistic })) as PricesResult;
    return r.entries;
  }

  /**
   * One route search in a worker (see {@link RouteTask}). With `signal`: once it fires the answer is `CANCELLED`
   * (never sent if it fired first; else the worker stops at its next check, or discards on arrival).
   */
  async route(task: Omit<RouteTask, 'v' | 'kind' | 'cancelSlot'>, signal?: AbortSignal): Promise<RouteResult> {
    if (signal === undefined) return (await this.pool.run({ v: TASK_PROTOCOL_VERSION, kind: 'route', ...task })) as RouteResult;
    if (signal.aborted) return NOT_SENT;
    const slot = this.freeSlots.pop();
    if (slot !== undefined) Atomics.store(this.cancelWords, slot, 0);
    const onAbort = (): void => {
      if (slot !== undefined) Atomics.store(this.cancelWords, slot, 1);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const r = (await this.pool.run({ v: TASK_PROTOCOL_VERSION, kind: 'route', ...task, cancelSlot: slot })) as RouteResult;
      // Why: an answer that completed before the worker saw the word is still nobody's.
      if (signal.aborted && r.ok) return { v: TASK_PROTOCOL_VERSION, ok: false, code: 'CANCELLED', message: 'route task abandoned while its answer was on its way', contextSlot: r.contextSlot };
      return r;
    } finally {
      signal.removeEventListener('abort', onAbort);
      // The worker is done with the word (it answered, or the pool failed the task): the slot can serve another task.
      if (slot !== undefined) this.freeSlots.push(slot);
    }
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
