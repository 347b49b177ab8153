/**
 * Loopback load with wrk: GET /v1/price/SOL on the full service (localnet-fed, ingest running) beside a bare
 * uWebSockets.js route in the same process and the same run, so the ratio is the cost of the shell and pricing.
 * Needs wrk (`apt-get install wrk`; `make bench` installs it). Run: node dist/bench/http-load.bench.js [seconds]
 */
import { execFile } from 'node:child_process';
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
const svc = await startService(loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', RPC_URL: net.rpcUrl, GEYSER_ENDPOINT: net.grpcUrl, LOG_LEVEL: 'warn' }));
await svc.ready;
const bare = await startBareServer(0);
const base = `http://127.0.0.1:${svc.port}`;

const rows: Record<string, string | number>[] = [];
const add = (name: string, r: WrkResult, baseline?: WrkResult): void => {
  rows.push({ route: name, 'req/s': Math.round(r.rps), 'p50 ms': r.p50Ms, 'p99 ms': r.p99Ms, 'vs bare': baseline ? (r.rps / baseline.rps).toFixed(2) : '1.00' });
};
const bareResult = await wrk(`http://127.0.0.1:${bare.port}/bare`);
add('bare uWS route (baseline)', bareResult);
add('GET /v1/price/SOL (key: computed per request)', await wrk(`${base}/v1/price/SOL`, ['x-api-key: bench']), bareResult);
add('GET /v1/price/WIF multi-hop (key)', await wrk(`${base}/v1/price/WIF`, ['x-api-key: bench']), bareResult);
add('GET /v1/price/SOL (anonymous: 2 s cache)', await wrk(`${base}/v1/price/SOL`), bareResult);
add('GET /v1/prices 10 tokens (key)', await wrk(`${base}/v1/prices?tokens=SOL,USDC,USDT,WBTC,WETH,JUP,BONK,WIF,RAY,ORCA`, ['x-api-key: bench']), bareResult);
console.table(rows);
await bare.close();
await svc.close();
await net.stop();
process.exit(0);
