/**
 * Builds the limiters the service runs with: Redis-backed when a URL is configured (several instances share one
 * quota), in memory otherwise (one instance).
 */
import type { ChunkRule } from './chunk-size.js';
import { MemorySlotLimiter } from './memory-slots.js';
import { MemoryWindowLimiter } from './memory-window.js';
import { connectRedis } from './redis-connection.js';
import type { RedisConnectionOptions } from './redis-connection.js';
import { ChunkedRedisWindowLimiter } from './redis-chunked-window.js';
import { RedisSlotLimiter } from './redis-slots.js';
import { RedisWindowLimiter } from './redis-window.js';
import type { LimitsLog, SlotLimiter, WindowLimiter } from './types.js';

/** Configuration of {@link createLimiters}. */
export interface LimitersOptions {
  /** `redis://host:port/db`; absent or empty = memory limiters. */
  readonly redisUrl?: string;
  /** Prefix of every Redis key (default `sms:`), so the limiters can share a Redis with other data. */
  readonly keyPrefix?: string;
  /** Where outages and recoveries are reported. Default silent. */
  readonly log?: LimitsLog;
  /** Window length (default one minute); tests shorten it. */
  readonly windowMs?: number;
  /**
   * Redis window limiter: quota reserved per instance in chunks of this rule (default `DEFAULT_CHUNK_RULE`, 1% of
   * the quota, at most 1000), or `false` for one Redis call per consume (the per-call limiter).
   */
  readonly chunk?: ChunkRule | false;
  /** Redis stream-slot lease TTL (default 30 s); tests shorten it. */
  readonly leaseTtlMs?: number;
  /** Further connection knobs (timeouts, backoff, probe interval). */
  readonly redis?: Omit<RedisConnectionOptions, 'keyPrefix' | 'log'>;
}

/** The limiters of one service instance. */
export interface Limiters {
  readonly window: WindowLimiter;
  readonly slots: SlotLimiter;
  /** The configured backend; with `redis` an outage is served from memory without changing this. */
  readonly backend: 'memory' | 'redis';
  /**
   * Resolves true once the backend can count (memory: at once; Redis: connected), false after `timeoutMs`. Optional
   * at startup: until Redis is connected the limiters answer from memory.
   */
  ready(timeoutMs?: number): Promise<boolean>;
  /** Closes both limiters (releasing live stream slots) and the Redis connection. */
  close(): Promise<void>;
}

/**
 * Creates the window and slot limiters over Redis when `redisUrl` is set (the window limiter reserving quota in
 * chunks unless `chunk: false`), in memory otherwise. Never throws on an unreachable Redis.
 */
export function createLimiters(opts: LimitersOptions = {}): Limiters {
  if (!opts.redisUrl) {
    const window = new MemoryWindowLimiter({ windowMs: opts.windowMs });
    const slots = new MemorySlotLimiter();
    return {
      window,
      slots,
      backend: 'memory',
      ready: () => Promise.resolve(true),
      close: async () => {
        await Promise.all([window.close(), slots.close()]);
      },
    };
  }
  const conn = connectRedis(opts.redisUrl, { ...opts.redis, keyPrefix: opts.keyPrefix ?? 'sms:', log: opts.log });
  const window =
    opts.chunk === false
      ? new RedisWindowLimiter(conn, { windowMs: opts.windowMs })
      : new ChunkedRedisWindowLimiter(conn, { windowMs: opts.windowMs, chunk: opts.chunk });
  const slots = new RedisSlotLimiter(conn, { leaseTtlMs: opts.leaseTtlMs });
  return {
    window,
    slots,
    backend: 'redis',
    ready: (timeoutMs = 2000) => conn.waitReady(timeoutMs),
    close: async () => {
      // Limiters first: the slot limiter releases its leases over the connection.
      await Promise.all([window.close(), slots.close()]);
      await conn.close();
    },
  };
}
