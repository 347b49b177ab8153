/**
 * Sends exact bytes on a raw TCP socket and records what comes back and when the server closes, so tests can
 * speak malformed HTTP (NUL bytes, bad versions, split header blocks) that no HTTP client would send.
 */
import { connect } from 'node:net';

/** What a raw exchange saw. */
export interface RawExchange {
  /** Every byte received, as latin1 text. */
  readonly text: string;
  /** Status of the first response, or null when nothing that looks like a status line arrived. */
  readonly status: number | null;
  /** Ms from connect to the first byte received, or null. */
  readonly firstByteMs: number | null;
  /** Ms from connect to the server's FIN or reset, or null when the socket was still open at `waitMs`. */
  readonly closedMs: number | null;
}

/** Options of {@link rawExchange}. */
export interface RawExchangeOptions {
  /** How long to wait for the server to close before giving up (the socket is then destroyed). Default 2000. */
  readonly waitMs?: number;
  /** Pause between the parts of a request sent in several writes. Default 60 ms (long enough for separate reads). */
  readonly gapMs?: number;
  /** Stop waiting as soon as this returns true for the bytes so far (the socket stays counted as open). */
  readonly until?: (text: string) => boolean;
}

/**
 * Connects to `port` on loopback, writes each part of `parts` (one write each, `gapMs` apart), and resolves
 * when the server closes, when `until` is satisfied, or after `waitMs`.
 */
export function rawExchange(port: number, parts: string | readonly string[], opts: RawExchangeOptions = {}): Promise<RawExchange> {
  const list = typeof parts === 'string' ? [parts] : parts;
  const waitMs = opts.waitMs ?? 2000;
  const gapMs = opts.gapMs ?? 60;
  return new Promise((resolve) => {
    const t0 = Date.now();
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let firstByteMs: number | null = null;
    let settled = false;
    const finish = (closedMs: number | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({ text, status: m ? Number(m[1]) : null, firstByteMs, closedMs });
    };
    const timer = setTimeout(() => finish(null), waitMs);
    socket.on('data', (d) => {
      firstByteMs ??= Date.now() - t0;
      chunks.push(d);
      if (opts.until?.(Buffer.concat(chunks).toString('latin1'))) finish(null);
    });
    const closed = (): void => finish(Date.now() - t0);
    socket.on('end', closed);
    socket.on('close', closed);
    // A reset counts as a close: the server ended the connection.
    socket.on('error', closed);
    socket.on('connect', () => {
      void (async () => {
        for (let i = 0; i < list.length; i++) {
          if (i > 0) await new Promise((r) => setTimeout(r, gapMs));
          if (settled) return;
          socket.write(Buffer.from(list[i]!, 'latin1'));
        }
      })();
    });
  });
}
