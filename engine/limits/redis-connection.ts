/**
 * The Redis connection the limiters share: an ioredis client tuned to fail fast, plus the outage state that
 * decides when a limiter answers from its local fallback instead. A rate limiter must never be the reason a
 * request hangs, so a dead or stalled Redis costs a request microseconds (not connected) or at most one command
 * timeout per probe interval (connected but silent).
 */
import { Redis } from 'ioredis';
import type { LimitsLog } from './types.js';

/** Knobs of {@link connectRedis}. */
export interface RedisConnectionOptions {
  /** Prepended to every key (ioredis `keyPrefix`); tests isolate themselves with a random one. Default none. */
  readonly keyPrefix?: string;
  /** Where outages and recoveries are reported (one line each per outage). Default silent. */
  readonly log?: LimitsLog;
  /** Give up on a TCP connect after this long (default 1000 ms). */
  readonly connectTimeoutMs?: number;
  /** A command without a reply after this long fails (default 250 ms): bounds the wait on a stalled server. */
  readonly commandTimeoutMs?: number;
  /** Ceiling of the reconnect backoff (default 1000 ms): how soon after Redis returns the limiters use it again. */
  readonly reconnectMaxMs?: number;
  /** After a failed command, answer locally this long before letting one command probe Redis (default 1000 ms). */
  readonly probeIntervalMs?: number;
}

/** A Lua script registered on the connection, callable directly or queued on a pipeline. */
export interface RedisScript {
  call(keys: readonly string[], args: readonly (string | number)[]): Promise<unknown>;
  queue(pipeline: RedisPipeline, keys: readonly string[], args: readonly (string | number)[]): void;
}

/** An ioredis pipeline. */
export type RedisPipeline = ReturnType<Redis['pipeline']>;

type ScriptFn = (...a: (string | number)[]) => Promise<unknown>;

/**
 * One ioredis client plus its health. Limiters ask {@link usable} before each command and report the outcome with
 * {@link succeeded} / {@link failed}; the connection logs the first failure of an outage and the recovery, once
 * each, however many limiters share it. Limiters never close it: whoever created it does.
 */
export class RedisConnection {
  /** The client (commands, pipelines). */
  readonly redis: Redis;
  /** The prefix ioredis adds to every key (for tools that must see raw key names, e.g. cleanup). */
  readonly keyPrefix: string;
  private readonly log: LimitsLog;
  private readonly probeIntervalMs: number;
  private down = false;
  private probeAt = 0;
  private closing = false;
  private scripts = 0;

  constructor(url: string, opts: RedisConnectionOptions = {}) {
    this.keyPrefix = opts.keyPrefix ?? '';
    this.log = opts.log ?? (() => undefined);
    this.probeIntervalMs = opts.probeIntervalMs ?? 1000;
    const reconnectMaxMs = opts.reconnectMaxMs ?? 1000;
    this.redis = new Redis(url, {
      keyPrefix: this.keyPrefix,
      connectionName: 'limits',
      // Not connected = reject at once; a queue would park every request until Redis returns.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      // A consume answered from the fallback must not be replayed (and counted twice) on reconnect.
      autoResendUnfulfilledCommands: false,
      connectTimeout: opts.connectTimeoutMs ?? 1000,
      commandTimeout: opts.commandTimeoutMs ?? 250,
      // Never give up: the fallback covers the gap, and recovery must need no operator.
      retryStrategy: (times) => Math.min(times * 100, reconnectMaxMs),
      // Commands issued in one event-loop turn go out in one write: measured 41 -> 24 µs per call at 64 in
      // flight on loopback, the load a busy instance puts on its limiter.
      enableAutoPipelining: true,
    });
    // Also keeps ioredis from printing every reconnect failure as an unhandled error event.
    this.redis.on('error', (err: Error) => this.failed(err, 'connection'));
    // A server that dies cleanly (restart, kill) closes the socket without an error event.
    this.redis.on('close', () => this.failed(new Error('connection closed'), 'connection'));
    // Back online: let the next command probe at once instead of waiting out the probe interval.
    this.redis.on('ready', () => {
      this.probeAt = 0;
    });
  }

  /**
   * True when a command may go to Redis now: connected, and either healthy or due for a probe (at most one
   * command per probe interval tests a server that failed, the others answer locally meanwhile).
   */
  usable(): boolean {
    if (this.redis.status !== 'ready') return false;
    if (!this.down) return true;
    const now = performance.now();
    if (now < this.probeAt) return false;
    this.probeAt = now + this.probeIntervalMs;
    return true;
  }

  /** Records a successful command; ends an outage (logged once). */
  succeeded(): void {
    if (!this.down) return;
    this.down = false;
    this.log('info', 'redis back: limits counted in redis again');
  }

  /** Records a failed command or connection error; starts an outage (logged once) and delays the next probe. */
  failed(err: unknown, op: string): void {
    if (this.closing) return;
    this.probeAt = performance.now() + this.probeIntervalMs;
    if (this.down) return;
    this.down = true;
    this.log('warn', 'redis unavailable: limits answered from local memory (per instance) until it returns', {
      op,
      error: err instanceof Error ? err.message : String(err),
    });
  }

  /** Registers a Lua script (EVALSHA, falling back to EVAL once when the server lost its script cache). */
  script(lua: string, numberOfKeys: number, readOnly = false): RedisScript {
    const name = `limits${++this.scripts}`;
    this.redis.defineCommand(name, { lua, numberOfKeys, readOnly });
    const fnOf = (target: object): ScriptFn => {
      const fn = (target as Record<string, ScriptFn>)[name];
      return fn.bind(target);
    };
    const direct = fnOf(this.redis);
    return {
      call: (keys, args) => direct(...keys, ...args),
      queue: (pipeline, keys, args) => void fnOf(pipeline)(...keys, ...args),
    };
  }

  /** Resolves true once connected, false if that takes longer than `timeoutMs`. */
  waitReady(timeoutMs: number): Promise<boolean> {
    if (this.redis.status === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean): void => {
        clearTimeout(timer);
        this.redis.off('ready', onReady);
        resolve(ok);
      };
      const onReady = (): void => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.redis.on('ready', onReady);
    });
  }

  /** Closes the client (QUIT when connected, so replies in flight arrive first) and stops reconnecting. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.redis.status === 'ready') {
      try {
        await this.redis.quit();
      } catch {
        // Closing anyway: a failed QUIT only means the server is already gone.
      }
    }
    this.redis.disconnect();
  }
}

/** True when a script replied with two integers (every limiter script does). */
export function isIntPair(x: unknown): x is [number, number] {
  return Array.isArray(x) && x.length === 2 && Number.isInteger(x[0]) && Number.isInteger(x[1]);
}

/** Opens a limiter connection to `url` (`redis://host:port/db`); it connects in the background. */
export function connectRedis(url: string, opts: RedisConnectionOptions = {}): RedisConnection {
  return new RedisConnection(url, opts);
}
