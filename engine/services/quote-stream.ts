/**
 * The quote streams (`GET /v1/quote/stream`): the first quote on connect, then a recompute check per stream at its
 * tickHz, driven by one timer for every stream. A check recomputes only when the topology generation moved or a
 * pool the stream's last search read has been written since (one atomic load of its record's write sequence per
 * pool, no message), so an idle stream costs a few loads per tick and no route work. A recomputed quote is sent
 * (and stored under its id) only when the watched amount moved by at least minMoveBps; later failures are dropped.
 *
 * Pure over its injected parts (the quote function, the slab's sequence and generation readers, the clock and the
 * timer), so every rule is testable without threads or sockets. Heartbeats are the SSE hub's (every stream route).
 */
import type { QuoteBody, QuoteInput, StreamQuote } from './quote-service.js';
import { minMoveCentiBps, movedEnough, tickPeriodMs, watchedAmount } from './quote-stream-rules.js';

/** Starts a periodic callback; returns its stop. */
export type TickTimer = (fn: () => void, periodMs: number) => () => void;

/** The process timer (unref'd: open streams keep the listen socket's process alive, not this timer). */
export const intervalTimer: TickTimer = (fn, periodMs) => {
  const t = setInterval(fn, periodMs);
  t.unref();
  return () => clearInterval(t);
};

/** Default resolution of the shared timer: a stream's check runs at most this late. */
export const DEFAULT_TICK_RESOLUTION_MS = 50;

/** What the quote streams need. */
export interface QuoteStreamDeps {
  /** One quote with the pools its search read (`QuoteService.streamQuote`). */
  readonly quote: (input: QuoteInput) => Promise<StreamQuote>;
  /** A pool record's write sequence (`PoolSlab.writeSeq`, latest view). */
  readonly writeSeq: (pool: number) => number;
  /** The slab's topology generation (`PoolSlab.generation`). */
  readonly generation: () => number;
  /**
   * A count that moves whenever ingest announces a written pool record (the change ring's published count,
   * `changeCounter`). When it has not moved since a stream's last check, no record can have been written and the
   * check ends without reading any sequence: one load for a tick instead of one per watched pool. Optional.
   */
  readonly changes?: () => number;
  readonly now?: () => number;
  readonly timer?: TickTimer;
  /** Period of the shared timer (default {@link DEFAULT_TICK_RESOLUTION_MS}). */
  readonly resolutionMs?: number;
  /** Told of a recompute that threw (the stream stays open and retries on its next tick). */
  readonly onError?: (e: unknown) => void;
}

/** One stream's request: the quote and the spec's two stream knobs. */
export interface QuoteStreamRequest {
  readonly input: QuoteInput;
  /** Recompute rate; clamped to [1, 5]. */
  readonly tickHz: number;
  /** Minimum move of the watched amount, in bps (>= 0), for a new frame. */
  readonly minMoveBps: number;
}

/** Where a stream's later frames go. */
export interface QuoteStreamSink {
  frame(body: QuoteBody): void;
}

/** Counters of one stream, or of all (tests and metrics). */
export interface QuoteStreamCounters {
  /** Checks run (one per period). */
  ticks: number;
  /** Checks that found nothing written and did no route work. */
  skipped: number;
  /** Checks that ran a route search. */
  recomputes: number;
  /** Checks that found the previous recompute still running (a stream never overlaps itself). */
  overlapped: number;
  /** Frames sent after the first. */
  emitted: number;
  /** Recomputes whose amount moved less than minMoveBps (nothing sent). */
  held: number;
  /** Recomputes that failed (404, 504, a thrown search): dropped silently. */
  dropped: number;
}

/** An open stream. */
export interface QuoteStreamHandle {
  /** Milliseconds between checks (tickHz clamped). */
  readonly periodMs: number;
  readonly counters: Readonly<QuoteStreamCounters>;
  /** Stops the stream (idempotent). */
  close(): void;
}

/** The first quote of a connect: a frame and the stream to start, or the failure the stream ends with. */
export type QuoteStreamStart =
  | { readonly ok: true; readonly body: QuoteBody; start(sink: QuoteStreamSink): QuoteStreamHandle }
  | { readonly ok: false; readonly code: 'NO_ROUTE' | 'ROUTE_TIMEOUT' | 'EXCEEDED_SLIPPAGE'; readonly message: string };

interface Live extends QuoteStreamHandle {
  readonly input: QuoteInput;
  readonly minMove: bigint;
  readonly sink: QuoteStreamSink;
  readonly counters: QuoteStreamCounters;
  pools: readonly number[];
  seqs: readonly number[];
  generation: number;
  /** `changes()` as read before the last full check or search (see {@link QuoteStreamsDeps.changes}). */
  changeCount: number;
  /** Recompute at the next check whatever the sequences say (after a timeout, a throw, no watch set). */
  retry: boolean;
  busy: boolean;
  closed: boolean;
  dueAt: number;
  /** The watched amount of the last frame sent. */
  last: bigint;
}

function zero(): QuoteStreamCounters {
  return { ticks: 0, skipped: 0, recomputes: 0, overlapped: 0, emitted: 0, held: 0, dropped: 0 };
}

/** Every quote stream of the process. */
export class QuoteStreams {
  /** Totals over every stream since start. */
  readonly stats: QuoteStreamCounters = zero();
  private readonly live = new Set<Live>();
  private readonly now: () => number;
  private readonly timer: TickTimer;
  private readonly resolutionMs: number;
  private stopTimer: (() => void) | null = null;

  constructor(private readonly deps: QuoteStreamDeps) {
    this.now = deps.now ?? Date.now;
    this.timer = deps.timer ?? intervalTimer;
    this.resolutionMs = deps.resolutionMs ?? DEFAULT_TICK_RESOLUTION_MS;
  }

  /** Open streams. */
  get size(): number {
    return this.live.size;
  }

  /**
   * Computes and stores the first quote of a connect. On success `start` registers the stream (the caller starts
   * it once the client is connected; a client gone before costs nothing more).
   */
  async first(req: QuoteStreamRequest): Promise<QuoteStreamStart> {
    // Why the generation before the search: a pool added during it moves the generation past the one kept.
    const generation = this.deps.generation();
    const changeCount = this.deps.changes?.() ?? 0;
    const q = await this.deps.quote(req.input);
    const o = q.outcome;
    if (!o.ok) {
      // Why: a stream's search carries no abort signal, so CANCELLED cannot come back; were it to, it ended the search.
      if (o.code === 'CANCELLED') return { ok: false, code: 'ROUTE_TIMEOUT', message: o.message };
      return { ok: false, code: o.code, message: o.message };
    }
    await q.commit();
    return { ok: true, body: o.body, start: (sink) => this.register(req, sink, q, generation, changeCount, watchedAmount(o.body)) };
  }

  /** Runs the check of every stream that is due; the shared timer calls it. */
  runDue(): void {
    const now = this.now();
    for (const s of this.live) {
      if (now < s.dueAt) continue;
      s.dueAt += s.periodMs;
      // After a stall (a long GC, a busy loop) the stream resumes its rate instead of catching up in a burst.
      if (s.dueAt <= now) s.dueAt = now + s.periodMs;
      this.check(s);
    }
  }

  /** Ends every stream and stops the timer. */
  close(): void {
    for (const s of [...this.live]) s.close();
  }

  private register(req: QuoteStreamRequest, sink: QuoteStreamSink, q: StreamQuote, generation: number, changeCount: number, last: bigint): QuoteStreamHandle {
    const periodMs = tickPeriodMs(req.tickHz);
    const s: Live = {
      input: req.input,
      minMove: minMoveCentiBps(req.minMoveBps),
      sink,
      periodMs,
      counters: zero(),
      pools: q.watch?.pools ?? [],
      seqs: q.watch?.seqs ?? [],
      generation,
      changeCount,
      retry: q.watch === null,
      busy: false,
      closed: false,
      dueAt: this.now() + periodMs,
      last,
      close: () => {
        if (s.closed) return;
        s.closed = true;
        this.live.delete(s);
        if (this.live.size === 0 && this.stopTimer !== null) {
          this.stopTimer();
          this.stopTimer = null;
        }
      },
    };
    this.live.add(s);
    this.stopTimer ??= this.timer(() => this.runDue(), this.resolutionMs);
    return s;
  }

  private count(s: Live, k: keyof QuoteStreamCounters): void {
    s.counters[k]++;
    this.stats[k]++;
  }

  /** One check: recompute when something the last search read has been written, else nothing. */
  private check(s: Live): void {
    this.count(s, 'ticks');
    if (s.busy) {
      this.count(s, 'overlapped');
      return;
    }
    const generation = this.deps.generation();
    // Why read before the sequences: a write announced during the scan moves the count past the one kept.
    const changes = this.deps.changes?.();
    if (!s.retry && generation === s.generation && (changes === s.changeCount || !this.written(s))) {
      if (changes !== undefined) s.changeCount = changes;
      this.count(s, 'skipped');
      return;
    }
    if (changes !== undefined) s.changeCount = changes;
    this.recompute(s, generation);
  }

  private written(s: Live): boolean {
    const { pools, seqs } = s;
    const read = this.deps.writeSeq;
    for (let i = 0; i < pools.length; i++) if (read(pools[i]!) !== seqs[i]) return true;
    return false;
  }

  private recompute(s: Live, generation: number): void {
    this.count(s, 'recomputes');
    s.busy = true;
    s.retry = false;
    // A failed search answers no watch set: the stream keeps its pools, with their sequences as of now (before the
    // search), so it tries again only once something moves.
    const before = s.pools.map((p) => this.deps.writeSeq(p));
    this.deps
      .quote(s.input)
      .then(async (q) => {
        if (s.closed) return;
        s.generation = generation;
        if (q.watch !== null) {
          s.pools = q.watch.pools;
          s.seqs = q.watch.seqs;
        } else {
          s.seqs = before;
        }
        const o = q.outcome;
        if (!o.ok) {
          // The spec: a later 404 or 504 is dropped silently; a timeout says nothing about the pools, so retry.
          if (o.code === 'ROUTE_TIMEOUT') s.retry = true;
          this.count(s, 'dropped');
          return;
        }
        // A quote without the pools its search read cannot be watched: check again at the next tick.
        if (q.watch === null) s.retry = true;
        const amount = watchedAmount(o.body);
        if (!movedEnough(s.last, amount, s.minMove)) {
          this.count(s, 'held');
          return;
        }
        // Stored before it is sent: a frame's quoteId is good for the build step the moment the client sees it.
        await q.commit();
        if (s.closed) return;
        s.last = amount;
        this.count(s, 'emitted');
        s.sink.frame(o.body);
      })
      .catch((e: unknown) => {
        // The spec's transient 503 (a worker gone, the store down): dropped; the next check tries again.
        s.retry = true;
        this.count(s, 'dropped');
        // A stream closed meanwhile (the service shutting down its workers) has nothing to report.
        if (!s.closed) this.deps.onError?.(e);
      })
      .finally(() => {
        s.busy = false;
      });
  }
}
