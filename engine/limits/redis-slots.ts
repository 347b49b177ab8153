/**
 * Stream slots in Redis, shared by every instance. Each subject is a sorted set of lease ids scored by expiry
 * time; the instance holding a lease keeps pushing its expiry forward, so the slots of an instance that dies
 * without releasing free themselves after one lease TTL instead of leaking forever.
 */
import { randomBytes } from 'node:crypto';
import { checkSlotLimit } from './args.js';
import { MemorySlotLimiter } from './memory-slots.js';
import { isIntPair } from './redis-connection.js';
import type { RedisConnection, RedisScript } from './redis-connection.js';
import type { SlotDecision, SlotLease, SlotLimiter } from './types.js';

// Expiry is judged on the server's clock (TIME), the one clock every instance shares.
const NOW_MS = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * KEYS[1] lease set; ARGV ttl ms, limit (-1 = unlimited), lease id. Returns {ok 0|1, held}.
 * The set's own expiry (2 x ttl, pushed by every write) only collects subjects nobody streams for anymore.
 */
const ACQUIRE_LUA = `${NOW_MS}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local held = redis.call('ZCARD', KEYS[1])
local limit = tonumber(ARGV[2])
if limit >= 0 and held >= limit then return {0, held} end
local ttl = tonumber(ARGV[1])
redis.call('ZADD', KEYS[1], now + ttl, ARGV[3])
redis.call('PEXPIRE', KEYS[1], ttl * 2)
return {1, held + 1}
`;

/**
 * KEYS[1] lease set; ARGV ttl ms, then lease ids. A plain ZADD (not XX): a lease that expired while Redis was
 * unreachable belongs to a stream that is still open, so it is counted again rather than left invisible.
 */
const REFRESH_LUA = `${NOW_MS}
local ttl = tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], now + ttl, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ttl * 2)
return #ARGV - 1
`;

/** KEYS[1] lease set. Returns the unexpired members (expired ones are left for the next acquire to remove). */
const HELD_LUA = `${NOW_MS}
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
`;

/** Knobs of {@link RedisSlotLimiter}. */
export interface RedisSlotOptions {
  /** Life of a lease nobody refreshes (default 30 s): how long a crashed instance's slots stay taken. */
  readonly leaseTtlMs?: number;
}

/**
 * Leases at `<prefix>slots:<subject>`. Acquire is one Lua call; this instance refreshes all its live leases every
 * ttl/3 in one pipeline; release is a fire-and-forget ZREM. During an outage slots are counted in memory, per
 * instance, and leases taken then are never written to Redis.
 */
export class RedisSlotLimiter implements SlotLimiter {
  /** Lease TTL in ms. */
  readonly leaseTtlMs: number;
  private readonly acquireScript: RedisScript;
  private readonly refreshScript: RedisScript;
  private readonly heldScript: RedisScript;
  private readonly memory = new MemorySlotLimiter();
  // subject -> lease ids this instance holds in Redis (what the refresh keeps alive)
  private readonly live = new Map<string, Set<string>>();
  private readonly instanceId = randomBytes(6).toString('base64url');
  private seq = 0;
  private closed = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly conn: RedisConnection,
    opts: RedisSlotOptions = {},
  ) {
    this.leaseTtlMs = opts.leaseTtlMs ?? 30_000;
    this.acquireScript = conn.script(ACQUIRE_LUA, 1);
    this.refreshScript = conn.script(REFRESH_LUA, 1);
    this.heldScript = conn.script(HELD_LUA, 1, true);
    // Three refreshes per TTL: two can be lost (a blip, a GC pause) before a live lease expires.
    this.timer = setInterval(() => this.refresh(), Math.max(1, Math.floor(this.leaseTtlMs / 3)));
    this.timer.unref();
  }

  /**
   * Takes a slot if fewer than `limit` are held across all instances (plus any this instance took from memory
   * during an outage). Never rejects on a backend failure.
   */
  acquire(subject: string, limit: number): Promise<SlotDecision> {
    checkSlotLimit(subject, limit);
    if (!this.conn.usable()) return Promise.resolve(this.memory.acquireNow(subject, limit));
    const local = this.memory.heldNow(subject);
    const id = `${this.instanceId}:${++this.seq}`;
    const redisLimit = limit === Infinity ? -1 : Math.max(0, limit - local);
    return this.acquireScript.call([keyOf(subject)], [this.leaseTtlMs, redisLimit, id]).then(
      (reply): SlotDecision => {
        if (!isIntPair(reply)) return this.fallback(new Error(`unexpected reply ${String(reply)}`), subject, limit);
        this.conn.succeeded();
        const held = reply[1] + local;
        if (reply[0] !== 1) return { ok: false, held };
        this.track(subject, id);
        return { ok: true, held, lease: this.lease(subject, id) };
      },
      (err: unknown) => this.fallback(err, subject, limit),
    );
  }

  /** Unexpired slots of `subject` in Redis plus the ones this instance holds in memory. Never rejects. */
  held(subject: string): Promise<number> {
    const local = this.memory.heldNow(subject);
    if (!this.conn.usable()) return Promise.resolve(local);
    return this.heldScript.call([keyOf(subject)], []).then(
      (n) => {
        this.conn.succeeded();
        return Number(n) + local;
      },
      (err: unknown) => {
        this.conn.failed(err, 'held');
        return local;
      },
    );
  }

  /** Leases this instance keeps alive in Redis (for tests and metrics). */
  get liveLeases(): number {
    let n = 0;
    for (const ids of this.live.values()) n += ids.size;
    return n;
  }

  /**
   * Stops refreshing and releases every live lease in one pipeline (best effort: what it misses expires after
   * one TTL). Leases released afterwards are no-ops. The connection stays open: its creator closes it.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    if (this.live.size > 0 && this.conn.redis.status === 'ready') {
      const p = this.conn.redis.pipeline();
      for (const [subject, ids] of this.live) p.zrem(keyOf(subject), ...ids);
      try {
        await p.exec();
      } catch (err) {
        this.conn.failed(err, 'close');
      }
    }
    this.live.clear();
    await this.memory.close();
  }

  private fallback(err: unknown, subject: string, limit: number): SlotDecision {
    this.conn.failed(err, 'acquire');
    return this.memory.acquireNow(subject, limit);
  }

  private track(subject: string, id: string): void {
    const ids = this.live.get(subject);
    if (ids) ids.add(id);
    else this.live.set(subject, new Set([id]));
  }

  private lease(subject: string, id: string): SlotLease {
    let released = false;
    return {
      release: () => {
        if (released || this.closed) return;
        released = true;
        // Untracked first, so no later refresh can resurrect it; the ZREM follows any refresh already sent on
        // this connection, so it lands last.
        const ids = this.live.get(subject);
        ids?.delete(id);
        if (ids?.size === 0) this.live.delete(subject);
        this.conn.redis.zrem(keyOf(subject), id).catch((err: unknown) => this.conn.failed(err, 'release'));
      },
    };
  }

  private refresh(): void {
    // Status, not usable(): a background refresh must not use up the probe that a request is waiting for.
    if (this.live.size === 0 || this.conn.redis.status !== 'ready') return;
    const p = this.conn.redis.pipeline();
    for (const [subject, ids] of this.live) this.refreshScript.queue(p, [keyOf(subject)], [this.leaseTtlMs, ...ids]);
    p.exec().then(
      (results) => {
        const failure = results?.find(([err]) => err !== null)?.[0];
        if (failure) this.conn.failed(failure, 'refresh');
        else this.conn.succeeded();
      },
      (err: unknown) => this.conn.failed(err, 'refresh'),
    );
  }
}

function keyOf(subject: string): string {
  return `slots:${subject}`;
}
