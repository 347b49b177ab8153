/**
 * Support of `startup-scale.ts`: the localnet and the service as child processes on free ports, and what the
 * kernel says about a process's memory (`/proc/<pid>/status`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../engine/testing/free-port.js';

/** A child process with its output kept (the last lines, for errors). */
export interface Child {
  readonly proc: ChildProcess;
  readonly pid: number;
  /** Lines written so far on stdout and stderr (newest last, at most 2,000). */
  readonly lines: string[];
  /** Resolves with the exit code once the process ended. */
  readonly exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it ended. */
  stop(graceMs?: number): Promise<void>;
}

function spawnChild(cmd: string, args: readonly string[], env: Record<string, string>, cwd: string): Child {
  const proc = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const keep = (chunk: Buffer, rest: { s: string }) => {
    rest.s += chunk.toString('utf8');
    const parts = rest.s.split('\n');
    rest.s = parts.pop()!;
    for (const l of parts) {
      lines.push(l);
      if (lines.length > 2000) lines.shift();
    }
  };
  const out = { s: '' };
  const err = { s: '' };
  proc.stdout!.on('data', (c: Buffer) => keep(c, out));
  proc.stderr!.on('data', (c: Buffer) => keep(c, err));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return {
    proc,
    pid: proc.pid!,
    lines,
    exited,
    async stop(graceMs = 15_000) {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(t);
    },
  };
}

/** Waits until a line of the child's output matches, or fails when it exits or `timeoutMs` passes. */
export async function waitForLine(c: Child, re: RegExp, timeoutMs: number): Promise<string> {
  const until = Date.now() + timeoutMs;
  let exitedWith: number | null | undefined;
  void c.exited.then((code) => (exitedWith = code));
  for (;;) {
    const hit = c.lines.find((l) => re.test(l));
    if (hit !== undefined) return hit;
    if (exitedWith !== undefined) throw new Error(`process exited (${exitedWith}) before ${re}:\n${c.lines.slice(-20).join('\n')}`);
    if (Date.now() > until) throw new Error(`no ${re} within ${timeoutMs} ms:\n${c.lines.slice(-20).join('\n')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A running localnet child. */
export interface LocalnetChild extends Child {
  readonly rpcUrl: string;
  readonly grpcUrl: string;
  /** Seconds from spawn to `LOCALNET_READY`. */
  readonly buildSeconds: number;
}

/** Starts `dist/fixtures/localnet/main.js` of `root` with `cpmmPools` CPMM pools, no simulated traffic. */
export async function startLocalnetChild(root: string, cpmmPools: number, pumpswapPools = 0): Promise<LocalnetChild> {
  const ports = [await freePort(), await freePort(), await freePort(), await freePort()];
  const t0 = performance.now();
  const c = spawnChild(
    process.execPath,
    [
      '--max-old-space-size=16384',
      join(root, 'dist/fixtures/localnet/main.js'),
      '--rpc-port', String(ports[0]),
      '--grpc-port', String(ports[1]),
      '--block-engine-port', String(ports[2]),
      '--metadata-port', String(ports[3]),
      '--tps', '0',
      '--pools', String(cpmmPools),
      ...(pumpswapPools > 0 ? ['--pumpswap-pools', String(pumpswapPools)] : []),
    ],
    {},
    root,
  );
  const line = await waitForLine(c, /^LOCALNET_READY /, 30 * 60_000);
  const ready = JSON.parse(line.slice('LOCALNET_READY '.length)) as { rpcUrl: string; grpcUrl: string };
  return { ...c, rpcUrl: ready.rpcUrl, grpcUrl: ready.grpcUrl, buildSeconds: (performance.now() - t0) / 1000 };
}

/** A running service child. */
export interface ServiceChild extends Child {
  readonly base: string;
  readonly startedAt: number;
}

/** Starts `dist/http/main.js` of `root` against a localnet, with `env` added (store selection). */
export async function startServiceChild(root: string, net: { rpcUrl: string; grpcUrl: string }, dataDir: string, env: Record<string, string>): Promise<ServiceChild> {
  const port = await freePort();
  const adminPort = await freePort();
  const startedAt = performance.now();
  const c = spawnChild(
    process.execPath,
    [join(root, 'dist/http/main.js')],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_PORT: String(adminPort),
      DATA_DIR: dataDir,
      RPC_URL: net.rpcUrl,
      GEYSER_ENDPOINT: net.grpcUrl,
      LOG_LEVEL: 'info',
      ...env,
    },
    root,
  );
  return { ...c, base: `http://127.0.0.1:${port}`, startedAt };
}

/** Polls `/health` every 50 ms until it answers 200; returns ms since the service was spawned. */
export async function waitHealthy(s: ServiceChild, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs;
  let exited: number | null | undefined;
  void s.exited.then((code) => (exited = code));
  for (;;) {
    if (exited !== undefined) throw new Error(`service exited (${exited}):\n${s.lines.slice(-20).join('\n')}`);
    try {
      const r = await fetch(`${s.base}/health`, { signal: AbortSignal.timeout(2000) });
      await r.arrayBuffer();
      if (r.status === 200) return performance.now() - s.startedAt;
    } catch {
      // Not listening yet, or busy.
    }
    if (Date.now() > until) throw new Error(`service not healthy within ${timeoutMs} ms:\n${s.lines.slice(-20).join('\n')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Resident memory now and its peak (`VmRSS`, `VmHWM`), in bytes. */
export function processMemory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}
