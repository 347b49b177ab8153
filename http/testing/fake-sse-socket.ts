/**
 * A fake uWS response for SSE hub unit tests: records status, headers and writes, returns a scripted
 * `write()` result, and lets the test fire `onWritable`.
 */
import type { SseSocket } from '../sse.js';

/** Recording fake of the uWS response surface the hub uses. */
export class FakeSseSocket {
  status = '';
  readonly headers: [string, string][] = [];
  readonly writes: string[] = [];
  ended = false;
  /** What write() returns next (false = backpressure). */
  writable = true;
  corkDepth = 0;
  uncorkedWrites = 0;
  private writableHandler: ((offset: number) => boolean) | null = null;

  /** This fake as the hub's socket type. */
  get socket(): SseSocket {
    return this as unknown as SseSocket;
  }

  writeStatus(s: string): this {
    this.status = s;
    return this;
  }
  writeHeader(k: string, v: string): this {
    this.headers.push([k, v]);
    return this;
  }
  write(chunk: string): boolean {
    if (this.corkDepth === 0) this.uncorkedWrites++;
    this.writes.push(chunk);
    return this.writable;
  }
  end(): this {
    this.ended = true;
    return this;
  }
  cork(cb: () => void): this {
    this.corkDepth++;
    try {
      cb();
    } finally {
      this.corkDepth--;
    }
    return this;
  }
  onWritable(h: (offset: number) => boolean): this {
    this.writableHandler = h;
    return this;
  }
  /** Simulates the socket draining; returns the handler's answer. */
  drain(): boolean {
    this.writable = true;
    this.corkDepth++; // uWS corks before calling onWritable
    try {
      return this.writableHandler!(0);
    } finally {
      this.corkDepth--;
    }
  }
}
