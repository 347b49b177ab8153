/**
 * A minimal SSE client for integration tests over Node's global fetch (no `eventsource` dependency): parses
 * `event:`/`data:` frames from the body stream and hands them out in order.
 */

/** One parsed event. */
export interface SseEvent {
  event: string;
  data: unknown;
}

/** An open test stream. */
export interface SseReader {
  readonly status: number;
  readonly headers: Headers;
  /** The next event (optionally skipping heartbeats); rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseEvent>;
  /** Events received so far and not yet taken. */
  readonly buffered: SseEvent[];
  /** Resolves true when no event other than heartbeat arrives within `ms`. */
  quietFor(ms: number): Promise<boolean>;
  /** Aborts the connection. */
  close(): void;
  /** The body text of a non-SSE answer. */
  text(): Promise<string>;
}

/** Options of {@link openSse}. */
export interface OpenSseOptions {
  /** Keep `heartbeat` events (default: skipped). */
  readonly heartbeats?: boolean;
}

/** Opens `url` and parses it as an event stream (heartbeats are skipped unless asked for). */
export async function openSse(url: string, headers: Record<string, string> = {}, opts: OpenSseOptions = {}): Promise<SseReader> {
  const ac = new AbortController();
  const res = await fetch(url, { headers, signal: ac.signal });
  const buffered: SseEvent[] = [];
  const waiters: (() => void)[] = [];
  let ended = false;
  const isSse = res.headers.get('content-type') === 'text/event-stream';

  const pump = async (): Promise<void> => {
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    let buf = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += dec.decode(value, { stream: true });
        let idx;
        while ((idx = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, idx);
          buf = buf.slice(idx + 2);
          let event = 'message';
          let data: string | null = null;
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data = data === null ? line.slice(6) : `${data}\n${line.slice(6)}`;
          }
          if (data === null || (event === 'heartbeat' && opts.heartbeats !== true)) continue;
          buffered.push({ event, data: JSON.parse(data) as unknown });
          waiters.splice(0).forEach((w) => w());
        }
      }
    } catch {
      // aborted
    } finally {
      ended = true;
      waiters.splice(0).forEach((w) => w());
    }
  };
  if (isSse) void pump();

  const next = async (timeoutMs = 2000): Promise<SseEvent> => {
    const deadline = Date.now() + timeoutMs;
    while (buffered.length === 0) {
      if (ended) throw new Error('stream ended');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for an SSE event');
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
    return buffered.shift()!;
  };

  return {
    status: res.status,
    headers: res.headers,
    next,
    buffered,
    quietFor: async (ms) => {
      await new Promise((r) => setTimeout(r, ms));
      return buffered.length === 0;
    },
    close: () => ac.abort(),
    text: () => res.text(),
  };
}
