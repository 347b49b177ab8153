/**
 * The transaction tracker: one place that follows signatures and tells subscribers how each moves through the
 * cluster (`processed`, `confirmed`, `finalized`, or `failed`), for the transaction stream today and the webhooks
 * later (they only subscribe). Sources: `observe` takes an event seen elsewhere (the Geyser streams, for the
 * service's own submissions: `landed` from the deshred stream, the later stages from the Subscribe stream:
 * `engine/services/geyser-signals.ts`); `follow` polls `getSignatureStatuses` for a signature with exponential backoff
 * (250 ms, doubling to 1 s) for a bounded time (60 s, the spec's track budget). One shared timer and one batched call
 * per round (256 signatures a call), not a timer per signature.
 *
 * With a Geyser stage stream attached (`attachStream`), the service's own submissions (`follow(sig, true)`) are
 * polled as a fallback only, while the stream is live: first after 2 s, then every 4 s, and what a poll sees ahead of
 * what was emitted is held for 1 s (`streamGraceMs`) and reported (source `poll`) only if the stream has not reported
 * it by then. So a stream that is down or late never leaves a stage unreported, and a live one is never beaten to a
 * stage by a poll that happened to run in the moment between the chain's change and the stream's update. A stream
 * that is not live (closed, or silent for 3 s) gives them the normal pace and no hold; so does `pollSoon` (the stream
 * lost the transaction's slot: a dead branch).
 *
 * Events of one signature are emitted in the lifecycle's order, each at most once: a poll that first finds a
 * transaction `finalized` emits `processed`, `confirmed` and `finalized` (it passed through each; the slot is the one
 * the status reports), with `landed` before them for the service's own submissions (`follow(sig, true)`) when the
 * Geyser signal is late or missing. `failed` (landed with an error) and `finalized` end the tracking; so does the budget, silently
 * (the status route still answers for it).
 */

import { LRUCache } from 'lru-cache';

/** The lifecycle events (the spec's webhook event types for transactions). */
export type TxEventType = 'landed' | 'processed' | 'confirmed' | 'finalized' | 'failed';

/** The spec's transaction-event payload. */
export interface TxEvent {
  readonly type: TxEventType;
  readonly signature: string;
  readonly slot: number;
  /** Who saw it: `geyser` (the Geyser streams) or `poll` (signature statuses). */
  readonly source: string;
  /** Null, or the error as a string (failed). */
  readonly err: string | null;
}

/** The node calls it makes (the engine's `RpcClient` has this shape). */
export interface TrackerRpc {
  call<T>(method: string, params: unknown[]): Promise<T>;
}

/** Options (defaults in the file header). */
export interface TxTrackerOptions {
  readonly budgetMs?: number;
  readonly firstDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Shared timer period. */
  readonly roundMs?: number;
  /** Most signatures followed at once (beyond it `follow` refuses). */
  readonly maxFollowed?: number;
  readonly now?: () => number;
  /** With a live stage stream: the first poll of an own submission (default 2000 ms) and the longest gap (4000). */
  readonly streamFirstDelayMs?: number;
  readonly streamMaxDelayMs?: number;
  /** With a live stage stream: how long a poll's news of an own submission waits for the stream (default 1000 ms). */
  readonly streamGraceMs?: number;
}

const ORDER: Readonly<Record<TxEventType, number>> = { landed: 0, processed: 1, confirmed: 2, finalized: 3, failed: 4 };
const STATUS_BATCH = 256;

interface Followed {
  /** Highest stage emitted (-1: none). */
  stage: number;
  /** A submission of the service: it went through a shred, so a later stage first seen implies `landed`. */
  landedImplied: boolean;
  polled: boolean;
  /** An own submission the stage stream follows: polled slowly, its poll news held (see the file header). */
  streamed: boolean;
  /** The stream lost it (`pollSoon`): never streamed again. */
  lost: boolean;
  /** When it was last polled (or first seen), and how many polls so far. */
  lastAt: number;
  polls: number;
  /** A poll's news held for the stream. */
  held: { readonly stage: number; readonly slot: number; readonly err: string | null; readonly at: number } | null;
  readonly until: number;
}

interface RpcStatus {
  slot: number;
  err: unknown;
  confirmationStatus?: 'processed' | 'confirmed' | 'finalized' | null;
  confirmations: number | null;
}

/** The tracker of one service instance. */
export class TxTracker {
  private readonly followed = new Map<string, Followed>();
  private readonly listeners = new Set<(e: TxEvent) => void>();
  /** The events emitted per signature, kept after tracking ends (a late subscriber replays them). */
  private readonly recent = new LRUCache<string, TxEvent[]>({ max: 50_000 });
  private readonly now: () => number;
  private readonly budgetMs: number;
  private readonly firstDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxFollowed: number;
  private readonly streamFirstMs: number;
  private readonly streamMaxMs: number;
  private readonly graceMs: number;
  /** The stage stream's liveness (null: none attached). */
  private streamLive: (() => boolean) | null = null;
  private readonly timer: NodeJS.Timeout;
  private running = false;
  /** Rounds, status calls, events, expiries, and poll news held for the stream then reported anyway (`late`). */
  readonly stats = { rounds: 0, calls: 0, events: 0, expired: 0, held: 0, late: 0 };

  constructor(private readonly rpc: TrackerRpc, opts: TxTrackerOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.budgetMs = opts.budgetMs ?? 60_000;
    this.firstDelayMs = opts.firstDelayMs ?? 250;
    // Why 1 s, not more: the statuses of every due signature go in one batched call per round, so a short cap costs at
    // most one call a second whatever the number tracked, and a stage is never seen more than a second late.
    this.maxDelayMs = opts.maxDelayMs ?? 1000;
    this.maxFollowed = opts.maxFollowed ?? 50_000;
    this.streamFirstMs = opts.streamFirstDelayMs ?? 2000;
    this.streamMaxMs = opts.streamMaxDelayMs ?? 4000;
    this.graceMs = opts.streamGraceMs ?? 1000;
    this.timer = setInterval(() => void this.round(), opts.roundMs ?? 100);
    this.timer.unref();
  }

  /** Signatures followed now. */
  get size(): number {
    return this.followed.size;
  }

  /** Calls `listener` with every event of every signature; returns the unsubscribe. */
  subscribe(listener: (e: TxEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The events `signature` went through so far, in order (empty when none or forgotten). */
  history(signature: string): readonly TxEvent[] {
    return this.recent.get(signature) ?? [];
  }

  /**
   * Starts polling `signature` (idempotent; false when the tracker is full). `submitted`: the service submitted it,
   * so its lifecycle starts with `landed`: when a poll (or a late stream) sees a later stage before the Geyser
   * signal arrived, `landed` is emitted first (with that event's source: it landed, whoever saw it), so the stream's
   * order is always landed, processed, confirmed, finalized.
   */
  follow(signature: string, submitted = false): boolean {
    const f = this.entry(signature);
    if (f === null) return false;
    f.polled = true;
    if (submitted) {
      f.landedImplied = true;
      f.streamed = this.streamLive !== null && !f.lost;
    }
    return true;
  }

  /**
   * A Geyser stage stream follows the service's own submissions from now on (`live`: whether it delivers now); their
   * polling becomes the fallback described in the file header.
   */
  attachStream(live: () => boolean): void {
    this.streamLive = live;
  }

  /**
   * The stream lost `signature` (its slot left the chain): it is polled at once and at the normal pace from now on,
   * and what a poll saw is reported without waiting for the stream.
   */
  pollSoon(signature: string): void {
    const f = this.followed.get(signature);
    if (!f) return;
    f.streamed = false;
    f.lost = true;
    f.polls = 0;
    f.lastAt = this.now();
  }

  /** An event seen by another source (Geyser): emitted now if it moves the signature forward. */
  observe(e: TxEvent): void {
    const f = this.entry(e.signature);
    if (f !== null) this.advance(e.signature, f, ORDER[e.type], e.slot, e.source, e.err);
  }

  /** One polling round now (the timer's work; tests call it). Never throws. */
  async round(): Promise<void> {
    if (this.running || this.followed.size === 0) return;
    this.running = true;
    try {
      this.stats.rounds++;
      const now = this.now();
      const live = this.streamLive?.() ?? false;
      const due: string[] = [];
      for (const [sig, f] of this.followed) {
        if (now > f.until) {
          this.followed.delete(sig);
          this.stats.expired++;
          continue;
        }
        const h = f.held;
        if (h !== null && (!live || !f.streamed || now - h.at >= this.graceMs)) {
          f.held = null;
          if (h.stage > f.stage) this.stats.late++;
          this.advance(sig, f, h.stage, h.slot, 'poll', h.err);
          if (!this.followed.has(sig)) continue;
        }
        if (f.polled && now >= f.lastAt + this.delayOf(f, live)) due.push(sig);
      }
      for (let i = 0; i < due.length; i += STATUS_BATCH) {
        const batch = due.slice(i, i + STATUS_BATCH);
        this.stats.calls++;
        let value: (RpcStatus | null)[];
        try {
          value = (await this.rpc.call<{ value: (RpcStatus | null)[] }>('getSignatureStatuses', [batch, { searchTransactionHistory: true }])).value;
        } catch {
          value = batch.map(() => null);
        }
        batch.forEach((sig, j) => {
          const f = this.followed.get(sig);
          if (!f) return;
          const s = value[j] ?? null;
          f.lastAt = this.now();
          f.polls++;
          if (s !== null) {
            const err = s.err === null || s.err === undefined ? null : JSON.stringify(s.err);
            const level = s.confirmationStatus ?? (s.confirmations === null ? 'finalized' : 'confirmed');
            const stage = err !== null ? ORDER.failed : ORDER[level];
            if (f.streamed && live && stage > f.stage) {
              // Why held: the stream reports the same change within milliseconds; the poll only fills a gap.
              if (f.held === null || stage > f.held.stage) f.held = { stage, slot: s.slot, err, at: f.lastAt };
              this.stats.held++;
            } else {
              this.advance(sig, f, stage, s.slot, 'poll', err);
            }
          }
        });
      }
    } finally {
      this.running = false;
    }
  }

  /** Stops the timer; nothing is followed any more. */
  close(): void {
    clearInterval(this.timer);
    this.followed.clear();
    this.listeners.clear();
  }

  private entry(signature: string): Followed | null {
    let f = this.followed.get(signature);
    if (f) return f;
    // Why: a signature whose lifecycle ended (finalized, failed) is not followed again; its history stays.
    const last = this.recent.get(signature)?.at(-1);
    if (last && (last.type === 'finalized' || last.type === 'failed')) return null;
    if (this.followed.size >= this.maxFollowed) return null;
    const now = this.now();
    f = { stage: -1, polled: false, landedImplied: false, streamed: false, lost: false, lastAt: now, polls: 0, held: null, until: now + this.budgetMs };
    this.followed.set(signature, f);
    return f;
  }

  /** How long after its last poll `f` is due: the stream's pace for a streamed submission while it is live, else the backoff. */
  private delayOf(f: Followed, live: boolean): number {
    if (f.streamed && live) return Math.min(this.streamMaxMs, this.streamFirstMs * 2 ** f.polls);
    return f.polls === 0 ? 0 : Math.min(this.maxDelayMs, this.firstDelayMs * 2 ** (f.polls - 1));
  }

  /** Emits every stage after the last emitted up to `stage` (failed: only itself), in order; ends on a terminal. */
  private advance(signature: string, f: Followed, stage: number, slot: number, source: string, err: string | null): void {
    if (f.held !== null && stage >= f.held.stage) f.held = null;
    if (stage <= f.stage) return;
    if (stage === ORDER.failed) {
      this.emit({ type: 'failed', signature, slot, source, err });
    } else {
      // `landed` is observed (the Geyser signal), or implied for the service's own submissions (see `follow`).
      const first = f.stage < ORDER.landed && (stage === ORDER.landed || f.landedImplied) ? ORDER.landed : Math.max(f.stage + 1, ORDER.processed);
      for (let s = first; s <= stage; s++) this.emit({ type: TYPES[s]!, signature, slot, source, err: null });
    }
    f.stage = stage;
    if (stage === ORDER.finalized || stage === ORDER.failed) this.followed.delete(signature);
  }

  private emit(e: TxEvent): void {
    this.stats.events++;
    const h = this.recent.get(e.signature);
    if (h) h.push(e);
    else this.recent.set(e.signature, [e]);
    for (const l of this.listeners) l(e);
  }
}

const TYPES: readonly TxEventType[] = ['landed', 'processed', 'confirmed', 'finalized', 'failed'];
