/**
 * Fixed-window counters in Redis, so every instance behind the load balancer charges one quota. One round trip
 * per consume (a Lua script: check and count atomically); an outage falls back to a per-instance memory limiter.
 */
import { checkConsumeArgs } from './args.js';
import { MemoryWindowLimiter } from './memory-window.js';
import { isIntPair } from './redis-connection.js';
import type { RedisConnection, RedisScript } from './redis-connection.js';
import type { WindowDecision, WindowLimiter } from './types.js';
import { checkWindowMs, MINUTE_MS, windowStartOf } from './window.js';

/**
 * KEYS[1] counter; ARGV cost, limit (-1 = unlimited), ttl ms. Returns {allowed 0|1, used}.
 * Reading before writing is what makes a refused call count nothing (INCR-then-check would overshoot and need a
 * compensating DECR). The expiry is relative (PEXPIRE, not PEXPIREAT) so a caller clock that differs from the
 * server's cannot make a counter expire early.
 */
const CONSUME_LUA = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local cost = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
if limit >= 0 and used + cost > limit then return {0, used} end
if cost > 0 then
  used = redis.call('INCRBY', KEYS[1], cost)
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return {1, used}
`;

/** Knobs of {@link RedisWindowLimiter}. */
export interface RedisWindowOptions {
  /** Window length (default one minute). */
  readonly windowMs?: number;
  /** How long a counter outlives its window (default 10 s): covers callers whose clocks run a little late. */
  readonly expirySlackMs?: number;
}

/**
 * Counters at `<prefix>rl:<bucket>:<windowStartSec>`. `consume` returns a promise when it asks Redis and a plain
 * decision when it answers from the insurance limiter (Redis known to be down): the contract allows both.
 */
export class RedisWindowLimiter implements WindowLimiter {
  /** Window length in ms. */
  readonly windowMs: number;
  private readonly slackMs: number;
  private readonly script: RedisScript;
  // Per-instance quota during an outage: looser than the shared one (each instance grants the full quota) but
  // still a limit, which beats failing open or refusing everything.
  private readonly insurance: MemoryWindowLimiter;

  constructor(
    private readonly conn: RedisConnection,
    opts: RedisWindowOptions = {},
  ) {
    this.windowMs = opts.windowMs ?? MINUTE_MS;
    checkWindowMs(this.windowMs);
    this.slackMs = opts.expirySlackMs ?? 10_000;
    this.script = conn.script(CONSUME_LUA, 1);
    this.insurance = new MemoryWindowLimiter({ windowMs: this.windowMs });
  }

  /** Grants `cost` units if they fit in the bucket's window across all instances. Never rejects. */
  consume(bucket: string, cost: number, limit: number, nowMs: number): WindowDecision | Promise<WindowDecision> {
    checkConsumeArgs(bucket, cost, limit, nowMs);
    if (!this.conn.usable()) return this.insurance.consume(bucket, cost, limit, nowMs);
    const start = windowStartOf(nowMs, this.windowMs);
    const resetAtMs = start + this.windowMs;
    // Window start in seconds (README, key layout); a sub-second test window gets a decimal, still one key per window.
    const key = `rl:${bucket}:${start / 1000}`;
    const ttlMs = resetAtMs - nowMs + this.slackMs;
    return this.script.call([key], [cost, limit === Infinity ? -1 : limit, ttlMs]).then(
      (reply) => {
        if (!isIntPair(reply)) return this.fallback(new Error(`unexpected reply ${String(reply)}`), bucket, cost, limit, nowMs);
        this.conn.succeeded();
        return { allowed: reply[0] === 1, used: reply[1], limit, resetAtMs };
      },
      (err: unknown) => this.fallback(err, bucket, cost, limit, nowMs),
    );
  }

  /** Stops the insurance limiter's sweep. The connection stays open: its creator closes it. */
  close(): Promise<void> {
    return this.insurance.close();
  }

  private fallback(err: unknown, bucket: string, cost: number, limit: number, nowMs: number): WindowDecision {
    this.conn.failed(err, 'consume');
    return this.insurance.consume(bucket, cost, limit, nowMs);
  }
}
