/**
 * `POST /v1/swap/build` of a route that needs address lookup tables (SOL -> DOGFROCAT through Raydium CPMM then
 * PumpSwap: over one packet without tables) on the localnet: the first build of a table wallet (it creates the
 * table: create-and-extend sent, confirmed, then the confirmed slot past the extension) and later builds (the table
 * reused), beside the same run's baselines without a table: SOL -> USDC direct and SOL -> USDC -> ORCA (2 hops). Every first build runs on a fresh
 * service with a fresh funded table wallet (the tip wallet), so it finds no table on chain. Each build is preceded by
 * its own quote, untimed. The service runs in this process with an internal key; the simulator is paused.
 * Run: `npx tsc -p tsconfig.json && flock /tmp/bench.lock node dist/bench/swap-lookup-tables.bench.js [--first 10] [--builds 100]`.
 */
import { parseArgs } from 'node:util';
import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { startLocalnet } from '../fixtures/localnet/start-localnet.js';
import { startServiceUnderTest, type ServiceUnderTest } from '../http/testing/service-under-test.js';
import { TestWallet } from '../http/testing/test-wallet.js';
import { percentiles, type Percentiles } from './percentiles.js';
import { machineLine } from './quote-report.js';

const { values: args } = parseArgs({ options: { first: { type: 'string', default: '10' }, builds: { type: 'string', default: '100' } } });
const FIRST = Number(args.first);
const BUILDS = Number(args.builds);
const SLOT_MS = 400;

const net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: SLOT_MS, landingDelayMs: 100 });
const user = await TestWallet.funded(net.rpcUrl, 1000 * 1_000_000_000);
const target = net.universe.tokens.find((t) => t.symbol === 'DOGFROCAT')!.mint;

interface Service {
  readonly sut: ServiceUnderTest;
  readonly key: string;
}

async function start(): Promise<Service> {
  const tableWallet = await TestWallet.funded(net.rpcUrl, 1_000_000_000);
  const sut = await startServiceUnderTest({ TIP_PAYER_SECRET_KEY: bs58.encode(tableWallet.keypair.secretKey), RATE_QUOTA_SCALE: '1000' }, net);
  const key = (await sut.svc.keys.create({ tier: 'internal' })).key;
  const s = { sut, key };
  // The build refuses with 503 until it holds a blockhash; wait for the first.
  for (let i = 0; i < 100; i++) {
    if ((await post(s, '/v1/swap/build', { quoteId: `q_${'0'.repeat(32)}`, userPublicKey: user.address })).status === 404) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return s;
}

async function post(s: Service, path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${s.sut.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': s.key }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A build's latency in ms (its quote untimed) and how many tables its transaction loads from. */
async function timedBuild(s: Service, outputMint: string): Promise<{ ms: number; tables: number }> {
  const q = await post(s, '/v1/quote', { inputMint: 'SOL', outputMint, amount: '100000000', maxHops: 2, slippageBps: 500, ...(outputMint === 'USDC' ? { onlyDirectRoutes: true } : {}) });
  if (q.status !== 200) throw new Error(`quote ${q.status} ${JSON.stringify(q.body)}`);
  const t0 = performance.now();
  const b = await post(s, '/v1/swap/build', { quoteId: q.body.quoteId, userPublicKey: user.address });
  const ms = performance.now() - t0;
  if (b.status !== 200) throw new Error(`build ${b.status} ${JSON.stringify(b.body)}`);
  const tables = VersionedTransaction.deserialize(Buffer.from(b.body.transaction as string, 'base64')).message.addressTableLookups.length;
  return { ms, tables };
}

const first: number[] = [];
let last: Service | undefined;
for (let i = 0; i < FIRST; i++) {
  await last?.sut.stop();
  last = await start();
  const r = await timedBuild(last, target);
  if (r.tables !== 1) throw new Error(`first build loads from ${r.tables} tables`);
  first.push(r.ms);
}
const s = last!;
for (let i = 0; i < 10; i++) await timedBuild(s, i % 2 === 0 ? target : 'USDC');
const orca = net.universe.tokens.find((t) => t.symbol === 'ORCA')!.mint;
const reuse: number[] = [];
const baseline: number[] = [];
const twoHops: number[] = [];
for (let i = 0; i < BUILDS; i++) {
  const r = await timedBuild(s, target);
  if (r.tables !== 1) throw new Error(`a later build loads from ${r.tables} tables`);
  reuse.push(r.ms);
  baseline.push((await timedBuild(s, 'USDC')).ms);
  const o = await timedBuild(s, orca);
  if (o.tables !== 0) throw new Error('the 2-hop baseline loads from a table');
  twoHops.push(o.ms);
}

const f = (p: Percentiles): string => `${p.p50.toFixed(2)} | ${p.p99.toFixed(2)} | ${p.max.toFixed(2)} | ${p.n}`;
console.log(machineLine());
console.log(`localnet slot ${SLOT_MS} ms; 0.1 SOL`);
console.log('| build | p50 ms | p99 ms | max ms | samples |');
console.log('|---|---:|---:|---:|---:|');
console.log(`| SOL -> DOGFROCAT (CPMM, PumpSwap), first build: table created | ${f(percentiles(first))} |`);
console.log(`| SOL -> DOGFROCAT (CPMM, PumpSwap), table reused | ${f(percentiles(reuse))} |`);
console.log(`| SOL -> USDC direct, no table (baseline) | ${f(percentiles(baseline))} |`);
console.log(`| SOL -> USDC -> ORCA (2 hops), no table (baseline) | ${f(percentiles(twoHops))} |`);
await s.sut.stop();
await net.stop();
process.exit(0);
