/**
 * Test support: the shared Redis of the dev box / CI (`REDIS_URL`, default redis://127.0.0.1:6379) seen through a
 * random key prefix, limiter connections on it, and the cleanup of every key a test file created.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { connectRedis } from '../redis-connection.js';
import type { RedisConnection } from '../redis-connection.js';
import type { LimitsLog } from '../types.js';

/** One test file's view of the shared Redis. */
export class SharedRedis {
  /** Where the shared Redis listens. */
  readonly url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  /** The random prefix of every key this file creates (raw key = prefix + limiter key). */
  readonly prefix: string;
  /** A client without the prefix, for reading raw keys. */
  readonly raw: Redis;
  private readonly conns: RedisConnection[] = [];

  constructor(tag: string) {
    this.prefix = `test:${tag}:${randomUUID()}:`;
    this.raw = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
    this.raw.on('error', () => undefined);
  }

  /** Connects the raw client; fails with the command that starts Redis when it is not reachable. */
  async start(): Promise<void> {
    try {
      await this.raw.connect();
    } catch (err) {
      throw new Error(
        `Redis is not reachable at ${this.url} (${String(err)}); start it: redis-server --daemonize yes --bind 127.0.0.1 -::1 ` +
          `--port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log`,
      );
    }
  }

  /** A limiter connection under the prefix, connected (closed by {@link stop}). */
  async open(log?: LimitsLog): Promise<RedisConnection> {
    const c = connectRedis(this.url, { keyPrefix: this.prefix, ...(log ? { log } : {}) });
    this.conns.push(c);
    assert.equal(await c.waitReady(3000), true, `redis not reachable at ${this.url}`);
    return c;
  }

  /** Every key this file created (raw names). */
  async keys(): Promise<string[]> {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await this.raw.scan(cursor, 'MATCH', `${this.prefix}*`, 'COUNT', 1000);
      keys.push(...batch);
      cursor = next;
    } while (cursor !== '0');
    return keys;
  }

  /** A counter's value (0 when absent), by its limiter key (without the prefix). */
  async count(key: string): Promise<number> {
    return Number((await this.raw.get(this.prefix + key)) ?? 0);
  }

  /** Deletes this file's keys and closes every connection. */
  async stop(): Promise<void> {
    const keys = await this.keys();
    for (let i = 0; i < keys.length; i += 500) await this.raw.del(...keys.slice(i, i + 500));
    await Promise.all(this.conns.map((c) => c.close()));
    await this.raw.quit();
  }
}
