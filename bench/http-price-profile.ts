/**
 * A CPU profile of the service's main thread while wrk loads GET /v1/price/SOL with a pro key through the Redis
 * limiter (chunked, the default), the row of `http-load.bench.ts` the 0.45x target is about. Prints the
 * main thread's busy share, the heaviest functions and source lines by self time, and writes the `.cpuprofile`
 * (open it in Chrome DevTools) to the temp folder.
 *
 * Needs wrk and Redis at REDIS_URL (default redis://127.0.0.1:6379), like `http-load.bench.ts`.
 * Run: node dist/bench/http-price-profile.js [seconds] [path, default /v1/price/SOL] [tier, default pro]
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startLocalnet } from '../fixtures/localnet/start-localnet.js';
import { loadConfig } from '../http/config.js';
import { startService } from '../http/service.js';
import type { Tier } from '../engine/tiers/tier.js';

const seconds = Number(process.argv[2] ?? 8);
const path = process.argv[3] ?? '/v1/price/SOL';
const tier = (process.argv[4] ?? 'pro') as Tier;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  positionTicks?: { line: number; ticks: number }[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

const net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 5 });
const svc = await startService(
  loadConfig({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    ADMIN_PORT: '0',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-prof-')),
    RPC_URL: net.rpcUrl,
    GEYSER_ENDPOINT: net.grpcUrl,
    LOG_LEVEL: 'warn',
    RATE_QUOTA_SCALE: '1000000',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: `bench:${process.pid}:prof:`,
  }),
);
await svc.ready;
const key = (await svc.keys.create({ tier })).key;
const url = `http://127.0.0.1:${svc.port}${path}`;
const run = (d: number): Promise<{ stdout: string }> =>
  promisify(execFile)('wrk', ['-t1', '-c32', `-d${d}s`, '--latency', '-H', `x-api-key: ${key}`, url], { encoding: 'utf8' });
await run(2); // warm-up: JIT, the limiter's first chunk

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
const { stdout } = await run(seconds);
const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
session.disconnect();
await svc.close();
await net.stop();

const file = join(tmpdir(), `http-price-${Date.now()}.cpuprofile`);
writeFileSync(file, JSON.stringify(profile));
const rps = /Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1];
const total = profile.samples.length;
let idle = 0;
const selfByFn = new Map<string, number>();
const selfByLine = new Map<string, number>();
for (const n of profile.nodes) {
  const hits = n.hitCount ?? 0;
  const f = n.callFrame;
  if (f.functionName === '(idle)') idle += hits;
  const short = f.url.replace(/^.*\/(dist|node_modules)\//, '$1/');
  const name = `${f.functionName || '(anonymous)'} ${short}:${f.lineNumber + 1}`;
  selfByFn.set(name, (selfByFn.get(name) ?? 0) + hits);
  for (const p of n.positionTicks ?? []) {
    const l = `${short}:${p.line} (${f.functionName || 'anonymous'})`;
    selfByLine.set(l, (selfByLine.get(l) ?? 0) + p.ticks);
  }
}
const busy = total - idle;
const pct = (x: number): string => `${((100 * x) / busy).toFixed(1)}%`;
console.log(`wrk ${url}: ${rps} req/s; ${total} samples, main thread busy ${((100 * busy) / total).toFixed(1)}%; profile ${file}`);
console.log('self time by function (share of busy samples):');
for (const [k, v] of [...selfByFn].filter(([k]) => !k.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`  ${pct(v).padStart(6)}  ${k}`);
console.log('self time by line:');
for (const [k, v] of [...selfByLine].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`  ${pct(v).padStart(6)}  ${k}`);
process.exit(0);
