/**
 * Per-process fixed-window counters: the limiter of a single instance, and the insurance limiter the Redis one
 * falls back to during an outage.
 */
import { checkConsumeArgs } from './args.js';
import type { WindowDecision, WindowLimiter } from './types.js';
import { checkWindowMs, MINUTE_MS, windowStartOf } from './window.js';

/** Knobs of {@link MemoryWindowLimiter}. */
export interface MemoryWindowOptions {
  /** Window length (default one minute); tests use a second. */
  readonly windowMs?: number;
  /** Period of the timer that drops past windows while idle (default `windowMs`; 0 = no timer). */
  readonly sweepIntervalMs?: number;
}

/**
 * Fixed windows aligned to the epoch, counted per bucket. Synchronous: one process owns the counts, so there is
 * nothing to wait for. Counts live in one map per window, so dropping a past window is one delete.
 */
export class MemoryWindowLimiter implements WindowLimiter {
  /** Window length in ms. */
  readonly windowMs: number;
  // window start -> bucket -> units used
  private readonly windows = new Map<number, Map<string, number>>();
  private newestStart = -Infinity;
  private timer: NodeJS.Timeout | undefined;

  constructor(opts: MemoryWindowOptions = {}) {
    this.windowMs = opts.windowMs ?? MINUTE_MS;
    checkWindowMs(this.windowMs);
    const every = opts.sweepIntervalMs ?? this.windowMs;
    if (every > 0) {
      this.timer = setInterval(() => this.sweep(Date.now()), every);
      // A limiter must never be what keeps a process alive.
      this.timer.unref();
    }
  }

  /** Grants `cost` units if they fit in the bucket's current window; a refused call counts nothing. */
  consume(bucket: string, cost: number, limit: number, nowMs: number): WindowDecision {
    checkConsumeArgs(bucket, cost, limit, nowMs);
    const start = windowStartOf(nowMs, this.windowMs);
    const resetAtMs = start + this.windowMs;
    const window = this.windows.get(start);
    const used = window?.get(bucket) ?? 0;
    if (used + cost > limit) return { allowed: false, used, limit, resetAtMs };
    // A zero-cost call is a peek: it must not allocate an entry per probing client.
    if (cost > 0) (window ?? this.open(start)).set(bucket, used + cost);
    return { allowed: true, used: used + cost, limit, resetAtMs };
  }

  /**
   * Drops every window older than the one before `nowMs`'s. The previous window is kept because concurrent
   * requests stamped just before a boundary can still arrive after it.
   */
  sweep(nowMs: number): void {
    const keepFrom = windowStartOf(nowMs, this.windowMs) - this.windowMs;
    for (const start of this.windows.keys()) if (start < keepFrom) this.windows.delete(start);
  }

  /** Buckets counted across the windows still held (for tests and metrics). */
  get size(): number {
    let n = 0;
    for (const w of this.windows.values()) n += w.size;
    return n;
  }

  /** Stops the sweep timer and forgets every count. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.windows.clear();
  }

  private open(start: number): Map<string, number> {
    const w = new Map<string, number>();
    this.windows.set(start, w);
    // A new newest window is the natural moment to drop old ones: memory stays bounded even without the timer.
    if (start > this.newestStart) {
      this.newestStart = start;
      this.sweep(start);
    }
    return w;
  }
}
