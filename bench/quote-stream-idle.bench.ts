/**
 * CPU of idle quote streams (issue 13's acceptance: under 1% of a core per 1,000): the service in its own process
 * over the localnet with the simulator paused (no pool moves, so every stream is idle after its first frame);
 * its CPU time (/proc, all threads) over a window with no stream open, then with 1,000 `GET /v1/quote/stream`
 * connections at `tickHz` 5 (the most ticks the spec allows) and again at the default 2, spread over several pairs.
 * Each window's CPU is beside the no-stream baseline of the same run; the bench also counts `quote` frames after
 * the first of each stream (an idle stream must send none).
 * Run: `npx tsc -p tsconfig.json && flock /tmp/bench.lock node dist/bench/quote-stream-idle.bench.js [--streams 1000]
 * [--window-s 20]`. Results: bench/README.md.
 */
import { fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startLocalnet } from '../fixtures/localnet/start-localnet.js';
import { onePoolQuoteCost, onePoolSink } from './one-pool-cost.js';
import { procCpuMs } from './proc-cpu.js';
import { machineLine } from './quote-report.js';

const { values: args } = parseArgs({ options: { streams: { type: 'string', default: '1000' }, 'window-s': { type: 'string', default: '20' }, pair: { type: 'string' } } });
const STREAMS = Number(args.streams);
const WINDOW_MS = Number(args['window-s']) * 1000;

const net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0 });
const child = fork(new URL('./frame-latency/service-process.js', import.meta.url), [], {
  env: {
    ...process.env, PORT: '0', HOST: '127.0.0.1', ADMIN_PORT: '0', DATA_DIR: mkdtempSync(join(tmpdir(), 'qs-idle-')),
    RPC_URL: net.rpcUrl, GEYSER_ENDPOINT: net.grpcUrl, LOG_LEVEL: 'warn',
  },
});
const { port, key } = await new Promise<{ port: number; key: string }>((resolve, reject) => {
  child.once('message', (m) => resolve(m as { port: number; key: string }));
  child.once('exit', (code) => reject(new Error(`service exited ${code}`)));
});
const pid = child.pid!;

const ALL_PAIRS = ['inputMint=SOL&outputMint=USDC&amount=1000000000', 'inputMint=USDC&outputMint=SOL&amount=100000000', 'inputMint=WIF&outputMint=USDC&amount=1000000000', 'inputMint=SOL&outputMint=WIF&amount=500000000'];
// --pair i: only that pair (which requests watch pools that move while the market is idle).
const PAIRS = args.pair === undefined ? ALL_PAIRS : [ALL_PAIRS[Number(args.pair)]!];
for (const q of PAIRS) {
  const r = await fetch(`http://127.0.0.1:${port}/v1/quote?${q}`, { headers: { 'x-api-key': key } });
  if (r.status !== 200) throw new Error(`${q}: ${r.status} ${await r.text()}`);
  await r.arrayBuffer();
}

interface Stream { socket: Socket; quotes: number }
function open(path: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const s: Stream = { socket: connect(port, '127.0.0.1'), quotes: 0 };
    let head = true;
    s.socket.on('error', reject);
    s.socket.on('data', (d) => {
      const t = d.toString();
      s.quotes += t.split('event: quote').length - 1;
      if (head && t.includes('event: quote')) { head = false; resolve(s); }
      if (head && t.includes('event: error')) reject(new Error(`${path}: ${t}`));
    });
    s.socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\n\r\n`);
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
type Stats = Record<'ticks' | 'skipped' | 'recomputes', number>;
function streamStats(): Promise<Stats> {
  return new Promise((resolve) => {
    const on = (m: unknown): void => {
      if (typeof m === 'object' && m !== null && 'quoteStreamStats' in m) { child.off('message', on); resolve((m as { quoteStreamStats: Stats }).quoteStreamStats); }
    };
    child.on('message', on);
    child.send('quote-stream-stats');
  });
}
/** CPU ms of the service over one window, as % of one core. */
async function window(): Promise<{ cpuMs: number; pct: number }> {
  const c0 = procCpuMs(pid)!;
  const t0 = performance.now();
  await sleep(WINDOW_MS);
  const cpuMs = procCpuMs(pid)! - c0;
  return { cpuMs, pct: (cpuMs / (performance.now() - t0)) * 100 };
}

await sleep(3000);
const rows: string[] = [];
const baseline = await window();
rows.push(`| no stream (baseline) | ${baseline.cpuMs.toFixed(0)} | ${baseline.pct.toFixed(2)} | - | - | - |`);
for (const tickHz of [5, 2]) {
  const streams: Stream[] = [];
  const t0 = performance.now();
  for (let i = 0; i < STREAMS; i += 50) {
    streams.push(...(await Promise.all(Array.from({ length: Math.min(50, STREAMS - i) }, (_, j) => open(`/v1/quote/stream?${PAIRS[(i + j) % PAIRS.length]}&tickHz=${tickHz}`)))));
  }
  const connectMs = performance.now() - t0;
  await sleep(3000);
  const before = streams.reduce((n, s) => n + s.quotes, 0);
  const s0 = await streamStats();
  const w = await window();
  const s1 = await streamStats();
  const extra = streams.reduce((n, s) => n + s.quotes, 0) - before;
  rows.push(`| ${STREAMS} idle streams, tickHz ${tickHz} (connected in ${(connectMs / 1000).toFixed(1)} s) | ${w.cpuMs.toFixed(0)} | ${w.pct.toFixed(2)} | ${(w.pct - baseline.pct).toFixed(2)} | ${s1.ticks - s0.ticks} / ${s1.skipped - s0.skipped} / ${s1.recomputes - s0.recomputes} | ${extra} |`);
  for (const s of streams) s.socket.destroy();
  await sleep(2000);
}
// The per-pool baseline every quote bench prints, measured in this run (after the windows: it would load the core).
const onePool = onePoolQuoteCost();
void onePoolSink();
console.log(machineLine());
console.log(`one pool (same run): Raydium SDK swapBaseInput p50 ${onePool.sdk.p50.toFixed(2)} µs; ours p50 ${onePool.ours.p50.toFixed(2)} µs`);
console.log(`window ${WINDOW_MS / 1000} s; pairs: ${PAIRS.length}; service pid ${pid}`);
console.log('| service state | CPU in window (ms) | % of one core | above baseline (% of a core) | ticks / skipped / recomputes in window | quote frames sent in window |');
console.log('|---|---:|---:|---:|---|---:|');
for (const r of rows) console.log(r);
child.send('stop');
await new Promise((r) => child.once('exit', r));
await net.stop();
