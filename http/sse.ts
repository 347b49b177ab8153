/**
 * The SSE hub: opens event streams on uWS responses, writes frames with per-tick coalescing (one corked write
 * per client per event-loop turn), respects backpressure (while a client is blocked only the latest frame per
 * key is kept, bounded), sends heartbeats, and forgets clients cleanly on abort.
 */
import type { HttpResponse } from 'uWebSockets.js';
import { log } from './log.js';

/** The part of uWS's HttpResponse the hub uses (a fake implements it in unit tests). */
export type SseSocket = Pick<HttpResponse, 'writeStatus' | 'writeHeader' | 'write' | 'end' | 'cork' | 'onWritable'>;

/** Serializes one SSE frame: `event: <name>\ndata: <json>\n\n`. Data is always JSON (spec). */
export function sseFrame(event: string, data: unknown): string {
  // JSON.stringify never emits raw newlines, so one `data:` line is always enough.
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Reconnection delay suggested to EventSource clients, sent once with the first frame. */
export const SSE_RETRY_MS = 3000;

/** One connected stream client. Fields are the hub's; callers only hold and pass it. */
export interface SseClient {
  readonly id: number;
  /** True once the client is gone (aborted or ended); nothing is written after. */
  readonly closed: boolean;
  /** True while uWS reported backpressure and `onWritable` has not drained it. */
  readonly backpressured: boolean;
  /** Frames waiting for the next flush, latest per key. */
  readonly pendingCount: number;
}

interface ClientState extends SseClient {
  readonly res: SseSocket;
  closed: boolean;
  backpressured: boolean;
  /** Latest frame per key (insertion order kept, a re-queued key moves to the end). */
  readonly pending: Map<string, string>;
  readonly closeHooks: (() => void)[];
  readonly pendingCount: number;
}

/** Hub options. */
export interface SseHubOptions {
  /** Heartbeat period; 15 s per the spec. 0 disables. */
  heartbeatMs?: number;
  /** Most distinct pending keys per blocked client before it is dropped as a slow consumer. */
  maxPendingKeys?: number;
  /** Clock for heartbeat payloads. */
  now?: () => number;
}

/** Default per-client bound of pending keys (50 subscribed mints x 2 confidences, or every tracked token). */
export const DEFAULT_MAX_PENDING_KEYS = 4096;

/** Fan-out of serialized frames to many SSE clients. */
export class SseHub {
  private readonly clients = new Set<ClientState>();
  private readonly dirty = new Set<ClientState>();
  private flushScheduled = false;
  private nextId = 1;
  private readonly maxPendingKeys: number;
  private readonly now: () => number;
  private readonly heartbeat: NodeJS.Timeout | null;
  /** Counters for tests and metrics. */
  readonly stats = { framesQueued: 0, writes: 0, backpressureEvents: 0, conflated: 0, slowDropped: 0 };

  constructor(opts: SseHubOptions = {}) {
    this.maxPendingKeys = opts.maxPendingKeys ?? DEFAULT_MAX_PENDING_KEYS;
    this.now = opts.now ?? Date.now;
    const hb = opts.heartbeatMs ?? 15_000;
    this.heartbeat = hb > 0 ? setInterval(() => this.sendHeartbeat(), hb) : null;
    // The listen socket keeps the process alive, not the heartbeat timer.
    this.heartbeat?.unref();
  }

  /** Number of connected clients. */
  get size(): number {
    return this.clients.size;
  }

  /**
   * Opens a stream on `res`: status, SSE headers, then `firstFrame`. Must be called inside a corked callback
   * (or the request handler itself). The caller routes `onAborted` to {@link remove}.
   */
  open(res: SseSocket, firstFrame: string, headers: Readonly<Record<string, string>> = {}): SseClient {
    const c: ClientState = {
      id: this.nextId++,
      res,
      closed: false,
      backpressured: false,
      pending: new Map(),
      closeHooks: [],
      get pendingCount() {
        return this.pending.size;
      },
    };
    res
      .writeStatus('200 OK')
      .writeHeader('content-type', 'text/event-stream')
      .writeHeader('cache-control', 'no-cache')
      // Why: tells nginx-style proxies not to buffer the stream.
      .writeHeader('x-accel-buffering', 'no');
    for (const k in headers) res.writeHeader(k, headers[k]!);
    // Why: the first write() (not end()) switches uWS to chunked transfer encoding and sends the headers now.
    const ok = res.write(`retry: ${SSE_RETRY_MS}\n${firstFrame}`);
    this.stats.writes++;
    if (!ok) this.markBackpressured(c);
    // Why: write() returning false means "stop producing"; uWS calls onWritable when the socket drains.
    // Returning false from it keeps it armed (backpressure came back).
    res.onWritable(() => this.drain(c));
    this.clients.add(c);
    return c;
  }

  /** Registers a hook run once when the client goes away (abort or end). */
  onClose(client: SseClient, hook: () => void): void {
    const c = client as ClientState;
    if (c.closed) hook();
    else c.closeHooks.push(hook);
  }

  /**
   * Queues a serialized frame for `client` under `key`. Frames of one event-loop turn go out in one write; while
   * the client is backpressured only the latest frame per key is kept.
   */
  send(client: SseClient, key: string, frame: string): void {
    const c = client as ClientState;
    if (c.closed) return;
    if (c.pending.has(key)) {
      c.pending.delete(key);
      this.stats.conflated++;
    } else if (c.pending.size >= this.maxPendingKeys) {
      this.stats.slowDropped++;
      log.warn('sse client dropped: too many pending frames', { client: c.id, pending: c.pending.size });
      this.end(c);
      return;
    }
    c.pending.set(key, frame);
    this.stats.framesQueued++;
    if (!c.backpressured) {
      this.dirty.add(c);
      this.scheduleFlush();
    }
  }

  /** Queues one serialized frame for many clients (serialize once, write to many). */
  sendMany(clients: Iterable<SseClient>, key: string, frame: string): void {
    for (const c of clients) this.send(c, key, frame);
  }

  /** Forgets a client whose connection aborted. Never touches the response (uWS forbids it after abort). */
  remove(client: SseClient): void {
    const c = client as ClientState;
    if (c.closed) return;
    c.closed = true;
    c.pending.clear();
    this.clients.delete(c);
    this.dirty.delete(c);
    for (const h of c.closeHooks.splice(0)) {
      try {
        h();
      } catch (e) {
        log.error('sse close hook failed', { err: e });
      }
    }
  }

  /** Ends a client's stream from the server side, then forgets it. */
  end(client: SseClient): void {
    const c = client as ClientState;
    if (c.closed) return;
    try {
      // Why: a write outside the request handler must be corked.
      c.res.cork(() => c.res.end());
    } catch (e) {
      log.debug('sse end on a closed socket', { err: e });
    }
    this.remove(c);
  }

  /** Ends every stream (graceful shutdown) and stops the heartbeat. */
  close(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const c of [...this.clients]) this.end(c);
  }

  /** Sends one heartbeat frame (`{ ts }`) to every client; normally driven by the timer. */
  sendHeartbeat(): void {
    if (this.clients.size === 0) return;
    this.sendMany(this.clients, 'heartbeat', sseFrame('heartbeat', { ts: this.now() }));
  }

  /** Writes every dirty client's pending frames now (normally scheduled once per event-loop turn). */
  flush(): void {
    this.flushScheduled = false;
    for (const c of this.dirty) {
      if (c.closed || c.backpressured || c.pending.size === 0) continue;
      const text = this.takePending(c);
      let ok = true;
      // Why: writes outside the request handler must be corked: one syscall for the batch, no uWS warning.
      c.res.cork(() => {
        ok = c.res.write(text);
      });
      this.stats.writes++;
      if (!ok) this.markBackpressured(c);
    }
    this.dirty.clear();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // setImmediate runs after this turn's I/O callbacks: every frame produced in the turn shares one write.
    setImmediate(() => this.flush());
  }

  private takePending(c: ClientState): string {
    let text: string;
    if (c.pending.size === 1) text = c.pending.values().next().value!;
    else text = [...c.pending.values()].join('');
    c.pending.clear();
    return text;
  }

  private markBackpressured(c: ClientState): void {
    // Why: write() always buffers the chunk; false only means "stop producing until onWritable".
    c.backpressured = true;
    this.stats.backpressureEvents++;
  }

  /** onWritable handler: uWS has already corked the socket here. */
  private drain(c: ClientState): boolean {
    if (c.closed) return true;
    if (c.pending.size === 0) {
      c.backpressured = false;
      return true;
    }
    const ok = c.res.write(this.takePending(c));
    this.stats.writes++;
    c.backpressured = !ok;
    if (!ok) this.stats.backpressureEvents++;
    return ok;
  }
}
