/**
 * The service's own price history (issue 16): one-minute OHLC bars of each sampled mint's confirmed USD price, in
 * the store, kept 26 hours; `change24h` of every price object, and the candles of `GET /v1/price/:token/history`.
 *
 * - **What is sampled**: every tracked (catalog) token, plus the mints callers ask prices of (the most recently
 *   asked, up to `maxMints` in all). A mint nobody asks about is not sampled: at mainnet scale most mints are never
 *   asked, and sampling every one would cost the main thread and the store for nothing.
 * - **When**: every `sampleMs` (default 10 s, so a bar holds about six samples), in slices of 64 mints per
 *   event-loop turn so that a sample round never holds the loop for long; a bar is flushed to the store once its
 *   minute is over (the current minute too at `stop`), each minute once.
 * - **change24h**: in percent, the price now against the close of the newest bar at or before 24 h ago, when that
 *   bar is at most 1 h older than the mark (the service was down before); omitted otherwise. The closes of the
 *   last 25 hours are held in memory per sampled mint (a ring of 1,500 minutes), loaded from the store at start, so
 *   the field survives restarts and costs one lookup per price.
 * - **Candles** are read from the store (1m, 5m, 1h buckets of the bars).
 */
import { isPrice, type PriceEntry } from '../router/price-types.js';
import type { PriceBar, PriceBarRepo } from '../store/types.js';
import type { PriceService, ResolvedToken } from './price-service-types.js';

const MINUTE = 60_000;
const DAY = 24 * 3_600_000;
/** Minutes held in memory per mint: 25 h. */
const RING_MINUTES = 1500;
/** How far before the 24 h mark the reference bar may be. */
const CHANGE_TOLERANCE_MS = 3_600_000;
/** Bars kept in the store: 26 h. */
export const PRICE_HISTORY_HORIZON_MS = 26 * 3_600_000;
const SLICE = 64;

/** Candle intervals of the history route. */
export type CandleInterval = '1m' | '5m' | '1h';
const INTERVAL_MS: Readonly<Record<CandleInterval, number>> = { '1m': MINUTE, '5m': 5 * MINUTE, '1h': 60 * MINUTE };

/** One candle: the bucket's start and its OHLC. */
export interface Candle {
  readonly t: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
}

/** Options of {@link PriceHistory}. */
export interface PriceHistoryOptions {
  readonly repo: PriceBarRepo;
  /** The tracked tokens and readiness. */
  readonly prices: Pick<PriceService, 'trackedTokens' | 'ready'>;
  /** A price as derived (not decorated, not counted as asked: `SlabPriceService.rawPrice`). */
  readonly rawPrice: (token: ResolvedToken, optimistic: boolean, nowMs: number) => PriceEntry;
  readonly now?: () => number;
  /** Sampling period (default 10,000 ms). */
  readonly sampleMs?: number;
  /** Most mints sampled (tracked tokens included; default 500). */
  readonly maxMints?: number;
  readonly onError?: (e: unknown) => void;
}

/** The closes of one mint's last 25 hours, by minute. */
class CloseRing {
  readonly minutes = new Float64Array(RING_MINUTES);
  readonly closes = new Float64Array(RING_MINUTES);

  put(minuteMs: number, close: number): void {
    const i = (minuteMs / MINUTE) % RING_MINUTES;
    this.minutes[i] = minuteMs;
    this.closes[i] = close;
  }

  /** The close of the newest minute in [fromMs, toMs], or undefined. */
  newestIn(fromMs: number, toMs: number): number | undefined {
    const last = Math.floor(toMs / MINUTE) * MINUTE;
    for (let m = last; m >= fromMs; m -= MINUTE) {
      const i = (m / MINUTE) % RING_MINUTES;
      if (this.minutes[i] === m) return this.closes[i];
    }
    return undefined;
  }
}

interface OpenBar {
  minuteMs: number;
  open: number;
  high: number;
  low: number;
  close: number;
  samples: number;
}

/** The price history of one service instance (main thread). */
export class PriceHistory {
  private readonly now: () => number;
  private readonly rings = new Map<string, CloseRing>();
  private readonly open = new Map<string, OpenBar>();
  private readonly done: PriceBar[] = [];
  /** Asked mints, least recently asked first (insertion order of a Map). */
  private readonly asked = new Map<string, ResolvedToken>();
  private timer: NodeJS.Timeout | null = null;
  private sampling = false;
  private flushing: Promise<void> = Promise.resolve();
  private lastPruneMs = 0;

  constructor(private readonly o: PriceHistoryOptions) {
    this.now = o.now ?? Date.now;
  }

  /** Loads the last 25 hours' closes from the store and starts sampling. */
  async start(): Promise<void> {
    const since = this.now() - RING_MINUTES * MINUTE;
    for (const b of await this.o.repo.since(since)) this.ring(b.mint).put(b.minuteMs, b.close);
    const period = this.o.sampleMs ?? 10_000;
    this.timer = setInterval(() => this.tick(), period);
    this.timer.unref();
  }

  /** Stops sampling and flushes every bar, the current minute's included. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const [mint, b] of this.open) this.done.push({ mint, ...b });
    this.open.clear();
    await this.flush();
  }

  /** A caller asked the price of `token`: it is sampled from now on (the least recently asked leaves past the cap). */
  noteAsked(token: ResolvedToken): void {
    if (token.tracked) return;
    this.asked.delete(token.mint);
    this.asked.set(token.mint, token);
    const room = Math.max(0, (this.o.maxMints ?? 500) - this.trackedCount());
    while (this.asked.size > room) this.asked.delete(this.asked.keys().next().value as string);
  }

  /**
   * Sets `change24h` on `entry` when the history holds a point 24 h old, and returns it. In place, not a copy: every
   * price the price service gives is a fresh object, and a copy per price would cost the price route an allocation.
   */
  decorate(entry: PriceEntry, nowMs = this.now()): PriceEntry {
    if (!isPrice(entry)) return entry;
    const change = this.change24h(entry.mint, entry.priceUsd, nowMs);
    if (change !== undefined) entry.change24h = change;
    return entry;
  }

  /** The 24 h change of `mint` at `priceUsd`, in percent, or undefined (see the file header). */
  change24h(mint: string, priceUsd: number, nowMs = this.now()): number | undefined {
    const ring = this.rings.get(mint);
    if (ring === undefined || !Number.isFinite(priceUsd)) return undefined;
    const mark = nowMs - DAY;
    const then = ring.newestIn(mark - CHANGE_TOLERANCE_MS, mark);
    if (then === undefined || !(then > 0)) return undefined;
    return (priceUsd / then - 1) * 100;
  }

  /** Candles of `mint` in [fromMs, toMs) at `interval`, oldest first: the stored bars, and the ones not written yet. */
  async candles(mint: string, interval: CandleInterval, fromMs: number, toMs: number): Promise<Candle[]> {
    const size = INTERVAL_MS[interval];
    const start = Math.floor(fromMs / size) * size;
    const byMinute = new Map<number, PriceBar>();
    for (const b of await this.o.repo.range(mint, start, toMs)) byMinute.set(b.minuteMs, b);
    // Bars of this instance not flushed yet (the open minute, a queue the store refused): the stored one wins.
    const cur = this.open.get(mint);
    const pending = cur ? [...this.done, { mint, ...cur }] : this.done;
    for (const b of pending) if (b.mint === mint && b.minuteMs >= start && b.minuteMs < toMs && !byMinute.has(b.minuteMs)) byMinute.set(b.minuteMs, b);
    const bars = [...byMinute.values()].sort((a, b) => a.minuteMs - b.minuteMs);
    const out: { t: number; open: number; high: number; low: number; close: number }[] = [];
    for (const b of bars) {
      const t = Math.floor(b.minuteMs / size) * size;
      const last = out[out.length - 1];
      if (last && last.t === t) {
        last.high = Math.max(last.high, b.high);
        last.low = Math.min(last.low, b.low);
        last.close = b.close;
      } else out.push({ t, open: b.open, high: b.high, low: b.low, close: b.close });
    }
    return out;
  }

  /** Mints sampled now: every tracked token and the asked ones. */
  sampledMints(): ResolvedToken[] {
    return [...this.o.prices.trackedTokens(), ...this.asked.values()];
  }

  /** One sample round (normally the timer's): in slices, then the flush of finished minutes. */
  tick(): void {
    if (this.sampling || !this.o.prices.ready()) return;
    this.sampling = true;
    const tokens = this.sampledMints();
    let i = 0;
    const slice = (): void => {
      try {
        const nowMs = this.now();
        for (const end = Math.min(tokens.length, i + SLICE); i < end; i++) this.sampleOne(tokens[i]!, nowMs);
      } catch (e) {
        this.o.onError?.(e);
        i = tokens.length;
      }
      if (i < tokens.length) {
        setImmediate(slice);
        return;
      }
      this.sampling = false;
      this.closeFinished(this.now());
      void this.flush();
    };
    slice();
  }

  private sampleOne(t: ResolvedToken, nowMs: number): void {
    const e = this.o.rawPrice(t, false, nowMs);
    // Only fresh prices: a stale one (-1 age) would write yesterday's price into today's bar.
    if (!isPrice(e) || !Number.isFinite(e.priceUsd) || e.priceUsd <= 0 || e.poolCacheAgeMs < 0) return;
    const minuteMs = Math.floor(nowMs / MINUTE) * MINUTE;
    const p = e.priceUsd;
    let b = this.open.get(t.mint);
    if (b && b.minuteMs !== minuteMs) {
      this.done.push({ mint: t.mint, ...b });
      b = undefined;
    }
    if (!b) {
      b = { minuteMs, open: p, high: p, low: p, close: p, samples: 0 };
      this.open.set(t.mint, b);
    }
    if (p > b.high) b.high = p;
    if (p < b.low) b.low = p;
    b.close = p;
    b.samples++;
    this.ring(t.mint).put(minuteMs, p);
  }

  /** Moves the bars of minutes that are over to the flush queue. */
  private closeFinished(nowMs: number): void {
    const minuteMs = Math.floor(nowMs / MINUTE) * MINUTE;
    for (const [mint, b] of this.open) {
      if (b.minuteMs === minuteMs) continue;
      this.done.push({ mint, ...b });
      this.open.delete(mint);
    }
  }

  /** Writes the finished bars, and prunes the store past the horizon at most every 10 minutes. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const bars = this.done.splice(0);
      try {
        if (bars.length > 0) await this.o.repo.upsert(bars);
        const nowMs = this.now();
        if (nowMs - this.lastPruneMs >= 10 * MINUTE) {
          this.lastPruneMs = nowMs;
          await this.o.repo.deleteBefore(nowMs - PRICE_HISTORY_HORIZON_MS);
        }
      } catch (e) {
        // Kept for the next flush: a store that is down for a while loses nothing it can hold.
        this.done.unshift(...bars);
        this.o.onError?.(e);
      }
    });
    return this.flushing;
  }

  private trackedCountMemo = -1;

  /** Tracked tokens (the catalog does not change while the service runs). */
  private trackedCount(): number {
    if (this.trackedCountMemo < 0) this.trackedCountMemo = this.o.prices.trackedTokens().length;
    return this.trackedCountMemo;
  }

  private ring(mint: string): CloseRing {
    let r = this.rings.get(mint);
    if (r === undefined) {
      r = new CloseRing();
      this.rings.set(mint, r);
    }
    return r;
  }
}
