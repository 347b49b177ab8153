/**
 * Turns closed usage windows into api_usage ledger events, exactly once per window, whatever crashes or how many
 * instances run it.
 *
 * Each window is one transaction: lock the window row (`FOR UPDATE`), stop if it is already reconciled (another
 * instance, or a run killed after its commit), lock the key row (so two reconcilers never read the same key's
 * daily total at once), score, append the event, mark the window. The event and the mark commit together, and the
 * event's source id (`usage:<windowStart>`) is unique per key, so a window can never count twice; a crash before
 * the commit leaves the window pending for the next run.
 *
 * Windows are taken oldest first, so a key's windows are scored in time order and the daily cap is spent in order.
 * Locks are taken window first, key second, one of each per transaction: no cycle with another reconciler or with a
 * usage flush (which locks window rows only, in key order).
 */
import type { Repos, Store, UsageWindow } from '../store/types.js';
import { DEFAULT_PHASE, isPointsTier, rawDelta, scoreWindow, usageDayRange, WINDOW_MS } from './scoring.js';

/** What happened to one window. */
export type WindowStatus =
  /** An event was appended (its points may be 0 when the daily cap is spent). */
  | 'scored'
  /** Marked reconciled without an event: rawDelta 0, a revoked, internal or unknown key. */
  | 'no-event'
  /** Already reconciled when locked (another instance did it). */
  | 'skipped';

/** One window's outcome, reported after its transaction committed. */
export interface WindowOutcome {
  readonly apiKeyId: number;
  readonly windowStart: Date;
  readonly status: WindowStatus;
  /** Points of the appended event (0 unless `scored`). */
  readonly points: number;
}

/** Options of {@link reconcileOnce}. */
export interface ReconcileOptions {
  /** A window is reconciled once its end is at least this far in the past (default 60 s): late flushes land first. */
  readonly graceMs?: number;
  /** Recorded in each event's meta (default `beta`). */
  readonly phase?: string;
  /** Windows read per query (default 500). */
  readonly batchSize?: number;
  /** Called after each window's transaction committed (tests count and kill here). */
  readonly onWindowDone?: (o: WindowOutcome) => void;
}

/** Totals of one {@link reconcileOnce} run. */
export interface ReconcileResult {
  /** Windows this run marked reconciled (with or without an event). */
  readonly reconciled: number;
  /** Events appended. */
  readonly events: number;
  /** Sum of the appended events' points. */
  readonly points: number;
  /** Windows found already reconciled by someone else. */
  readonly skipped: number;
}

/** Reconciles one window inside `tx`. */
export async function reconcileWindow(tx: Repos, apiKeyId: number, windowStart: Date, phase: string): Promise<WindowOutcome> {
  const done = (status: WindowStatus, points = 0): WindowOutcome => ({ apiKeyId, windowStart, status, points });
  const w = await tx.usage.getForUpdate(apiKeyId, windowStart);
  if (!w || w.reconciledAt) return done('skipped');
  const key = await tx.keys.findByIdForUpdate(apiKeyId);
  if (!key || key.revokedAt || !isPointsTier(key.tier) || rawDelta(w) === 0) {
    await tx.usage.markReconciled(apiKeyId, windowStart);
    return done('no-event');
  }
  const windowStartMs = windowStart.getTime();
  const day = usageDayRange(windowStartMs);
  const earnedToday = await tx.points.sumBetween(apiKeyId, 'api_usage', day.from, day.to);
  const score = scoreWindow({ ...countsOf(w), tier: key.tier, windowStartMs, earnedToday, phase });
  await tx.points.append({
    apiKeyId,
    kind: 'api_usage',
    points: score.points,
    sourceId: `usage:${windowStart.toISOString()}`,
    meta: score.meta,
    createdAt: new Date(windowStartMs + WINDOW_MS),
  });
  await tx.usage.markReconciled(apiKeyId, windowStart);
  return done('scored', score.points);
}

function countsOf(w: UsageWindow): { apiSuccessful: number; rpcSuccessful: number; rateLimited: number } {
  return { apiSuccessful: w.apiSuccessful, rpcSuccessful: w.rpcSuccessful, rateLimited: w.rateLimited };
}

/** Reconciles every pending window that ended at least `graceMs` before `nowMs`, oldest first. */
export async function reconcileOnce(store: Store, nowMs: number, opts: ReconcileOptions = {}): Promise<ReconcileResult> {
  const graceMs = opts.graceMs ?? 60_000;
  const phase = opts.phase ?? DEFAULT_PHASE;
  const batchSize = opts.batchSize ?? 500;
  // end <= now - grace  <=>  start < now - grace - WINDOW_MS + 1 (integer ms)
  const before = new Date(nowMs - graceMs - WINDOW_MS + 1);
  let reconciled = 0;
  let events = 0;
  let points = 0;
  let skipped = 0;
  for (;;) {
    const page = await store.usage.pending(before, batchSize);
    for (const w of page) {
      const o = await store.transaction((tx) => reconcileWindow(tx, w.apiKeyId, w.windowStart, phase));
      if (o.status === 'skipped') skipped++;
      else reconciled++;
      if (o.status === 'scored') {
        events++;
        points += o.points;
      }
      opts.onWindowDone?.(o);
    }
    if (page.length < batchSize) break;
  }
  return { reconciled, events, points, skipped };
}

/** Options of {@link PointsReconciler}. */
export interface PointsReconcilerOptions extends ReconcileOptions {
  /** Called when a run fails (the next run retries what is left). */
  readonly onError?: (e: unknown) => void;
  /** Called after each run. */
  readonly onRun?: (r: ReconcileResult) => void;
  /** Clock (default Date.now). */
  readonly now?: () => number;
}

/** Runs {@link reconcileOnce} periodically. */
export class PointsReconciler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<ReconcileResult> | null = null;

  constructor(
    private readonly store: Store,
    private readonly opts: PointsReconcilerOptions = {},
  ) {}

  /** One run now; a call during a run joins it (runs never overlap within one reconciler). */
  async runOnce(): Promise<ReconcileResult> {
    if (this.running) return this.running;
    const run = reconcileOnce(this.store, (this.opts.now ?? Date.now)(), this.opts).then((r) => {
      this.opts.onRun?.(r);
      return r;
    });
    this.running = run;
    try {
      return await run;
    } finally {
      if (this.running === run) this.running = null;
    }
  }

  /** Runs every `intervalMs` (default 5 minutes, one window) until {@link stop}; the first run is immediate. */
  start(intervalMs = 300_000): void {
    if (this.timer) return;
    const tick = (): void => {
      if (this.running) return;
      this.runOnce().catch((e) => this.opts.onError?.(e));
    };
    this.timer = setInterval(tick, intervalMs);
    this.timer.unref();
    tick();
  }

  /** Stops the timer and waits for a run in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }
}
