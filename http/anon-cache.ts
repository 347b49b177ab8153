/**
 * The anonymous response cache: serialized answers of cacheable routes, keyed by the full URL, kept for a
 * short TTL (2 s for prices). Bounded (LRU), because the key space is chosen by the caller.
 */
import { LRUCache } from 'lru-cache';

/** A serialized answer as stored in the cache. */
export interface CachedReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Buffer;
  /** The handler's body before serialization, kept for routes that age cached answers (`RouteDef.ageCached`). */
  readonly source?: unknown;
  /** When the answer was stored (epoch ms), with `source`. */
  readonly storedAtMs?: number;
  /** The last aged serialization and the ms it was made for: hits within one ms share it. */
  aged?: { atMs: number; body: string };
}

/** The cache contract the pipeline uses. */
export interface ResponseCache {
  get(key: string): CachedReply | undefined;
  set(key: string, reply: CachedReply, ttlMs: number): void;
}

/** Default bound on cached URLs. */
export const DEFAULT_ANON_CACHE_MAX = 10_000;

/** An in-memory LRU {@link ResponseCache} with per-entry TTL. */
export class AnonymousCache implements ResponseCache {
  private readonly lru: LRUCache<string, CachedReply>;

  constructor(max: number = DEFAULT_ANON_CACHE_MAX) {
    this.lru = new LRUCache<string, CachedReply>({ max });
  }

  get(key: string): CachedReply | undefined {
    return this.lru.get(key);
  }

  set(key: string, reply: CachedReply, ttlMs: number): void {
    this.lru.set(key, reply, { ttl: ttlMs });
  }

  /** Number of live entries (tests). */
  get size(): number {
    return this.lru.size;
  }
}

/** True for statuses worth caching: the data answers (200, and 404 unavailable). */
export function isCacheableStatus(status: number): boolean {
  return status === 200 || status === 404;
}
