/**
 * Loopback load with wrk on GET /v1/quote (the same request as POST /v1/quote, in the query so wrk needs no script):
 * the full service over the localnet (simulator paused: the routes do not move while measured), with 1 and with 2
 * quote workers (`QUOTE_THREADS`), beside a bare uWebSockets.js route in the same process and the same run. An
 * internal key (no rate limiter): the rows measure the quote path. Interleaved rounds, medians, each ratio against
 * the bare route of its own round.
 * The universe: the default localnet (89 pools) or `[pools]` CPMM pools (`--pools` of the localnet; 20000 for the
 * issue's scale). Beside the rows, the cost of quoting one pool with the official Raydium SDK and with ours, measured
 * in the same run (`one-pool-cost.ts`).
 * Needs wrk. Run: node dist/bench/quote-load.bench.js [seconds] [rounds] [pools]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalnet } from '../fixtures/localnet/start-localnet.js';
import { loadConfig } from '../http/config.js';
import { startService } from '../http/service.js';
import { startBareServer } from './http-bare.js';
import { onePoolQuoteCost, onePoolSink } from './one-pool-cost.js';
import { runWrk, type WrkResult } from './wrk.js';

const seconds = Number(process.argv[2] ?? 5);
const rounds = Number(process.argv[3] ?? 3);
const pools = process.argv[4] === undefined ? undefined : Number(process.argv[4]);

const net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, ...(pools === undefined ? {} : { pools }) });
const start = async (threads: number): Promise<{ base: string; key: string; close: () => Promise<void> }> => {
  const svc = await startService(
    loadConfig({
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      ADMIN_PORT: '0',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-quote-')),
      RPC_URL: net.rpcUrl,
      GEYSER_ENDPOINT: net.grpcUrl,
      LOG_LEVEL: 'warn',
      QUOTE_THREADS: String(threads),
    }),
  );
  await svc.ready;
  return { base: `http://127.0.0.1:${svc.port}`, key: `x-api-key: ${(await svc.keys.create({ tier: 'internal' })).key}`, close: () => svc.close() };
};
const one = await start(1);
const two = await start(2);
const bare = await startBareServer(0);
const bareUrl = `http://127.0.0.1:${bare.port}/bare`;

// SOL -> USDC has direct pools; WIF trades only against SOL here, so WIF -> USDC is a 2-hop route.
const REQUESTS = [
  { label: 'direct SOL -> USDC', query: 'inputMint=SOL&outputMint=USDC&amount=1000000000' },
  { label: '2-hop WIF -> USDC', query: 'inputMint=WIF&outputMint=USDC&amount=1000000000' },
];
interface LoadRow { name: string; url: string; headers: string[]; post?: string }
const ROWS: LoadRow[] = REQUESTS.flatMap((r) =>
  [
    { svc: one, workers: 1 },
    { svc: two, workers: 2 },
  ].map((s) => ({ name: `GET /v1/quote ${r.label}, ${s.workers} worker${s.workers > 1 ? 's' : ''}`, url: `${s.svc.base}/v1/quote?${r.query}`, headers: [s.svc.key] })),
);
// POST /v1/quote with the same fields as a JSON body (the route the spec names; GET is the Jupiter-style extension).
ROWS.push(
  ...[
    { svc: one, workers: 1 },
    { svc: two, workers: 2 },
  ].map((s) => ({
    name: `POST /v1/quote ${REQUESTS[0]!.label}, ${s.workers} worker${s.workers > 1 ? 's' : ''}`,
    url: `${s.svc.base}/v1/quote`,
    headers: [s.svc.key],
    post: JSON.stringify(Object.fromEntries(new URLSearchParams(REQUESTS[0]!.query))),
  })),
);

// Every row must answer 200 before it is timed (a 4xx is fast and would flatter the row).
for (const row of ROWS) {
  const key = { 'x-api-key': row.headers[0]!.slice('x-api-key: '.length) };
  const res = row.post === undefined ? await fetch(row.url, { headers: key }) : await fetch(row.url, { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: row.post });
  if (res.status !== 200) throw new Error(`${row.name}: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const results = new Map<string, { r: WrkResult; ratio: number }[]>();
const bares: WrkResult[] = [];
for (let i = 0; i < rounds; i++) {
  const b = await runWrk(bareUrl, seconds);
  bares.push(b);
  for (const row of ROWS) {
    const r = await runWrk(row.url, seconds, row.headers, row.post);
    results.set(row.name, [...(results.get(row.name) ?? []), { r, ratio: r.rps / b.rps }]);
  }
}

const onePool = onePoolQuoteCost();
console.log(`universe: ${net.universe.pools.length} localnet pools; ${seconds} s x ${rounds} rounds`);
console.log(`one pool (same run): Raydium SDK swapBaseInput p50 ${onePool.sdk.p50.toFixed(2)} µs / p99 ${onePool.sdk.p99.toFixed(2)} µs; ours p50 ${onePool.ours.p50.toFixed(2)} µs / p99 ${onePool.ours.p99.toFixed(2)} µs`);
void onePoolSink();
console.log(`\n| route | req/s | p50 ms | p99 ms | vs bare | vs bare, each round |`);
console.log('|---|---:|---:|---:|---:|---|');
console.log(`| bare uWS route (baseline) | ${Math.round(median(bares.map((b) => b.rps)))} | ${median(bares.map((b) => b.p50Ms))} | ${median(bares.map((b) => b.p99Ms))} | 1.00 | |`);
for (const row of ROWS) {
  const rs = results.get(row.name)!;
  const ratios = rs.map((x) => x.ratio.toFixed(2)).join(' ');
  console.log(`| ${row.name} | ${Math.round(median(rs.map((x) => x.r.rps)))} | ${median(rs.map((x) => x.r.p50Ms))} | ${median(rs.map((x) => x.r.p99Ms))} | ${median(rs.map((x) => x.ratio)).toFixed(2)} | ${ratios} |`);
}

await one.close();
await two.close();
bare.close();
await net.stop();
process.exit(0);
