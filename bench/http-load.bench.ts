/**
 * Loopback load with wrk: GET /v1/price/SOL on the full service (localnet-fed, ingest running) beside a bare
 * uWebSockets.js route in the same process and the same run, so the ratio is the cost of the shell and pricing.
 * Keys: an internal key (no rate limiter), and pro keys through the memory limiter, on a second instance the Redis
 * limiter reserving quota in chunks (the default), and on a third instance, started only for its own row, the
 * Redis limiter counting one Redis call per request (`RATE_CHUNK_DIVISOR=0`, the limiter before chunks); quotas
 * scaled up with RATE_QUOTA_SCALE so wrk measures counting, not refusals (the pro quota becomes 1e9 a minute:
 * chunks of 1000).
 * Needs wrk (`apt-get install wrk`; `make bench` installs it) and Redis at REDIS_URL (default
 * redis://127.0.0.1:6379). Run: node dist/bench/http-load.bench.js [seconds] [rounds] (rounds > 1 adds interleaved
 * rounds of the bare route and the limiter rows, with medians).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalnet } from '../fixtures/localnet/start-localnet.js';
import { loadConfig } from '../http/config.js';
import { startService } from '../http/service.js';
import { startBareServer } from './http-bare.js';
import { runWrk, type WrkResult } from './wrk.js';

const seconds = Number(process.argv[2] ?? 5);

/** Runs wrk without blocking this process: the servers under test live here. */
const wrk = (url: string, headers: string[] = []): Promise<WrkResult> => runWrk(url, seconds, headers);

const net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 5 });
const env = (redis: 'chunked' | 'per-call' | false): NodeJS.ProcessEnv => ({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  ADMIN_PORT: '0',
  DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-http-')),
  RPC_URL: net.rpcUrl,
  GEYSER_ENDPOINT: net.grpcUrl,
  LOG_LEVEL: 'warn',
  RATE_QUOTA_SCALE: '1000000',
  ...(redis ? { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: `bench:${process.pid}:${redis}:` } : {}),
  ...(redis === 'per-call' ? { RATE_CHUNK_DIVISOR: '0' } : {}),
});
const svc = await startService(loadConfig(env(false)));
const svcRedis = await startService(loadConfig(env('chunked')));
await svc.ready;
await svcRedis.ready;
const bare = await startBareServer(0);
const base = `http://127.0.0.1:${svc.port}`;
const baseRedis = `http://127.0.0.1:${svcRedis.port}`;
const internal = `x-api-key: ${(await svc.keys.create({ tier: 'internal' })).key}`;
const pro = `x-api-key: ${(await svc.keys.create({ tier: 'pro' })).key}`;
const proRedis = `x-api-key: ${(await svcRedis.keys.create({ tier: 'pro' })).key}`;

/**
 * wrk on a third instance counting one Redis call per request, started for this measurement and closed after it,
 * so the other rows run beside the same two instances as before this row existed.
 */
async function perCallRow(): Promise<WrkResult> {
  const s = await startService(loadConfig(env('per-call')));
  try {
    await s.ready;
    const key = `x-api-key: ${(await s.keys.create({ tier: 'pro' })).key}`;
    return await wrk(`http://127.0.0.1:${s.port}/v1/price/SOL`, [key]);
  } finally {
    await s.close();
  }
}

const bareUrl = `http://127.0.0.1:${bare.port}/bare`;
const PER_CALL = 'GET /v1/price/SOL (pro key: Redis limiter, per call)';
const ROWS: readonly { readonly name: string; readonly url: string; readonly headers?: string[] }[] = [
  { name: 'GET /v1/price/SOL (internal key: no limiter)', url: `${base}/v1/price/SOL`, headers: [internal] },
  { name: 'GET /v1/price/SOL (pro key: memory limiter)', url: `${base}/v1/price/SOL`, headers: [pro] },
  { name: PER_CALL, url: '' },
  { name: 'GET /v1/price/SOL (pro key: Redis limiter, chunked)', url: `${baseRedis}/v1/price/SOL`, headers: [proRedis] },
  { name: 'GET /v1/price/WIF multi-hop (internal key)', url: `${base}/v1/price/WIF`, headers: [internal] },
  { name: 'GET /v1/price/SOL (anonymous: limiter + 2 s cache)', url: `${base}/v1/price/SOL` },
  {
    name: 'GET /v1/prices 10 tokens (internal key)',
    url: `${base}/v1/prices?tokens=SOL,USDC,USDT,WBTC,WETH,JUP,BONK,WIF,RAY,ORCA`,
    headers: [internal],
  },
];
const measure = (row: (typeof ROWS)[number]): Promise<WrkResult> => (row.name === PER_CALL ? perCallRow() : wrk(row.url, row.headers));
const rows: Record<string, string | number>[] = [];
const add = (name: string, r: WrkResult, baseline?: WrkResult): void => {
  rows.push({ route: name, 'req/s': Math.round(r.rps), 'p50 ms': r.p50Ms, 'p99 ms': r.p99Ms, 'vs bare': baseline ? (r.rps / baseline.rps).toFixed(2) : '1.00' });
};
const bareResult = await wrk(bareUrl);
add('bare uWS route (baseline)', bareResult);
for (const row of ROWS) add(row.name, await measure(row), bareResult);
console.table(rows);

// Interleaved rounds (`rounds` > 1): the bare route and the four limiter rows again, one after the other, each
// ratio against the bare route of its own round, medians reported. On a shared machine the load changes from one
// 5 s row to the next; adjacent rows and medians over rounds are what make the ratios comparable.
const rounds = Number(process.argv[3] ?? 1);
if (rounds > 1) {
  // The per-call row last: its instance's start-up must not run just before another row.
  const picked = [ROWS[0]!, ROWS[1]!, ROWS[3]!, ROWS[2]!];
  const samples = new Map<string, { r: WrkResult; ratio: number }[]>();
  const push = (name: string, r: WrkResult, ratio: number): void => {
    samples.set(name, [...(samples.get(name) ?? []), { r, ratio }]);
  };
  for (let round = 0; round < rounds; round++) {
    const b = await wrk(bareUrl);
    push('bare uWS route (baseline)', b, 1);
    for (const row of picked) {
      const r = await measure(row);
      push(row.name, r, r.rps / b.rps);
    }
  }
  const median = (xs: number[]): number => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  console.log(`interleaved: ${rounds} rounds of ${seconds} s per row (medians; ratios against the bare route of the same round)`);
  console.table(
    [...samples].map(([name, xs]) => ({
      route: name,
      'req/s': Math.round(median(xs.map((x) => x.r.rps))),
      'p50 ms': median(xs.map((x) => x.r.p50Ms)),
      'p99 ms': median(xs.map((x) => x.r.p99Ms)),
      'vs bare': median(xs.map((x) => x.ratio)).toFixed(2),
      'vs bare, each round': xs.map((x) => x.ratio.toFixed(2)).join(' '),
    })),
  );
}
await bare.close();
await svc.close();
await svcRedis.close();
await net.stop();
process.exit(0);
