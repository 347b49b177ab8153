/**
 * A Geyser stream whose filter is a changing set of accounts, kept open: what the deshred watch (SubscribeDeshred,
 * the landed signal) and the transaction stage watch (Subscribe: transactions and slot statuses) share. Each
 * builds its own request from the accounts and reads its own updates; this part writes filters, acknowledges them
 * and reconnects.
 *
 * - A new account set is written on the open stream (Yellowstone replaces the filters with each request), then a
 *   ping (carrying the same filter, so it holds whether a ping keeps or replaces the filters): its pong comes back
 *   after the server applied the filter (requests are handled in order), which is when `setAccounts` resolves, or
 *   after `ackTimeoutMs`, or at once while no stream is open (a caller may wait on it before submitting, never for
 *   long).
 * - The stream is reopened after it ends, with backoff (250 ms doubling to 10 s, back to the first after a stream
 *   that delivered anything); a refusal that will not pass by retrying soon (gRPC UNIMPLEMENTED: the server lacks
 *   the call; UNAUTHENTICATED, PERMISSION_DENIED: the x-token) waits the longest delay. Decisions read the gRPC
 *   status code, never the message. Each attempt connects a fresh client.
 */
import { GrpcStatus, grpcStatusOf } from './grpc-status.js';

/** Callbacks of one stream. */
export interface StreamHandlers<Upd> {
  onUpdate(update: Upd): void;
  /** Called once when the stream ends for any reason (null error: closed by us). */
  onEnd(error: Error | null): void;
}

/** One live stream. */
export interface StreamSubscription<Req> {
  /** Sends a request: replaces the filters, or pings. */
  write(request: Req): void;
  /** Closes the stream; `onEnd(null)` follows. */
  close(): void;
}

/** A connection able to open the stream (`DeshredClient` and `GeyserTransport` have this shape). */
export interface StreamClient<Req, Upd> {
  subscribe(request: Req, handlers: StreamHandlers<Upd>): Promise<StreamSubscription<Req>>;
  /** Releases the connection (open streams are cancelled). */
  close(): void;
}

/** A request that can carry a ping (both Yellowstone requests can). */
export interface Pingable {
  ping?: { id: number } | undefined;
}

/** An update that can be a pong (both Yellowstone updates can). */
export interface Pongable {
  pong?: { id: number } | undefined;
}

/** Log levels and shape shared by the watches. */
export type WatchLog = (level: 'debug' | 'info' | 'warn', msg: string, ctx?: Record<string, unknown>) => void;

/** Options of a filtered stream. */
export interface FilteredStreamOptions<Req extends Pingable, Upd extends Pongable> {
  /** Its name in the logs (`deshred`, `tx stages`). */
  readonly name: string;
  /** Connects a fresh client (each attempt). */
  readonly connect: () => Promise<StreamClient<Req, Upd>>;
  /** The request whose filter is `accounts` (without a ping). */
  readonly request: (accounts: readonly string[]) => Req;
  /** Every update that is not a pong, from the open stream. */
  readonly onUpdate: (update: Upd) => void;
  /** A stream opened (its filter written). */
  readonly onOpen?: () => void;
  /** The open stream ended (updates may have been missed until the next `onOpen`). */
  readonly onLost?: () => void;
  readonly firstBackoffMs?: number;
  readonly maxBackoffMs?: number;
  /** Longest wait of `setAccounts` for the server's acknowledgement. Default 500. */
  readonly ackTimeoutMs?: number;
  readonly log?: WatchLog;
}

/** Refusals that retrying soon will not fix. */
const LASTING: ReadonlySet<number> = new Set([GrpcStatus.UNIMPLEMENTED, GrpcStatus.UNAUTHENTICATED, GrpcStatus.PERMISSION_DENIED]);

/** The stream (not started until `start`). */
export class FilteredStream<Req extends Pingable, Upd extends Pongable> {
  private accounts: readonly string[] = [];
  private client: StreamClient<Req, Upd> | null = null;
  private sub: StreamSubscription<Req> | null = null;
  /** Bumped per attempt: callbacks of an older stream are ignored. */
  private generation = 0;
  private readonly acks = new Map<number, () => void>();
  private nextPing = 1;
  private delay: number;
  private timer: NodeJS.Timeout | null = null;
  private closed = true;
  private readonly firstMs: number;
  private readonly maxMs: number;
  /** Streams opened, streams ended by an error, the last error's status and the wait it chose, updates delivered. */
  readonly stats = { connects: 0, errors: 0, lastStatus: undefined as number | undefined, lastDelayMs: 0, updates: 0 };

  constructor(private readonly o: FilteredStreamOptions<Req, Upd>) {
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
    this.sub?.write(this.o.request(this.accounts));
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
      sub.write(this.pinged(id));
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

  /** The current filter with a ping. Why the filter again: whether a ping keeps the filters or replaces them, the stream keeps this one. */
  private pinged(id: number): Req {
    return { ...this.o.request(this.accounts), ping: { id } };
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
      const sub = await client.subscribe(this.o.request(this.accounts), {
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
      sub.write(this.pinged(this.nextPing++));
      this.o.log?.('info', `${this.o.name} stream open`, { accounts: this.accounts.length });
      this.o.onOpen?.();
    } catch (e) {
      if (gen === this.generation) this.ended(e as Error, false);
    }
  }

  private onUpdate(u: Upd): void {
    if (u.pong) {
      this.acks.get(u.pong.id)?.();
      return;
    }
    this.stats.updates++;
    this.o.onUpdate(u);
  }

  /** A stream (or an attempt to open one) failed: schedule the next attempt. */
  private ended(err: Error, delivered: boolean): void {
    this.generation++;
    const wasOpen = this.sub !== null;
    this.sub = null;
    // Why drop the client too: the next attempt connects afresh (a connection that failed is not reused).
    this.client?.close();
    this.client = null;
    this.releaseAcks();
    if (wasOpen) this.o.onLost?.();
    if (this.closed) return;
    const status = grpcStatusOf(err);
    this.stats.errors++;
    this.stats.lastStatus = status;
    if (delivered) this.delay = this.firstMs;
    const wait = status !== undefined && LASTING.has(status) ? this.maxMs : this.delay;
    this.delay = Math.min(this.maxMs, this.delay * 2);
    this.stats.lastDelayMs = wait;
    this.o.log?.('warn', `${this.o.name} stream ended; reconnecting`, { status, error: err.message, delayMs: wait });
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

/**
 * What every watch over one {@link FilteredStream} exposes: the stream's state and its filter's life cycle, delegated.
 * A watch subclass builds its stream in its constructor and adds what its updates mean.
 */
export abstract class FilteredWatch<Req extends Pingable, Upd extends Pongable> {
  protected abstract readonly stream: FilteredStream<Req, Upd>;

  /** True while a stream is open. */
  get open(): boolean {
    return this.stream.open;
  }

  /** The accounts of the current filter. */
  get watched(): readonly string[] {
    return this.stream.watched;
  }

  /** Opens the stream (and keeps reopening it until `close`). */
  start(): void {
    this.stream.start();
  }

  /** Replaces the watched accounts; resolves once the server applied them (bounded). Never rejects. */
  setAccounts(accounts: Iterable<string>): Promise<void> {
    return this.stream.setAccounts(accounts);
  }

  /** Resolves once the server handled every request written before (bounded). Never rejects. */
  sync(): Promise<void> {
    return this.stream.sync();
  }

  /** Stops for good. */
  close(): void {
    this.stream.close();
  }
}
