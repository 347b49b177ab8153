/**
 * Per-request usage counting without touching the store: `record` bumps in-memory counters per (key, window) and
 * `flush` writes everything accumulated as one batch. A failed flush puts its counts back, so an outage only
 * delays them; memory grows with distinct (key, window) pairs meanwhile, not with requests.
 *
 * Counts flushed after their window was reconciled (the store down for longer than the reconciler's grace) are
 * added to the row but not scored again: the window's event is final.
 */
import type { UsageDelta, UsageRepo } from '../store/types.js';
import { windowStartOf } from './scoring.js';

/** How a metered request ended. Exclusive: a successful send counts as `rpc-ok` only. */
export type UsageOutcome = 'ok' | 'rpc-ok' | 'rate-limited' | 'other';

/** Options of {@link UsageMeter}. */
export interface UsageMeterOptions {
  /** Called when a periodic flush fails (the counts are kept for the next one). */
  readonly onError?: (e: unknown) => void;
}

interface Counts {
  apiSuccessful: number;
  rpcSuccessful: number;
  rateLimited: number;
  requests: number;
}

// Why nested maps (window, then key): no string key to build per request, and only a couple of windows are live.
type Buckets = Map<number, Map<number, Counts>>;

function bucket(b: Buckets, windowStartMs: number, apiKeyId: number): Counts {
  let byKey = b.get(windowStartMs);
  if (!byKey) {
    byKey = new Map();
    b.set(windowStartMs, byKey);
  }
  let c = byKey.get(apiKeyId);
  if (!c) {
    c = { apiSuccessful: 0, rpcSuccessful: 0, rateLimited: 0, requests: 0 };
    byKey.set(apiKeyId, c);
  }
  return c;
}

/** In-memory usage counters flushed to the store in batches. */
export class UsageMeter {
  private buckets: Buckets = new Map();
  private flushing: Promise<number> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly usage: Pick<UsageRepo, 'addBatch'>,
    private readonly opts: UsageMeterOptions = {},
  ) {}

  /** Counts one metered request of `apiKeyId` at `nowMs`. O(1), synchronous. */
  record(apiKeyId: number, outcome: UsageOutcome, nowMs: number): void {
    const c = bucket(this.buckets, windowStartOf(nowMs), apiKeyId);
    c.requests++;
    if (outcome === 'ok') c.apiSuccessful++;
    else if (outcome === 'rpc-ok') c.rpcSuccessful++;
    else if (outcome === 'rate-limited') c.rateLimited++;
  }

  /** Number of (key, window) pairs waiting for a flush. */
  get pendingPairs(): number {
    let n = 0;
    for (const byKey of this.buckets.values()) n += byKey.size;
    return n;
  }

  /**
   * Writes everything recorded so far in one `addBatch`; resolves with the number of (key, window) rows written.
   * On failure the counts go back into the meter (added to what arrived meanwhile) and the error is rethrown.
   * Calls made while a flush runs wait for it, then flush what arrived since.
   */
  async flush(): Promise<number> {
    while (this.flushing) await this.flushing.catch(() => {});
    const run = this.flushOnce();
    this.flushing = run;
    try {
      return await run;
    } finally {
      if (this.flushing === run) this.flushing = null;
    }
  }

  private async flushOnce(): Promise<number> {
    const taken = this.buckets;
    if (taken.size === 0) return 0;
    this.buckets = new Map();
    const deltas: UsageDelta[] = [];
    for (const [windowStartMs, byKey] of taken) {
      const windowStart = new Date(windowStartMs);
      for (const [apiKeyId, c] of byKey) deltas.push({ apiKeyId, windowStart, ...c });
    }
    try {
      await this.usage.addBatch(deltas);
      return deltas.length;
    } catch (e) {
      for (const d of deltas) {
        const c = bucket(this.buckets, d.windowStart.getTime(), d.apiKeyId);
        c.apiSuccessful += d.apiSuccessful;
        c.rpcSuccessful += d.rpcSuccessful;
        c.rateLimited += d.rateLimited;
        c.requests += d.requests;
      }
      throw e;
    }
  }

  /** Flushes every `intervalMs` (default 5 s) until {@link stop}; failures go to `onError`. */
  start(intervalMs = 5000): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.flushing) return;
      this.flush().catch((e) => this.opts.onError?.(e));
    }, intervalMs);
    // The meter must not keep a process alive that is otherwise done; stop() flushes the rest.
    this.timer.unref();
  }

  /** Stops the timer and flushes a last time (rejects if that flush fails; the counts stay in the meter). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }
}
