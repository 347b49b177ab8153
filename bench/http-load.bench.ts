/**
 * Loopback load with wrk: GET /v1/price/SOL on the full service (localnet-fed, ingest running) beside a bare
 * uWebSockets.js route in the same process and the same run, so the ratio is the cost of the shell and pricing.
 * Keys: an internal key (no rate limiter), and pro keys through the memory limiter and, on a second instance, the
 * Redis limiter (quotas scaled up with RATE_QUOTA_SCALE so wrk measures counting, not refusals).
 * Needs wrk (`apt-get install wrk`; `make bench` installs it) and Redis at REDIS_URL (default
 * redis://127.0.0.1:6379). Run: node dist/bench/http-load.bench.js [seconds]
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startLocalnet } from '../fixtures/localnet/start-localnet.js';
import { loadConfig } from '../http/config.js';
import { startService } from '../http/service.js';
import { startBareServer } from './http-bare.js';

const seconds = Number(process.argv[2] ?? 5);

interface WrkResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

function toMs(v: string): number {
  const m = /([\d.]+)(us|ms|s)/.exec(v);
  if (!m) return NaN;
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 's' ? n * 1000 : n;
}

/** Runs wrk without blocking this process: the servers under test live here. */
async function wrk(url: string, headers: string[] = []): Promise<WrkResult> {
  const args = ['-t1', '-c32', `-d${seconds}s`, '--latency', ...headers.flatMap((h) => ['-H', h]), url];
  const { stdout: out } = await promisify(execFile)('wrk', args, { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const p50 = /\s50%\s+(\S+)/.exec(out)?.[1] ?? '';
  const p99 = /\s99%\s+(\S+)/.exec(out)?.[1] ?? '';
  return { rps, p50Ms: toMs(p50), p99Ms: toMs(p99) };
}

const net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 5 });
const env = (redis: boolean): NodeJS.ProcessEnv => ({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  ADMIN_PORT: '0',
  DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-http-')),
  RPC_URL: net.rpcUrl,
  GEYSER_ENDPOINT: net.grpcUrl,
  LOG_LEVEL: 'warn',
  RATE_QUOTA_SCALE: '1000000',
  ...(redis ? { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: `bench:${process.pid}:` } : {}),
});
const svc = await startService(loadConfig(env(false)));
const svcRedis = await startService(loadConfig(env(true)));
await svc.ready;
await svcRedis.ready;
const bare = await startBareServer(0);
const base = `http://127.0.0.1:${svc.port}`;
const baseRedis = `http://127.0.0.1:${svcRedis.port}`;
const internal = `x-api-key: ${(await svc.keys.create({ tier: 'internal' })).key}`;
const pro = `x-api-key: ${(await svc.keys.create({ tier: 'pro' })).key}`;
const proRedis = `x-api-key: ${(await svcRedis.keys.create({ tier: 'pro' })).key}`;

const rows: Record<string, string | number>[] = [];
const add = (name: string, r: WrkResult, baseline?: WrkResult): void => {
  rows.push({ route: name, 'req/s': Math.round(r.rps), 'p50 ms': r.p50Ms, 'p99 ms': r.p99Ms, 'vs bare': baseline ? (r.rps / baseline.rps).toFixed(2) : '1.00' });
};
const bareResult = await wrk(`http://127.0.0.1:${bare.port}/bare`);
add('bare uWS route (baseline)', bareResult);
add('GET /v1/price/SOL (internal key: no limiter)', await wrk(`${base}/v1/price/SOL`, [internal]), bareResult);
add('GET /v1/price/SOL (pro key: memory limiter)', await wrk(`${base}/v1/price/SOL`, [pro]), bareResult);
add('GET /v1/price/SOL (pro key: Redis limiter)', await wrk(`${baseRedis}/v1/price/SOL`, [proRedis]), bareResult);
add('GET /v1/price/WIF multi-hop (internal key)', await wrk(`${base}/v1/price/WIF`, [internal]), bareResult);
add('GET /v1/price/SOL (anonymous: limiter + 2 s cache)', await wrk(`${base}/v1/price/SOL`), bareResult);
add('GET /v1/prices 10 tokens (internal key)', await wrk(`${base}/v1/prices?tokens=SOL,USDC,USDT,WBTC,WETH,JUP,BONK,WIF,RAY,ORCA`, [internal]), bareResult);
console.table(rows);
await bare.close();
await svc.close();
await svcRedis.close();
await net.stop();
process.exit(0);
