/**
 * The recent blockhash builds use: asked of the node (`getLatestBlockhash`) when started and every 2 s after, so a
 * build never waits on it. Until the first answer, and when the last good one is older than 45 s (the node has
 * stopped answering; a blockhash lives about 60 s), there is none: the build answers 503 BLOCKHASH_UNAVAILABLE.
 */

/** A blockhash and the last block height at which a transaction using it can land. */
export interface RecentBlockhash {
  readonly blockhash: string;
  readonly lastValidBlockHeight: number;
}

/** Refresh period. */
export const BLOCKHASH_REFRESH_MS = 2000;
/** Oldest cached blockhash handed out. */
export const BLOCKHASH_MAX_AGE_MS = 45_000;

/** The cache; `fetch` is one `getLatestBlockhash` call. */
export class BlockhashCache {
  private latest: { value: RecentBlockhash; at: number } | null = null;
  private timer: NodeJS.Timeout | null = null;
  private inFlight = false;

  constructor(
    private readonly fetch: () => Promise<RecentBlockhash>,
    private readonly opts: { refreshMs?: number; maxAgeMs?: number; now?: () => number; onError?: (e: unknown) => void } = {},
  ) {}

  /** Fetches now and every refresh period until {@link close}. */
  start(): void {
    if (this.timer) return;
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.opts.refreshMs ?? BLOCKHASH_REFRESH_MS);
    // Why unref: the cache never keeps a process alive on its own.
    this.timer.unref();
  }

  /** One fetch (skipped while one is in flight); failures keep the previous blockhash. */
  async refresh(): Promise<void> {
    if (this.inFlight) return;
    this.inFlight = true;
    try {
      const value = await this.fetch();
      this.latest = { value, at: this.now() };
    } catch (e) {
      this.opts.onError?.(e);
    } finally {
      this.inFlight = false;
    }
  }

  /** The latest blockhash, or null before the first one or when it is too old. */
  current(): RecentBlockhash | null {
    if (!this.latest || this.now() - this.latest.at > (this.opts.maxAgeMs ?? BLOCKHASH_MAX_AGE_MS)) return null;
    return this.latest.value;
  }

  /** Stops refreshing. */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }
}
