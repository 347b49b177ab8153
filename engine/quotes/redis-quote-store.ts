/**
 * Quote ids in Redis, so that any instance can build a quote another one issued. One key per quote holding
 * `<expiresAtMs>:<payload>`, with a TTL running to the end of its expired mark; a take is one Lua script (read, and
 * delete only when still valid), so two instances building the same id cannot both get it.
 */
import type { Redis } from 'ioredis';
import { EXPIRED_KEPT_MS, type QuoteStore, type StoredQuote, type TakeResult } from './quote-store.js';

/** Key prefix of quote ids (under the connection's own prefix). */
export const QUOTE_KEY_PREFIX = 'quote:';

/** Returns false (unknown), or [1, value] (taken) or [0, value] (expired, kept). ARGV[1]: now in ms. */
const TAKE_SCRIPT = `
local v = redis.call('GET', KEYS[1])
if not v then return false end
local sep = string.find(v, ':', 1, true)
local expires = tonumber(string.sub(v, 1, sep - 1))
if expires <= tonumber(ARGV[1]) then return {0, v} end
redis.call('DEL', KEYS[1])
return {1, v}
`;

/** The Redis store over a client someone else owns (and closes). */
export class RedisQuoteStore implements QuoteStore {
  constructor(
    private readonly redis: Redis,
    private readonly now: () => number = Date.now,
  ) {}

  async put(quote: StoredQuote): Promise<void> {
    const ttl = Math.max(1, Math.ceil(quote.expiresAtMs + EXPIRED_KEPT_MS - this.now()));
    await this.redis.set(QUOTE_KEY_PREFIX + quote.quoteId, `${quote.expiresAtMs}:${quote.payload}`, 'PX', ttl);
  }

  async take(quoteId: string, nowMs: number): Promise<TakeResult> {
    const r = (await this.redis.eval(TAKE_SCRIPT, 1, QUOTE_KEY_PREFIX + quoteId, String(nowMs))) as [number, string] | null;
    if (r === null) return { status: 'not-found' };
    const [taken, value] = r;
    const sep = value.indexOf(':');
    const expiresAtMs = Number(value.slice(0, sep));
    if (expiresAtMs + EXPIRED_KEPT_MS <= nowMs) return { status: 'not-found' };
    if (taken === 0) return { status: 'expired' };
    return { status: 'ok', quote: { quoteId, expiresAtMs, payload: value.slice(sep + 1) } };
  }

  async close(): Promise<void> {
    // The client belongs to whoever made it.
  }
}
