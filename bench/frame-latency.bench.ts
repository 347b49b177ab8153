/**
 * From the Geyser update to the frame on the client's socket, measured in one run beside a Yellowstone client on
 * the same stream. The localnet runs in this process with its simulator paused; the service runs in its own
 * process (as deployed); a Yellowstone client subscribed to the swapped pool's accounts and the slot stream runs in
 * a third (`frame-latency/reference-client.ts`: its stamps do not wait behind this process's work), and N SSE
 * clients of `/v1/stream/prices?tokens=SOL&includeOptimistic=true` in a fourth. Each round lands one swap on SOL's
 * best-bid pool with `swapNow` and records, on CLOCK_MONOTONIC:
 * - the Yellowstone client's arrival of the swap's last account write and of its slot's `confirmed` status;
 * - each SSE client's arrival of the optimistic and the confirmed `price` frame that follow.
 * Reported per client count (1, 100, 1,000): optimistic frame after the Geyser update, confirmed frame after the
 * confirmation status, and swapNow -> frame end to end beside swapNow -> Geyser update (the localnet's own part).
 *
 * The clients' arrival is, by default, the kernel's receive time of the frame on the client's socket
 * (`frame-latency/sse-stamp.c`, SO_TIMESTAMPNS, in its own process); `--reader node` uses Node clients in this
 * process instead (their time includes their own event loop and reading, on the same cores as the service).
 *
 * `node dist/bench/frame-latency.bench.js [--clients 1,100,1000] [--rounds 100] [--slot-ms 200] [--transport napi]
 *  [--reader kernel|node] [--service-root <another build>]`
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startLocalnet } from '../fixtures/localnet/start-localnet.js';
import { KernelStampedClients } from './frame-latency/kernel-stamped-clients.js';
import { monoNsToNow } from './frame-latency/mono-clock.js';
import { SseClients } from './frame-latency/sse-clients.js';

const WSOL = 'So11111111111111111111111111111111111111112';

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '1,100,1000' },
    rounds: { type: 'string', default: '100' },
    'slot-ms': { type: 'string', default: '200' },
    transport: { type: 'string', default: 'napi' },
    reader: { type: 'string', default: 'kernel' },
    // Another build's root (its dist/ holds bench/frame-latency/service-process.js): a baseline in the same run.
    'service-root': { type: 'string' },
  },
});
const CLIENT_COUNTS = args.clients.split(',').map(Number);
const ROUNDS = Number(args.rounds);
const SLOT_MS = Number(args['slot-ms']);

/** Percentiles of a sample, in ms with µs resolution. */
function pct(xs: number[]): { n: number; below0: number; min: number; p50: number; p99: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
  const r = (x: number): number => Math.round(x * 1000) / 1000;
  return { n: s.length, below0: s.filter((x) => x < 0).length, min: r(s[0] ?? NaN), p50: r(at(0.5)), p99: r(at(0.99)), max: r(s[s.length - 1] ?? NaN) };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: SLOT_MS });
// The Yellowstone client beside the service, in its own process, subscribed before the service is: every SOL CPMM
// pool's accounts and every slot status. Subscribed first, its stream is written first by the localnet's server, so
// the latencies below are measured from the earlier of the two streams' copies of an update.
const solPools = net.universe.pools.filter((p) => p.mintA === WSOL || p.mintB === WSOL);
const reference = fork(new URL('./frame-latency/reference-client.js', import.meta.url), [net.grpcUrl, args.transport, solPools.flatMap((p) => [p.address, p.vaultA, p.vaultB]).join(',')]);
let round: { signature: string; slot: bigint; lastWriteAt: number; confirmedAt: number } | null = null;
await new Promise<void>((resolve, reject) => {
  reference.once('exit', (code) => reject(new Error(`reference client exited ${code}`)));
  reference.on('message', (m: { kind: string; signature?: string; slot?: string; ns?: string }) => {
    if (m.kind === 'ready') return resolve();
    if (round === null) return;
    const at = monoNsToNow(m.ns!);
    if (m.kind === 'write' && m.signature === round.signature && at > round.lastWriteAt) round.lastWriteAt = at;
    if (m.kind === 'confirmed' && BigInt(m.slot!) >= round.slot && round.confirmedAt === 0) round.confirmedAt = at;
  });
});

const dataDir = mkdtempSync(join(tmpdir(), 'frame-latency-'));
const serviceEntry = args['service-root'] ? join(args['service-root'], 'dist/bench/frame-latency/service-process.js') : new URL('./frame-latency/service-process.js', import.meta.url);
const child = fork(serviceEntry, [], {
  // BENCH_SERVICE_PROF=<dir>: a CPU profile of the service's main thread.
  execArgv: process.env.BENCH_SERVICE_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVICE_PROF}`] : [],
  env: {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    ADMIN_PORT: '0',
    DATA_DIR: dataDir,
    RPC_URL: net.rpcUrl,
    GEYSER_ENDPOINT: net.grpcUrl,
    GEYSER_TRANSPORT: args.transport,
    LOG_LEVEL: 'warn',
  },
});
const { port, key } = await new Promise<{ port: number; key: string }>((resolve, reject) => {
  child.once('message', (m) => resolve(m as { port: number; key: string }));
  child.once('exit', (code) => reject(new Error(`service exited ${code}`)));
});

// SOL's best-bid pool (a SOL/USD pool): its swaps move SOL's price, so every round gives frames past the dedup.
const before = (await (await fetch(`http://127.0.0.1:${port}/v1/price/SOL`, { headers: { 'x-api-key': key } })).json()) as { bestBidPool: string };
const pool = net.universe.pools.find((p) => p.address === before.bestBidPool);
if (!pool || ![pool.mintA, pool.mintB].includes(WSOL)) throw new Error(`SOL's best bid pool ${before.bestBidPool} is not a CPMM SOL pool`);
const solIsA = pool.mintA === WSOL;

interface Row {
  clients: number;
  rounds: number;
  missed: number;
  optimistic: ReturnType<typeof pct>;
  confirmed: ReturnType<typeof pct>;
  endToEnd: ReturnType<typeof pct>;
  geyserAfterSwap: ReturnType<typeof pct>;
}
const rows: Row[] = [];
const path = `/v1/stream/prices?tokens=SOL&includeOptimistic=true&dedupThreshold=${process.env.BENCH_DEDUP ?? "0.000000000001"}`;
for (const n of CLIENT_COUNTS) {
  const clients = args.reader === 'node' ? await SseClients.open(port, key, path, n) : await KernelStampedClients.open(port, key, path, n);
  await sleep(500);
  const opt: number[] = [];
  const conf: number[] = [];
  const e2e: number[] = [];
  const geyser: number[] = [];
  let missed = 0;
  for (let r = 0; r < ROUNDS; r++) {
    clients.reset();
    // Alternating directions keep the pool near its price; 1/10,000 of the input reserve moves the price.
    const aToB = r % 2 === 0 ? solIsA : !solIsA;
    const amount = (aToB ? pool.reserveA : pool.reserveB) / 10_000n;
    const t0 = performance.now();
    const out = net.simulator.swapNow(pool.address, aToB, amount);
    if (!out.signature || out.slot === undefined) throw new Error('swap did not land');
    round = { signature: out.signature, slot: out.slot, lastWriteAt: 0, confirmedAt: 0 };
    const deadline = Date.now() + 10 * SLOT_MS + 2000;
    while (!(clients.allArrived() && round.lastWriteAt > 0 && round.confirmedAt > 0) && Date.now() < deadline) await sleep(2);
    const cur = round;
    if (!clients.allArrived() || cur.lastWriteAt === 0 || cur.confirmedAt === 0) {
      missed++;
      if (process.env.BENCH_DEBUG) console.log('missed', { lastWriteAt: cur.lastWriteAt, confirmedAt: cur.confirmedAt, arrivals: clients.arrivals().slice(0, 2) });
      continue;
    }
    geyser.push(cur.lastWriteAt - t0);
    if (process.env.BENCH_DEBUG) console.log('round', JSON.stringify({ last: cur.lastWriteAt - t0, opt: clients.arrivals()[0]!.optimisticAt - t0, conf: clients.arrivals()[0]!.confirmedAt - t0, confRef: cur.confirmedAt - t0 }));
    for (const a of clients.arrivals()) {
      opt.push(a.optimisticAt - cur.lastWriteAt);
      conf.push(a.confirmedAt - cur.confirmedAt);
      e2e.push(a.optimisticAt - t0);
    }
    await sleep(20);
  }
  clients.close();
  rows.push({ clients: n, rounds: ROUNDS, missed, optimistic: pct(opt), confirmed: pct(conf), endToEnd: pct(e2e), geyserAfterSwap: pct(geyser) });
  console.log(JSON.stringify(rows.at(-1)));
  await sleep(500);
}

console.log('\n| SSE clients | rounds (missed) | optimistic frame after Geyser update p50 / p99 / max ms | confirmed frame after confirmation status p50 / p99 / max ms | swapNow -> Geyser update (Yellowstone client) p50 / p99 ms | swapNow -> optimistic frame p50 / p99 ms |');
console.log('|---:|---:|---|---|---|---|');
for (const r of rows) {
  const f = (p: ReturnType<typeof pct>): string => `${p.p50} / ${p.p99} / ${p.max}`;
  console.log(`| ${r.clients} | ${r.rounds} (${r.missed}) | ${f(r.optimistic)} | ${f(r.confirmed)} | ${r.geyserAfterSwap.p50} / ${r.geyserAfterSwap.p99} | ${r.endToEnd.p50} / ${r.endToEnd.p99} |`);
}

reference.removeAllListeners('exit');
reference.send('stop');
child.send('stop');
await new Promise((r) => child.once('exit', r));
await net.stop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
