/**
 * One Geyser Subscribe stream of ingest, the primary or an overflow stream: its own connection (a fresh transport per
 * connection), its request, reconnect with jittered exponential backoff and `from_slot`, and silence detection. What
 * a stream carries, where it resumes and what an ended stream owes are the runner's decisions (`StreamLinkHost`);
 * one stream ending never touches another.
 */
import type { GeyserSubscription, GeyserTransport } from '../chain/geyser-transport.js';
import type { SubscribeRequest, SubscribeUpdate } from '../chain/yellowstone.js';

/** How a stream's connection ended. */
export interface StreamEnd {
  readonly error: Error | null;
  /** The stream delivered something before it ended. */
  readonly gotMessages: boolean;
}

/** What a {@link StreamLink} asks of the runner. */
export interface StreamLinkHost {
  /** A fresh transport (one per connection). */
  connect(): Promise<GeyserTransport>;
  /** Called before each (re)connection (the primary checks the chain's genesis there). */
  beforeConnect(stream: number): Promise<void>;
  /** The stream's request as of now, resuming from `fromSlot` when given. */
  request(stream: number, fromSlot?: bigint): SubscribeRequest;
  /** The recovery generation now: a subscription records the one it was made under. */
  epoch(): number;
  onUpdate(stream: number, u: SubscribeUpdate): void;
  /** The stream is subscribed (its request accepted) over `transport`, resuming from `fromSlot`. */
  onSubscribed(stream: number, transport: string | undefined, fromSlot: bigint | undefined): void;
  /** The stream ended (not stopped): the host sets where it resumes; true resets the backoff. */
  onEnded(stream: number, end: StreamEnd, fromSlot: bigint | undefined): boolean;
  log(level: 'debug' | 'info' | 'warn' | 'error', msg: string, ctx?: Record<string, unknown>): void;
}

/** Backoff of a stream's reconnects. */
export interface StreamLinkBackoff {
  readonly initialMs: number;
  readonly maxMs: number;
}

/** Statistics of one stream. */
export interface StreamLinkStats {
  connects: number;
  reconnects: number;
  messages: number;
  /** Any message, pongs included (silence detection). */
  lastMessageAtMs: number;
  /** Account updates and slot statuses, and RPC reads of its accounts (freshness). */
  lastUpdateAtMs: number;
  connected: boolean;
  /** Encoded size of the last request this stream sent (bytes). */
  requestBytes: number;
  /** Accounts that request lists by address. */
  listedAccounts: number;
}

/** One Subscribe stream, reconnected until stopped. */
export class StreamLink {
  readonly stats: StreamLinkStats = { connects: 0, reconnects: 0, messages: 0, lastMessageAtMs: 0, lastUpdateAtMs: 0, connected: false, requestBytes: 0, listedAccounts: 0 };
  /** Where the next Subscribe resumes (`from_slot`); undefined: from the present. */
  resumeFrom: bigint | undefined;
  /** The recovery generation the live subscription was made under (-1: none yet). */
  subEpoch = -1;
  private sub: GeyserSubscription | null = null;
  private transport: GeyserTransport | null = null;
  private stopped = false;

  constructor(
    /** The stream's number: 0 the primary, then the overflow streams. */
    readonly stream: number,
    /** The slot it first subscribes from (`from_slot`; 0n: from the present). */
    readonly startSlot: bigint,
    /**
     * The processed slot its pools' data was as fresh as when it opened (read over RPC, or streamed on the primary
     * before they were placed here): a floor for its processed slot until it reports a newer one.
     */
    readonly freshAsOfSlot: bigint,
    private readonly host: StreamLinkHost,
    private readonly backoff: StreamLinkBackoff,
  ) {
    this.resumeFrom = startSlot > 0n ? startSlot : undefined;
  }

  /** True while subscribed. */
  get live(): boolean {
    return this.sub !== null;
  }

  /** Connects and keeps the stream up until {@link stop}. */
  start(): void {
    void this.loop();
  }

  /** Stops the stream for good. */
  stop(): void {
    this.stopped = true;
    this.sub?.close();
    this.transport?.close();
  }

  /** Drops the live subscription (a reconnect follows). */
  drop(): void {
    this.sub?.close();
  }

  /** Sends a request on the live subscription (a widened filter set, a ping); nothing when not subscribed. */
  write(req: SubscribeRequest): void {
    this.sub?.write(req);
  }

  /** Drops the stream when it has been silent longer than `silenceMs`. */
  checkSilence(silenceMs: number): void {
    if (this.sub && Date.now() - this.stats.lastMessageAtMs > silenceMs) {
      this.host.log('warn', 'geyser stream silent; dropping it', { stream: this.stream, silentMs: Date.now() - this.stats.lastMessageAtMs });
      this.sub.close();
    }
  }

  private async loop(): Promise<void> {
    let delay = this.backoff.initialMs;
    while (!this.stopped) {
      await this.host.beforeConnect(this.stream);
      if (this.stopped) return;
      const fromSlot = this.resumeFrom;
      const end = await this.runOnce(fromSlot);
      if (this.stopped) return;
      if (end.gotMessages) delay = this.backoff.initialMs;
      this.stats.reconnects++;
      if (this.host.onEnded(this.stream, end, fromSlot)) delay = this.backoff.initialMs;
      this.host.log('warn', 'geyser stream ended; reconnecting', { stream: this.stream, error: errorText(end.error).trim(), delayMs: delay });
      await sleep(delay * (0.8 + Math.random() * 0.4));
      delay = Math.min(delay * 2, this.backoff.maxMs);
    }
  }

  private async runOnce(fromSlot: bigint | undefined): Promise<StreamEnd> {
    let gotMessages = false;
    try {
      this.transport?.close();
      this.transport = await this.host.connect();
      if (this.stopped) return { error: null, gotMessages };
      const req = this.host.request(this.stream, fromSlot);
      const subscribedUnder = this.host.epoch();
      const error = await new Promise<Error | null>((resolve) => {
        this.transport!
          .subscribe(req, {
            onUpdate: (u) => {
              gotMessages = true;
              this.host.onUpdate(this.stream, u);
            },
            onEnd: (e) => resolve(e),
          })
          .then((sub) => {
            this.sub = sub;
            this.subEpoch = subscribedUnder;
            this.stats.connects++;
            this.stats.connected = true;
            this.stats.lastMessageAtMs = Date.now();
            this.host.onSubscribed(this.stream, this.transport?.name, fromSlot);
          })
          .catch((e: Error) => resolve(e));
      });
      return { error, gotMessages };
    } catch (e) {
      return { error: e as Error, gotMessages };
    } finally {
      this.sub = null;
      this.stats.connected = false;
    }
  }
}

/** The napi client puts the gRPC status only in `cause`; grpc-js in `message` (for logs only). */
function errorText(e: Error | null): string {
  if (!e) return '';
  const cause = (e as { cause?: { message?: string } }).cause;
  return `${e.message} ${cause?.message ?? ''}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
