/**
 * The in-memory replica of the key table that the auth stage reads synchronously: no store query per request,
 * and an unknown key is refused without touching the store (a flood of random keys costs one hash each).
 *
 * Kept fresh by polling the store for rows changed since the last read (with an overlap, because a transaction
 * that started earlier may commit later with an older `updated_at`); changes made through this process (admin
 * API) are applied at once. A revoked key is refused within one poll period (default 500 ms) on every instance.
 */
import type { ApiKeyRecord, KeyRepo } from '../store/types.js';
import type { Tier } from '../tiers/tier.js';
import { hashApiKey } from './key-material.js';

/** What the auth stage needs to know about a valid key. */
export interface KeyEntry {
  readonly id: number;
  readonly tier: Tier;
}

/** Options of {@link KeyDirectory}. */
export interface KeyDirectoryOptions {
  /** Poll period in ms (default 500). */
  readonly pollMs?: number;
  /** Re-read window before the last database clock reading, in ms (default 5000). */
  readonly overlapMs?: number;
  /** Called when a poll fails (the replica keeps serving the last state). */
  readonly onError?: (e: unknown) => void;
}

/** Most presented keys remembered with their hash (the cache is dropped whole when full). */
const MAX_REMEMBERED = 65_536;

/** The key replica. */
export class KeyDirectory {
  private readonly byHash = new Map<string, KeyEntry>();
  // Why: SHA-256 of a presented key costs ~1.5 µs; a valid key's hash is remembered by the key string. Only
  // valid keys are remembered (a flood of random keys cannot fill it), and every hit is re-checked against
  // `byHash`, so a revocation or tier change is seen at once.
  private readonly remembered = new Map<string, string>();
  private readonly hashById = new Map<number, string>();
  private since: Date | null = null;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;

  constructor(
    private readonly keys: Pick<KeyRepo, 'changedSince'>,
    private readonly opts: KeyDirectoryOptions = {},
  ) {}

  /** Number of live (unrevoked) keys held. */
  get size(): number {
    return this.byHash.size;
  }

  /** Loads every key, then polls for changes until {@link stop}. */
  async start(): Promise<void> {
    await this.poll();
    const ms = this.opts.pollMs ?? 500;
    this.timer = setInterval(() => {
      if (this.polling) return;
      this.polling = this.poll()
        .catch((e) => this.opts.onError?.(e))
        .finally(() => (this.polling = null));
    }, ms);
    this.timer.unref();
  }

  /** Stops polling. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.polling;
  }

  /** Reads changed rows once and applies them. */
  async poll(): Promise<void> {
    const overlap = this.opts.overlapMs ?? 5000;
    const since = this.since ? new Date(this.since.getTime() - overlap) : null;
    const { rows, now } = await this.keys.changedSince(since);
    for (const r of rows) this.apply(r);
    this.since = now;
  }

  /** Applies one row (a revoked row removes the key). Idempotent. */
  apply(r: Pick<ApiKeyRecord, 'id' | 'keyHash' | 'tier' | 'revokedAt'>): void {
    const old = this.hashById.get(r.id);
    if (old !== undefined && old !== r.keyHash) this.byHash.delete(old);
    if (r.revokedAt !== null) {
      this.byHash.delete(r.keyHash);
      this.hashById.delete(r.id);
      return;
    }
    this.byHash.set(r.keyHash, { id: r.id, tier: r.tier });
    this.hashById.set(r.id, r.keyHash);
  }

  /** The entry of a presented key, or null when unknown or revoked. Synchronous. */
  lookup(apiKey: string): KeyEntry | null {
    const known = this.remembered.get(apiKey);
    if (known !== undefined) {
      const e = this.byHash.get(known);
      if (e !== undefined) return e;
      this.remembered.delete(apiKey);
      return null;
    }
    const hash = hashApiKey(apiKey);
    const e = this.byHash.get(hash);
    if (e === undefined) return null;
    if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
    this.remembered.set(apiKey, hash);
    return e;
  }
}
