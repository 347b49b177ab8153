/**
 * Signatures submitted as bundles lately, with their bundle ids: the same signed transaction submitted again
 * within `ttlMs` answers the same bundle without a second one (`POST /v1/swap` idempotency). Bounded: the oldest
 * entries go first beyond `max`. Why 2 minutes by default: a transaction's blockhash is valid for about 60 to 90 s;
 * past that a resubmission cannot land anyway, and the engine itself refuses it.
 */

/** Options of {@link RecentBundles}. */
export interface RecentBundlesOptions {
  readonly ttlMs?: number;
  readonly max?: number;
  readonly now?: () => number;
}

/** A bounded, expiring map from signature to bundle id (insertion order = age). */
export class RecentBundles {
  private readonly entries = new Map<string, { readonly bundleId: string; readonly at: number }>();
  private readonly ttlMs: number;
  private readonly max: number;
  private readonly now: () => number;

  constructor(opts: RecentBundlesOptions = {}) {
    this.ttlMs = opts.ttlMs ?? 120_000;
    this.max = opts.max ?? 10_000;
    this.now = opts.now ?? Date.now;
  }

  /** The bundle id of `signature` if it was submitted within the TTL. */
  get(signature: string): string | undefined {
    const e = this.entries.get(signature);
    if (e === undefined) return undefined;
    if (this.now() - e.at >= this.ttlMs) {
      this.entries.delete(signature);
      return undefined;
    }
    return e.bundleId;
  }

  /** Remembers a submission (refreshing its age), dropping expired and, beyond `max`, the oldest entries. */
  set(signature: string, bundleId: string): void {
    const now = this.now();
    this.entries.delete(signature);
    this.entries.set(signature, { bundleId, at: now });
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.max && now - e.at < this.ttlMs) break;
      this.entries.delete(k);
    }
  }

  /** Entries held (tests). */
  get size(): number {
    return this.entries.size;
  }
}
