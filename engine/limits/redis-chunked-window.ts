/**
 * Fixed-window counters in Redis with the quota reserved in chunks per instance, so the request path does not wait
 * on Redis: an instance takes up to a chunk of a bucket's window in one call, grants requests from it synchronously,
 * tops it up in the background before it runs out, and reserves the next window's first chunk shortly before the
 * boundary. Redis counts reserved units, so the instances together never grant more than the quota; the price is
 * an early refusal bounded by what the other instances hold (README, "Chunked reservation"). Quotas whose chunk is
 * 1 are counted per call by an embedded `RedisWindowLimiter`, exactly as before, and that limiter's insurance
 * memory counter answers during an outage.
 */
import { checkConsumeArgs } from './args.js';
import { checkChunkRule, chunkSizeOf, DEFAULT_CHUNK_RULE, lowWaterOf } from './chunk-size.js';
import type { ChunkRule } from './chunk-size.js';
import { isIntPair } from './redis-connection.js';
import type { RedisConnection, RedisScript } from './redis-connection.js';
import { RedisWindowLimiter } from './redis-window.js';
import type { RedisWindowOptions } from './redis-window.js';
import { ReservedUnits } from './reserved-units.js';
import type { WindowDecision, WindowLimiter } from './types.js';
import { windowStartOf } from './window.js';

/**
 * KEYS[1] counter; ARGV need, want, limit, ttl ms. Grants min(want, limit - reserved) units if that is at least
 * `need`, nothing otherwise (a refused request reserves nothing, as the per-call script counts nothing). `need` 0
 * is a background top-up: whatever is left, up to `want`. Returns {granted, reserved after}. Relative expiry, as
 * in the per-call script (README: a caller clock cannot expire a counter early).
 */
const RESERVE_LUA = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local need = tonumber(ARGV[1])
local grant = math.min(tonumber(ARGV[2]), tonumber(ARGV[3]) - used)
if grant < need or grant <= 0 then return {0, used} end
used = redis.call('INCRBY', KEYS[1], grant)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {grant, used}
`;

/**
 * KEYS[1] counter; ARGV units. Gives back unused reserved units (never below zero; a counter that already expired
 * is not recreated). DECRBY keeps the key's expiry. Returns the count after.
 */
const RETURN_LUA = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used <= 0 then return 0 end
return redis.call('DECRBY', KEYS[1], math.min(tonumber(ARGV[1]), used))
`;

/** Knobs of {@link ChunkedRedisWindowLimiter}. */
export interface ChunkedWindowOptions extends RedisWindowOptions {
  /** Chunk size per quota (default {@link DEFAULT_CHUNK_RULE}: 1% of the quota, at most 1000). */
  readonly chunk?: ChunkRule;
  /** Units of a bucket unused this long are given back to Redis (default 5000 ms; 0 = only at close or window end). */
  readonly idleReturnMs?: number;
  /**
   * A request this close to the end of its window reserves the next window's first chunk in the background
   * (default a tenth of the window, at most 1000 ms; 0 = never: the first request of each window waits).
   */
  readonly nextWindowLeadMs?: number;
  /**
   * A request served from a holding whose last Redis call is older than this re-reads the window's count in the
   * background (default 1000 ms), so `used` (the rate-limit headers) follows the other instances (README).
   */
  readonly refreshMs?: number;
  /** Period of the timer that drops finished windows and gives back idle units (default 1000 ms; 0 = no timer). */
  readonly sweepIntervalMs?: number;
}

// Outcomes of one reservation call.
const GRANTED = 0;
const REFUSED = 1;
const FAILED = 2;
type Outcome = typeof GRANTED | typeof REFUSED | typeof FAILED;

/** One bucket's reservation in one window. */
interface Holding {
  readonly bucket: string;
  /** Window start (epoch ms). */
  readonly start: number;
  /** The window's counter (before the connection's key prefix); the per-call limiter's key. */
  readonly key: string;
  /** Units reserved by this instance and not granted yet. */
  readonly units: ReservedUnits;
  /** The window's reserved count (all instances) in the last Redis reply. */
  seen: number;
  /** The reservation in flight, at most one per holding; it resolves (to its outcome), never rejects. */
  pending: Promise<Outcome> | undefined;
  /** Caller time of the last consume (idle give-back). */
  lastUseMs: number;
  /** Caller time of the last reservation sent (refresh of `seen`). */
  askedAtMs: number;
  /** The next window's holding, reserved ahead of the boundary. */
  next: Holding | undefined;
}

/**
 * A `WindowLimiter` over Redis that answers synchronously while this instance holds units of the bucket's window
 * or knows the window is spent, and with a promise when it must reserve first (the first request of a bucket, a
 * burst that outruns the top-up, a quota with chunk 1, an outage's first failure). Same counters and keys as
 * {@link RedisWindowLimiter}: a chunked and a per-call instance count one quota together.
 */
export class ChunkedRedisWindowLimiter implements WindowLimiter {
  /** Window length in ms. */
  readonly windowMs: number;
  private readonly rule: ChunkRule;
  private readonly slackMs: number;
  private readonly idleReturnMs: number;
  private readonly leadMs: number;
  private readonly refreshMs: number;
  // Chunk 1, peeks, late requests of a past window, outages: the exact per-call path with its insurance counter.
  private readonly perCall: RedisWindowLimiter;
  private readonly reserveScript: RedisScript;
  private readonly returnScript: RedisScript;
  // bucket -> its holding in the newest window seen for it (with the next window's, once reserved ahead)
  private readonly holdings = new Map<string, Holding>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly conn: RedisConnection,
    opts: ChunkedWindowOptions = {},
  ) {
    this.rule = opts.chunk ?? DEFAULT_CHUNK_RULE;
    checkChunkRule(this.rule);
    this.perCall = new RedisWindowLimiter(conn, opts);
    this.windowMs = this.perCall.windowMs;
    this.slackMs = opts.expirySlackMs ?? 10_000;
    this.idleReturnMs = opts.idleReturnMs ?? 5000;
    this.leadMs = opts.nextWindowLeadMs ?? Math.min(1000, Math.floor(this.windowMs / 10));
    this.refreshMs = opts.refreshMs ?? 1000;
    this.reserveScript = conn.script(RESERVE_LUA, 1);
    this.returnScript = conn.script(RETURN_LUA, 1);
    const every = opts.sweepIntervalMs ?? 1000;
    if (every > 0) {
      this.timer = setInterval(() => void this.sweep(Date.now()), every);
      // A limiter must never be what keeps a process alive.
      this.timer.unref();
    }
  }

  /**
   * Grants `cost` units if they fit in the bucket's window across all instances (counting reservations as used).
   * Synchronous when this instance holds enough units; never rejects.
   */
  consume(bucket: string, cost: number, limit: number, nowMs: number): WindowDecision | Promise<WindowDecision> {
    checkConsumeArgs(bucket, cost, limit, nowMs);
    const chunk = chunkSizeOf(limit, this.rule);
    if (chunk === 1 || cost === 0 || this.closed) return this.perCall.consume(bucket, cost, limit, nowMs);
    const start = windowStartOf(nowMs, this.windowMs);
    let h = this.holdings.get(bucket);
    if (h === undefined || h.start < start) h = this.open(bucket, start, h);
    // Stamped before a boundary, arriving after it: counted per call in its own (past) window.
    else if (h.start > start) return this.perCall.consume(bucket, cost, limit, nowMs);
    h.lastUseMs = nowMs;
    const resetAtMs = start + this.windowMs;
    if (resetAtMs - nowMs <= this.leadMs && h.next === undefined) this.reserveNext(h, chunk, limit, nowMs);
    const units = h.units;
    if (units.count >= cost) {
      const last = units.take(cost);
      // Refill ahead of exhaustion, one call at a time, and not once the last reply showed the window spent; or
      // just re-read the count when this instance's view of it has aged.
      if (
        h.pending === undefined &&
        ((units.count <= lowWaterOf(chunk) && h.seen < limit) || nowMs - h.askedAtMs >= this.refreshMs)
      ) {
        this.topUp(h, chunk, limit, nowMs);
      }
      return { allowed: true, used: usedOf(h, last), limit, resetAtMs };
    }
    const need = cost - units.count;
    if (h.seen + need > limit) {
      // The last reply left too little: refuse now rather than queue every refused request behind one Redis call
      // at a time. A count that is stale (units given back since) can only refuse early, never grant too much;
      // one background call at a time looks again.
      if (h.pending === undefined) this.topUp(h, chunk, limit, nowMs);
      return { allowed: false, used: h.seen - units.count, limit, resetAtMs };
    }
    // Short: wait for the reservation in flight, then decide again (callbacks run in arrival order).
    if (h.pending !== undefined) return h.pending.then(() => this.consume(bucket, cost, limit, nowMs));
    if (!this.conn.usable()) return this.perCall.consume(bucket, cost, limit, nowMs);
    const held = h;
    // Enough for this request plus a chunk: the holding never exceeds a chunk once the request is served.
    return this.reserve(held, need, need + chunk, limit, nowMs).then((outcome): WindowDecision | Promise<WindowDecision> => {
      if (outcome === FAILED) return this.perCall.consume(bucket, cost, limit, nowMs);
      // The window moved on or the limiter closed while the call was out: decide again from scratch.
      if (this.holdings.get(bucket) !== held) return this.consume(bucket, cost, limit, nowMs);
      if (units.count >= cost) return { allowed: true, used: usedOf(held, units.take(cost)), limit, resetAtMs };
      return { allowed: false, used: held.seen - units.count, limit, resetAtMs };
    });
  }

  /** Resolves once no reservation is in flight (`close` waits the same way; tests, before reading Redis). */
  async settle(): Promise<void> {
    for (;;) {
      const pending: Promise<Outcome>[] = [];
      for (const h of this.holdings.values()) {
        if (h.pending) pending.push(h.pending);
        if (h.next?.pending) pending.push(h.next.pending);
      }
      if (pending.length === 0) return;
      await Promise.all(pending);
    }
  }

  /** Units of `bucket`'s current window this instance holds (tests, metrics). */
  held(bucket: string): number {
    return this.holdings.get(bucket)?.units.count ?? 0;
  }

  /** Buckets with a holding (tests, metrics). */
  get size(): number {
    return this.holdings.size;
  }

  /**
   * Moves buckets whose window ended before `nowMs` to their next window's holding or drops them (the units of a
   * past window expire with its counter), and gives back the units of buckets unused for the idle period, in one
   * pipeline. Runs on the timer; tests call it directly.
   */
  sweep(nowMs: number): Promise<void> {
    const back: Holding[] = [];
    for (const [bucket, first] of this.holdings) {
      let h = first;
      if (h.start + this.windowMs <= nowMs) {
        const next = h.next;
        if (next === undefined || next.start + this.windowMs <= nowMs) {
          this.holdings.delete(bucket);
          continue;
        }
        this.holdings.set(bucket, next);
        h = next;
      }
      const busy = h.pending !== undefined || h.next?.pending !== undefined;
      if (this.idleReturnMs > 0 && !busy && nowMs - h.lastUseMs >= this.idleReturnMs) {
        this.holdings.delete(bucket);
        for (const x of [h, h.next]) if (x && x.units.count > 0) back.push(x);
      }
    }
    return this.giveBack(back);
  }

  /**
   * Stops the timer, waits for reservations in flight, gives every unused unit of a live window back to Redis
   * (one pipeline; during an outage they expire with their window instead) and stops the insurance counter.
   * Later calls are counted per call. The connection stays open: its creator closes it.
   */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.settle();
    const now = Date.now();
    const back: Holding[] = [];
    for (const h of this.holdings.values()) {
      for (const x of [h, h.next]) if (x && x.units.count > 0 && x.start + this.windowMs > now) back.push(x);
    }
    this.holdings.clear();
    await this.giveBack(back);
    await this.perCall.close();
  }

  /** The bucket's holding for the window at `start`: the one reserved ahead of the boundary, or a new one. */
  private open(bucket: string, start: number, old: Holding | undefined): Holding {
    const h = old?.next?.start === start ? old.next : holding(bucket, start);
    this.holdings.set(bucket, h);
    return h;
  }

  /** True while a grant for `h` can still be used: it is its bucket's holding, or that holding's next. */
  private live(h: Holding): boolean {
    const current = this.holdings.get(h.bucket);
    return current === h || current?.next === h;
  }

  private topUp(h: Holding, chunk: number, limit: number, nowMs: number): void {
    if (this.closed || !this.conn.usable()) return;
    void this.reserve(h, 0, chunk - h.units.count, limit, nowMs);
  }

  private reserveNext(h: Holding, chunk: number, limit: number, nowMs: number): void {
    if (this.closed || !this.conn.usable()) return;
    const next = holding(h.bucket, h.start + this.windowMs);
    next.lastUseMs = nowMs;
    h.next = next;
    void this.reserve(next, 0, chunk, limit, nowMs);
  }

  /** One reservation call; its grant lands in `h` if `h` is still live when the reply comes. */
  private reserve(h: Holding, need: number, want: number, limit: number, nowMs: number): Promise<Outcome> {
    const ttlMs = h.start + this.windowMs - nowMs + this.slackMs;
    h.askedAtMs = nowMs;
    const p = this.reserveScript.call([h.key], [need, want, limit, ttlMs]).then(
      (reply): Outcome => {
        h.pending = undefined;
        if (!isIntPair(reply)) {
          this.conn.failed(new Error(`unexpected reply ${String(reply)}`), 'reserve');
          return FAILED;
        }
        this.conn.succeeded();
        const [granted, used] = reply;
        h.seen = used;
        // A holding dropped meanwhile (its window ended, the limiter closed) keeps nothing: the units expire with
        // that window's counter.
        if (granted > 0 && this.live(h)) h.units.add(used - granted + 1, used);
        return need > 0 && granted === 0 ? REFUSED : GRANTED;
      },
      (err: unknown): Outcome => {
        h.pending = undefined;
        this.conn.failed(err, 'reserve');
        return FAILED;
      },
    );
    h.pending = p;
    return p;
  }

  private async giveBack(back: readonly Holding[]): Promise<void> {
    if (back.length === 0) return;
    // During an outage the units are not lost for long: they expire with their window.
    if (!this.conn.usable()) return;
    const p = this.conn.redis.pipeline();
    for (const h of back) {
      this.returnScript.queue(p, [h.key], [h.units.count]);
      h.units.clear();
    }
    try {
      const replies = await p.exec();
      const err = replies?.find(([e]) => e !== null)?.[0];
      if (err) this.conn.failed(err, 'return');
    } catch (err) {
      this.conn.failed(err, 'return');
    }
  }
}

/**
 * `used` as this instance sees it after granting the unit at position `last`: the window's reserved count at the
 * last reply minus the units this instance still holds (units other instances hold count as used), never below
 * the unit's own position. Exact with one instance.
 */
function usedOf(h: Holding, last: number): number {
  return Math.max(last, h.seen - h.units.count);
}

/** A holding with nothing reserved yet. Window start in seconds in the key, as the per-call limiter writes it. */
function holding(bucket: string, start: number): Holding {
  return {
    bucket,
    start,
    key: `rl:${bucket}:${start / 1000}`,
    units: new ReservedUnits(),
    seen: 0,
    pending: undefined,
    lastUseMs: 0,
    askedAtMs: 0,
    next: undefined,
  };
}
