/**
 * Rebroadcast of sent transactions until they land or can no longer land: one shared timer for every tracked
 * transaction (not one per transaction); each round asks the node for the statuses of all of them (256 per call),
 * drops the landed ones, drops the ones whose blockhash expired (past their `lastValidBlockHeight` when known, else
 * `isBlockhashValid` false, once per distinct blockhash), and sends the rest again without preflight. Bounded:
 * at most `maxTracked` transactions, each for at most `maxAgeMs`.
 */

/** The node calls it makes (the engine's `RpcClient` has this shape). */
export interface RebroadcastRpc {
  call<T>(method: string, params: unknown[]): Promise<T>;
}

/** How a tracked transaction left the rebroadcast set. */
export type RebroadcastEnd = 'landed' | 'expired' | 'timeout';

/** Options (defaults: every 2 s, 10,000 transactions, 90 s each). */
export interface RebroadcastOptions {
  readonly periodMs?: number;
  readonly maxTracked?: number;
  readonly maxAgeMs?: number;
  readonly now?: () => number;
  /** Told once per transaction when it leaves. */
  readonly onEnd?: (signature: string, end: RebroadcastEnd) => void;
}

interface Entry {
  readonly wire: string;
  readonly blockhash: string;
  readonly lastValidBlockHeight: number | null;
  readonly sinceMs: number;
}

/** Most signatures per getSignatureStatuses call (the node's limit). */
const STATUS_BATCH = 256;

/** The rebroadcast set of one service instance. */
export class Rebroadcaster {
  private readonly tracked = new Map<string, Entry>();
  private readonly timer: NodeJS.Timeout;
  private running = false;
  private readonly now: () => number;
  private readonly maxTracked: number;
  private readonly maxAgeMs: number;
  /** Rounds run and transactions re-sent (tests, metrics). */
  readonly stats = { rounds: 0, resent: 0, landed: 0, expired: 0, timedOut: 0 };

  constructor(private readonly rpc: RebroadcastRpc, private readonly opts: RebroadcastOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.maxTracked = opts.maxTracked ?? 10_000;
    this.maxAgeMs = opts.maxAgeMs ?? 90_000;
    this.timer = setInterval(() => void this.round(), opts.periodMs ?? 2000);
    this.timer.unref();
  }

  /** Transactions tracked now. */
  get size(): number {
    return this.tracked.size;
  }

  /** True when `signature` is being rebroadcast. */
  has(signature: string): boolean {
    return this.tracked.has(signature);
  }

  /** Starts rebroadcasting a sent transaction; false when it is already tracked or the set is full. */
  track(signature: string, wireBase64: string, blockhash: string, lastValidBlockHeight: number | null): boolean {
    if (this.tracked.has(signature) || this.tracked.size >= this.maxTracked) return false;
    this.tracked.set(signature, { wire: wireBase64, blockhash, lastValidBlockHeight, sinceMs: this.now() });
    return true;
  }

  /** One round now (the timer's work; tests call it directly). Never throws; a failed node call skips the round. */
  async round(): Promise<void> {
    if (this.running || this.tracked.size === 0) return;
    this.running = true;
    try {
      this.stats.rounds++;
      const sigs = [...this.tracked.keys()];
      for (let i = 0; i < sigs.length; i += STATUS_BATCH) {
        const batch = sigs.slice(i, i + STATUS_BATCH);
        const r = await this.rpc.call<{ value: (object | null)[] }>('getSignatureStatuses', [batch]);
        batch.forEach((s, j) => { if (r.value[j]) this.end(s, 'landed'); });
      }
      if (this.tracked.size === 0) return;
      const height = await this.rpc.call<number>('getBlockHeight', [{ commitment: 'confirmed' }]);
      const valid = new Map<string, boolean>();
      for (const [sig, e] of this.tracked) {
        if (this.now() - e.sinceMs > this.maxAgeMs) { this.end(sig, 'timeout'); continue; }
        let live: boolean;
        if (e.lastValidBlockHeight !== null) live = height <= e.lastValidBlockHeight;
        else {
          let v = valid.get(e.blockhash);
          if (v === undefined) {
            v = (await this.rpc.call<{ value: boolean }>('isBlockhashValid', [e.blockhash, { commitment: 'confirmed' }])).value;
            valid.set(e.blockhash, v);
          }
          live = v;
        }
        if (!live) { this.end(sig, 'expired'); continue; }
        this.stats.resent++;
        // Why no await per send: a slow node must not stretch the round; a failed re-send is retried next round.
        this.rpc.call('sendTransaction', [e.wire, { encoding: 'base64', skipPreflight: true, maxRetries: 0 }]).catch(() => undefined);
      }
    } catch {
      // The node could not be asked: try again next round (timeouts still apply then).
    } finally {
      this.running = false;
    }
  }

  /** Stops the timer; tracked transactions are forgotten. */
  close(): void {
    clearInterval(this.timer);
    this.tracked.clear();
  }

  private end(signature: string, end: RebroadcastEnd): void {
    if (!this.tracked.delete(signature)) return;
    if (end === 'landed') this.stats.landed++;
    else if (end === 'expired') this.stats.expired++;
    else this.stats.timedOut++;
    this.opts.onEnd?.(signature, end);
  }
}
