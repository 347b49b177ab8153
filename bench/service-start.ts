/**
 * Starts a built service (`<root>/dist/http/main.js`) in its own process against a running localnet, as
 * `scripts/run.sh` does, and measures the start: ms from spawn to the first `/health` 200 (and the CPU time it used
 * until then), VmRSS at that moment
 * and after a settle period (key polls, usage flushes and ingest running), and VmHWM. Stops it with SIGTERM.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../engine/testing/free-port.js';
import { procCpuMs } from './proc-cpu.js';
import { procMemory } from './proc-memory.js';

/** How to start one service. */
export interface ServiceStart {
  /** Project folder whose `dist/http/main.js` runs. */
  readonly root: string;
  /** Added to the service's environment (DATA_DIR, DATABASE_URL, ...). */
  readonly env: Record<string, string>;
  readonly rpcUrl: string;
  readonly grpcUrl: string;
  /** Measure VmRSS again this long after healthy (ms). */
  readonly settleMs: number;
  /** Give up when not healthy within this (ms). */
  readonly timeoutMs?: number;
}

/** One start's figures (ms, MiB). */
export interface ServiceStartReport {
  readonly healthyMs: number;
  /** CPU time (user + system, all threads) the service used until healthy. */
  readonly cpuToHealthyMs: number;
  readonly rssHealthyMb: number;
  readonly rssSettledMb: number;
  readonly hwmMb: number;
}

async function healthy(url: string): Promise<boolean> {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await r.arrayBuffer();
    return r.status === 200;
  } catch {
    return false;
  }
}

/** Starts, measures and stops one service. */
export async function measureServiceStart(s: ServiceStart): Promise<ServiceStartReport> {
  const port = await freePort();
  const t0 = performance.now();
  const proc = spawn(process.execPath, [join(s.root, 'dist/http/main.js')], {
    cwd: s.root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_PORT: '0',
      RPC_URL: s.rpcUrl,
      GEYSER_ENDPOINT: s.grpcUrl,
      LOG_LEVEL: 'warn',
      SVC_DEMO_KEY: 'demo-key-change-me',
      ...s.env,
    },
  });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  let exited = false;
  const exit = once(proc, 'exit').then(() => (exited = true));
  try {
    const deadline = t0 + (s.timeoutMs ?? 120_000);
    while (!(await healthy(`http://127.0.0.1:${port}/health`))) {
      if (exited) throw new Error(`service exited before healthy: ${stderr}`);
      if (performance.now() > deadline) throw new Error(`service not healthy within ${s.timeoutMs ?? 120_000} ms: ${stderr}`);
      await sleep(20);
    }
    const healthyMs = performance.now() - t0;
    const cpuToHealthyMs = procCpuMs(proc.pid!)!;
    const atHealthy = procMemory(proc.pid!)!;
    await sleep(s.settleMs);
    const settled = procMemory(proc.pid!)!;
    return { healthyMs, cpuToHealthyMs, rssHealthyMb: atHealthy.rssMb, rssSettledMb: settled.rssMb, hwmMb: settled.hwmMb };
  } finally {
    if (!exited) {
      proc.kill('SIGTERM');
      const killer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await exit;
      clearTimeout(killer);
    }
  }
}
