/**
 * Many SSE price-stream clients on raw sockets, cheap enough that a thousand of them in the benchmark's process
 * measure the service, not the client: each records when its next optimistic and confirmed `price` frames arrive.
 */
import { connect, type Socket } from 'node:net';

/** One client's arrival times of the awaited frames (performance.now(); 0 = not yet). */
export interface FrameArrivals {
  optimisticAt: number;
  confirmedAt: number;
}

/** A connected client. */
interface Client {
  readonly socket: Socket;
  readonly arrivals: FrameArrivals;
  buf: string;
}

/** The clients of one run. */
export class SseClients {
  private readonly clients: Client[] = [];

  /** Opens `n` streams of `path` with `key`; resolves once every one received its response headers and `ready`. */
  static async open(port: number, key: string, path: string, n: number): Promise<SseClients> {
    const c = new SseClients();
    // Opened in groups: a thousand simultaneous connects would queue in the listen backlog.
    for (let i = 0; i < n; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, n - i) }, () => c.openOne(port, key, path)));
    }
    return c;
  }

  private openOne(port: number, key: string, path: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      socket.setNoDelay(true);
      const client: Client = { socket, arrivals: { optimisticAt: 0, confirmedAt: 0 }, buf: '' };
      let ready = false;
      socket.on('error', reject);
      socket.on('data', (d) => {
        const now = performance.now();
        client.buf += d.toString('latin1');
        if (!ready) {
          if (!client.buf.includes('event: ready')) return;
          if (!client.buf.startsWith('HTTP/1.1 200')) return reject(new Error(client.buf.slice(0, 200)));
          ready = true;
          client.buf = client.buf.slice(client.buf.indexOf('event: ready'));
          this.clients.push(client);
          resolve();
        }
        this.scan(client, now);
      });
      socket.write(`GET ${path} HTTP/1.1\r\nHost: bench\r\nx-api-key: ${key}\r\n\r\n`);
    });
  }

  /** Records the first optimistic and confirmed price frames in what `c` received. */
  private scan(c: Client, now: number): void {
    for (;;) {
      const end = c.buf.indexOf('\n\n');
      if (end < 0) return;
      const frame = c.buf.slice(0, end);
      c.buf = c.buf.slice(end + 2);
      if (!frame.includes('event: price')) continue;
      if (frame.includes('"confidence":"optimistic"')) {
        if (c.arrivals.optimisticAt === 0) c.arrivals.optimisticAt = now;
      } else if (c.arrivals.confirmedAt === 0) c.arrivals.confirmedAt = now;
    }
  }

  /** Forgets the arrivals recorded (before the next swap). */
  reset(): void {
    for (const c of this.clients) {
      c.arrivals.optimisticAt = 0;
      c.arrivals.confirmedAt = 0;
    }
  }

  /** True when every client has both frames. */
  allArrived(): boolean {
    return this.clients.every((c) => c.arrivals.optimisticAt > 0 && c.arrivals.confirmedAt > 0);
  }

  /** Every client's arrivals. */
  arrivals(): readonly FrameArrivals[] {
    return this.clients.map((c) => c.arrivals);
  }

  /** Closes every stream. */
  close(): void {
    for (const c of this.clients) c.socket.destroy();
  }
}
