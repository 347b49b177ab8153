/**
 * One SubscribeDeshred stream whose filter is a changing set of accounts (`accountInclude`): every deshred
 * transaction touching one of them is reported with its signature and slot, as soon as it comes out of the shreds
 * (before it executes: the `landed` signal). Used for the fee payers of the transactions the service submitted.
 *
 * - A new account set is written on the open stream (Yellowstone replaces the filters with each request), then a
 *   ping (carrying the same filter, so it holds whether a ping keeps or replaces the filters): its pong comes back
 *   after the server applied the filter (requests are handled in order), which is when
 *   `setAccounts` resolves, or after `ackTimeoutMs`, or at once while no stream is open (a caller may wait on it
 *   before submitting, never for long).
 * - An empty set is an empty `deshredTransactions` map (it matches nothing); an empty `accountInclude` would match
 *   every transaction.
 * - The stream is reopened after it ends, with backoff (250 ms doubling to 10 s, back to the first after a stream
 *   that delivered anything); a refusal that will not pass by retrying soon (gRPC UNIMPLEMENTED: the server has no
 *   SubscribeDeshred; UNAUTHENTICATED, PERMISSION_DENIED: the x-token) waits the longest delay. Decisions read the
 *   gRPC status code, never the message. Each attempt connects a fresh client.
 */
import bs58 from 'bs58';
import type { DeshredClient, DeshredSubscription } from './geyser-deshred.js';
import { GrpcStatus, grpcStatusOf } from './grpc-status.js';
import type { SubscribeDeshredRequest, SubscribeUpdateDeshred } from './yellowstone.js';

/** Options of a watch. */
export interface DeshredWatchOptions {
  /** Connects a fresh client (each attempt). */
  readonly connect: () => Promise<DeshredClient>;
  /** A deshred transaction matched the filter. */
  readonly onTransaction: (signature: string, slot: number) => void;
  readonly firstBackoffMs?: number;
  readonly maxBackoffMs?: number;
  /** Longest wait of `setAccounts` for the server's acknowledgement. Default 500. */
  readonly ackTimeoutMs?: number;
  readonly log?: (level: 'debug' | 'info' | 'warn', msg: string, ctx?: Record<string, unknown>) => void;
}

/** Refusals that retrying soon will not fix. */
const LASTING: ReadonlySet<number> = new Set([GrpcStatus.UNIMPLEMENTED, GrpcStatus.UNAUTHENTICATED, GrpcStatus.PERMISSION_DENIED]);

/** The watch (not started until `start`). */
export class DeshredWatch {
  private accounts: readonly string[] = [];
  private client: DeshredClient | null = null;
  private sub: DeshredSubscription | null = null;
  /** Bumped per attempt: callbacks of an older stream are ignored. */
  private generation = 0;
  private readonly acks = new Map<number, () => void>();
  private nextPing = 1;
  private delay: number;
  private timer: NodeJS.Timeout | null = null;
  private closed = true;
  private readonly firstMs: number;
  private readonly maxMs: number;
  /** Streams opened, streams ended by an error, the last error's status and the wait it chose, transactions reported. */
  readonly stats = { connects: 0, errors: 0, lastStatus: undefined as number | undefined, lastDelayMs: 0, transactions: 0 };

  constructor(private readonly o: DeshredWatchOptions) {
    this.firstMs = o.firstBackoffMs ?? 250;
    this.maxMs = o.maxBackoffMs ?? 10_000;
    this.delay = this.firstMs;
  }

  /** True while a stream is open. */
  get open(): boolean {
    return this.sub !== null;
  }

  /** The accounts of the current filter. */
  get watched(): readonly string[] {
    return this.accounts;
  }

  /** Opens the stream (and keeps reopening it until `close`). */
  start(): void {
    if (!this.closed) return;
    this.closed = false;
    void this.attempt();
  }

  /** Replaces the watched accounts; resolves once the server applied them (bounded, see the header). Never rejects. */
  setAccounts(accounts: Iterable<string>): Promise<void> {
    this.accounts = [...accounts];
    this.sub?.write(this.request());
    return this.sync();
  }

  /**
   * Resolves once the server handled every request written before (a ping's pong: requests are handled in order),
   * after `ackTimeoutMs`, or at once while no stream is open. Never rejects.
   */
  sync(): Promise<void> {
    const sub = this.sub;
    if (sub === null) return Promise.resolve();
    const id = this.nextPing++;
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(t);
        this.acks.delete(id);
        resolve();
      };
      const t = setTimeout(done, this.o.ackTimeoutMs ?? 500);
      this.acks.set(id, done);
      // Why the filter again: whether a ping keeps the filters or replaces them, the stream keeps this one.
      sub.write({ ...this.request(), ping: { id } });
    });
  }

  /** Stops for good. */
  close(): void {
    this.closed = true;
    this.generation++;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.sub?.close();
    this.sub = null;
    this.client?.close();
    this.client = null;
    this.releaseAcks();
  }

  private request(): SubscribeDeshredRequest {
    if (this.accounts.length === 0) return { deshredTransactions: {}, slots: {} };
    return { deshredTransactions: { tracked: { vote: false, accountInclude: [...this.accounts], accountExclude: [], accountRequired: [] } }, slots: {} };
  }

  private async attempt(): Promise<void> {
    const gen = ++this.generation;
    let delivered = false;
    try {
      this.client?.close();
      this.client = null;
      const client = await this.o.connect();
      if (gen !== this.generation) return client.close();
      this.client = client;
      const sub = await client.subscribe(this.request(), {
        onUpdate: (u) => {
          if (gen !== this.generation) return;
          delivered = true;
          this.onUpdate(u);
        },
        onEnd: (err) => {
          if (gen !== this.generation || err === null) return;
          this.ended(err, delivered);
        },
      });
      if (gen !== this.generation) return sub.close();
      this.sub = sub;
      this.stats.connects++;
      // Why a ping at once: its pong proves the stream is served (a refused stream opens, then fails), which is
      // what resets the backoff.
      sub.write({ ...this.request(), ping: { id: this.nextPing++ } });
      this.o.log?.('info', 'deshred stream open', { accounts: this.accounts.length });
    } catch (e) {
      if (gen === this.generation) this.ended(e as Error, false);
    }
  }

  private onUpdate(u: SubscribeUpdateDeshred): void {
    if (u.pong) {
      this.acks.get(u.pong.id)?.();
      return;
    }
    const d = u.deshredTransaction;
    const sig = d?.transaction?.signature;
    if (!d || !sig) return;
    this.stats.transactions++;
    this.o.onTransaction(bs58.encode(sig), Number(d.slot));
  }

  /** A stream (or an attempt to open one) failed: schedule the next attempt. */
  private ended(err: Error, delivered: boolean): void {
    this.generation++;
    this.sub = null;
    // Why drop the client too: the next attempt connects afresh (a connection that failed is not reused).
    this.client?.close();
    this.client = null;
    this.releaseAcks();
    if (this.closed) return;
    const status = grpcStatusOf(err);
    this.stats.errors++;
    this.stats.lastStatus = status;
    if (delivered) this.delay = this.firstMs;
    const wait = status !== undefined && LASTING.has(status) ? this.maxMs : this.delay;
    this.delay = Math.min(this.maxMs, this.delay * 2);
    this.stats.lastDelayMs = wait;
    this.o.log?.('warn', 'deshred stream ended; reconnecting', { status, error: err.message, delayMs: wait });
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.attempt();
    }, wait);
    this.timer.unref();
  }

  /** Waiters of a stream that is gone are let go (they must not wait for a pong that will not come). */
  private releaseAcks(): void {
    for (const done of [...this.acks.values()]) done();
  }
}
