/** Runs a compiled helper script in a child Node process and watches its stdout line by line. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A running child: its lines so far, and a promise of its exit. */
export interface Child {
  readonly proc: ChildProcess;
  readonly lines: string[];
  readonly stderr: string[];
  /** Resolves when `n` lines (starting with `prefix`, when given) have been printed; rejects if the child exits first. */
  waitForLines(n: number, prefix?: string): Promise<void>;
  /** Resolves with the exit code (or signal name) when the child ends. */
  readonly exited: Promise<number | string>;
}

/** Starts `node <script> ...args`. */
export function runChild(script: URL, args: readonly string[]): Child {
  const proc = spawn(process.execPath, [script.pathname, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const stderr: string[] = [];
  const waiters: { n: number; prefix: string; resolve: () => void; reject: (e: Error) => void }[] = [];
  const count = (prefix: string): number => (prefix === '' ? lines.length : lines.filter((l) => l.startsWith(prefix)).length);
  let done = false;
  const exited = new Promise<number | string>((resolve) => {
    proc.on('exit', (code, signal) => {
      done = true;
      for (const w of waiters.splice(0)) w.reject(new Error(`child exited (${code ?? signal}) after ${lines.length} lines: ${stderr.join('')}`));
      resolve(code ?? signal ?? -1);
    });
  });
  createInterface({ input: proc.stdout! }).on('line', (l) => {
    lines.push(l);
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (count(waiters[i]!.prefix) >= waiters[i]!.n) waiters.splice(i, 1)[0]!.resolve();
    }
  });
  proc.stderr!.on('data', (d: Buffer) => stderr.push(d.toString()));
  return {
    proc,
    lines,
    stderr,
    exited,
    waitForLines: (n, prefix = '') =>
      new Promise<void>((resolve, reject) => {
        if (count(prefix) >= n) return resolve();
        if (done) return reject(new Error(`child already exited after ${lines.length} lines: ${stderr.join('')}`));
        waiters.push({ n, prefix, resolve, reject });
      }),
  };
}
