/**
 * The SSE clients of the frame-latency bench timed by the kernel: `sse-stamp.c`, compiled here with the system C
 * compiler, holds the N streams in its own process and reports each `price` frame's socket arrival time
 * (SO_TIMESTAMPNS, moved to CLOCK_MONOTONIC). Arrivals are given on this process's `performance.now()` clock, like
 * {@link SseClients}, so the bench compares them with its Yellowstone client's arrivals directly.
 */
import { execFileSync, spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { monoNsToNow } from './mono-clock.js';
import type { FrameArrivals } from './sse-clients.js';

/** The C source, beside this file's TypeScript source (dist/ holds no .c files). */
const SOURCE = fileURLToPath(new URL('../../../bench/frame-latency/sse-stamp.c', import.meta.url));

/** Compiles the client once per process; throws when no C compiler is there. */
function compile(): string {
  const out = join(mkdtempSync(join(tmpdir(), 'sse-stamp-')), 'sse-stamp');
  execFileSync(process.env.CC ?? 'cc', ['-O2', '-o', out, SOURCE], { stdio: 'inherit' });
  return out;
}

/** N kernel-timed SSE clients in one child process. */
export class KernelStampedClients {
  private readonly arrivalsOf: FrameArrivals[];

  private constructor(
    private readonly child: ChildProcessByStdio<Writable, Readable, null>,
    n: number,
  ) {
    this.arrivalsOf = Array.from({ length: n }, () => ({ optimisticAt: 0, confirmedAt: 0 }));
  }

  /** Opens `n` streams of `path` with `key`; resolves once every one received its `ready` frame. */
  static async open(port: number, key: string, path: string, n: number): Promise<KernelStampedClients> {
    const child = spawn(compile(), [String(port), String(n), key, path], { stdio: ['pipe', 'pipe', 'inherit'] });
    const c = new KernelStampedClients(child, n);
    const lines = createInterface({ input: child.stdout });
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`sse-stamp exited ${code}`)));
      lines.on('line', (line) => {
        if (line === 'ready') return resolve();
        const [i, kind, monoNs] = line.split(' ');
        const a = c.arrivalsOf[Number(i)];
        if (!a) return;
        const at = monoNsToNow(monoNs!);
        if (kind === 'o') {
          if (a.optimisticAt === 0) a.optimisticAt = at;
        } else if (a.confirmedAt === 0) a.confirmedAt = at;
      });
    });
    return c;
  }

  /** Forgets the arrivals recorded (before the next swap). */
  reset(): void {
    for (const a of this.arrivalsOf) {
      a.optimisticAt = 0;
      a.confirmedAt = 0;
    }
  }

  /** True when every client has both frames. */
  allArrived(): boolean {
    return this.arrivalsOf.every((a) => a.optimisticAt > 0 && a.confirmedAt > 0);
  }

  /** Every client's arrivals. */
  arrivals(): readonly FrameArrivals[] {
    return this.arrivalsOf;
  }

  /** Closes every stream (the child exits when its stdin closes). */
  close(): void {
    this.child.removeAllListeners('exit');
    this.child.stdin.end();
  }
}
