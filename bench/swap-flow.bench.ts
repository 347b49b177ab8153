/**
 * The swap flow on the localnet (issue 14's bench): `POST /v1/swap/build` latency with and without `simulate=true`
 * (each build preceded by its own quote, untimed), and the submission's lifecycle: a built, signed SOL -> USDC swap
 * sent through `POST /v1/swap` (a tipped bundle to the localnet's block engine) and through `POST /v1/send` (RPC),
 * timed from the request to its `landed` and `processed` events on the key's `GET /v1/stream/tx` (the Geyser deshred
 * signal; the localnet lands 100 ms before processed visibility, its CLI default), to the first poll of
 * `GET /v1/tx/:signature` that answers `confirmed` (10 ms polls), and to the stream's `confirmed` event; and from the
 * moment the localnet's ledger confirmed the transaction's slot (its own event: the localnet runs in this process)
 * to that `confirmed` event, beside the same status's arrival at a bare Subscribe client of each transport in this
 * process (the baseline). Each event's `source` is counted. The service runs in this process with an internal key
 * (no limits); the simulator is paused.
 * Run: `npx tsc -p tsconfig.json && flock /tmp/bench.lock node dist/bench/swap-flow.bench.js [--builds 100] [--submits 20]`.
 */
import { parseArgs } from 'node:util';
import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { createGeyserTransport } from '../engine/chain/geyser-factory.js';
import { TxStageWatch } from '../engine/chain/tx-stage-watch.js';
import { startLocalnet } from '../fixtures/localnet/start-localnet.js';
import { startServiceUnderTest } from '../http/testing/service-under-test.js';
import { openSse } from '../http/testing/sse-reader.js';
import { TestWallet } from '../http/testing/test-wallet.js';
import { percentiles, type Percentiles } from './percentiles.js';
import { machineLine } from './quote-report.js';

const { values: args } = parseArgs({ options: { builds: { type: 'string', default: '100' }, submits: { type: 'string', default: '20' } } });
const BUILDS = Number(args.builds);
const SUBMITS = Number(args.submits);
const SLOT_MS = 400;

const net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: SLOT_MS, landingDelayMs: 100 });
const tip = await TestWallet.funded(net.rpcUrl, 10 * 1_000_000_000);
const user = await TestWallet.funded(net.rpcUrl, 1000 * 1_000_000_000);
const sut = await startServiceUnderTest({ BLOCK_ENGINE_URL: net.blockEngineUrl, TIP_PAYER_SECRET_KEY: bs58.encode(tip.keypair.secretKey), RATE_QUOTA_SCALE: '1000' }, net);
const key = (await sut.svc.keys.create({ tier: 'internal' })).key;

async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${sut.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function quoteId(): Promise<string> {
  const q = await post('/v1/quote', { inputMint: 'SOL', outputMint: 'USDC', amount: '100000000', onlyDirectRoutes: true });
  if (q.status !== 200) throw new Error(`quote ${q.status} ${JSON.stringify(q.body)}`);
  return q.body.quoteId as string;
}

/** A build's latency in ms (its quote untimed). */
async function timedBuild(simulate: boolean): Promise<{ ms: number; body: Record<string, unknown> }> {
  const id = await quoteId();
  const t0 = performance.now();
  const b = await post('/v1/swap/build', { quoteId: id, userPublicKey: user.address, simulate });
  const ms = performance.now() - t0;
  if (b.status !== 200) throw new Error(`build ${b.status} ${JSON.stringify(b.body)}`);
  return { ms, body: b.body };
}

// The build refuses with 503 until it holds a blockhash; wait for the first.
for (let i = 0; i < 100; i++) {
  const r = await post('/v1/swap/build', { quoteId: `q_${'0'.repeat(32)}`, userPublicKey: user.address });
  if (r.status === 404) break;
  await new Promise((r2) => setTimeout(r2, 100));
}
for (let i = 0; i < 10; i++) await timedBuild(i % 2 === 0);
const plain: number[] = [];
const simulated: number[] = [];
for (let i = 0; i < BUILDS; i++) {
  plain.push((await timedBuild(false)).ms);
  simulated.push((await timedBuild(true)).ms);
}

// The key's transaction stream: each event's arrival time per signature, with its source and slot.
while (!sut.svc.txSignals?.watching) await new Promise((r) => setTimeout(r, 50));
const stream = await openSse(`${sut.base}/v1/stream/tx`, { 'x-api-key': key });
interface Seen {
  readonly at: number;
  readonly slot: number;
  readonly source: string;
}
const seen = new Map<string, Map<string, Seen>>();
void (async () => {
  for (;;) {
    const e = await stream.next(3_600_000).catch(() => null);
    if (e === null) return;
    if (e.event === 'ready') continue;
    const d = e.data as { signature: string; slot: number; source: string };
    let m = seen.get(d.signature);
    if (!m) seen.set(d.signature, (m = new Map()));
    m.set(e.event, { at: performance.now(), slot: d.slot, source: d.source });
  }
})();
// When each slot became confirmed on the chain: the ledger's own event (the localnet runs in this process).
const chainConfirmedAt = new Map<bigint, number>();
net.ledger.subscribe((ev) => {
  if (ev.kind === 'slot' && ev.status === 1) chainConfirmedAt.set(ev.slot, performance.now());
});
// The baseline: the same slot statuses at a bare Subscribe client of each transport in this process.
const rawConfirmedAt = { napi: new Map<number, number>(), 'grpc-js': new Map<number, number>() };
const raw = (['napi', 'grpc-js'] as const).map((t) => {
  const w = new TxStageWatch({
    connect: () => createGeyserTransport(t, { url: net.grpcUrl }),
    onTransaction: () => undefined,
    onSlot: (slot, status) => void (status === 1 && rawConfirmedAt[t].set(slot, performance.now())),
  });
  w.start();
  return w;
});

/** One submission's timings, ms: from the request to each event, and from the chain's confirmation of its slot to the `confirmed` event. */
interface Timed {
  readonly landed: number;
  readonly processed: number;
  readonly confirmed: number;
  readonly confirmedEvent: number;
  readonly chainToEvent: number;
  readonly chainToNapi: number;
  readonly chainToGrpcJs: number;
  readonly sources: string;
}

/** Submit-to-landed and submit-to-confirmed through `path`, ms. */
async function landed(path: '/v1/swap' | '/v1/send'): Promise<Timed> {
  const { body } = await timedBuild(false);
  const tx = VersionedTransaction.deserialize(Buffer.from(body.transaction as string, 'base64'));
  tx.sign([user.keypair]);
  const wire = Buffer.from(tx.serialize()).toString('base64');
  const sig = bs58.encode(tx.signatures[0]!);
  const t0 = performance.now();
  const r = await post(path, { transaction: wire });
  if (r.status !== 200) throw new Error(`${path} ${r.status} ${JSON.stringify(r.body)}`);
  for (;;) {
    const s = (await (await fetch(`${sut.base}/v1/tx/${sig}`, { headers: { 'x-api-key': key } })).json()) as { status: string };
    if (s.status === 'confirmed' || s.status === 'finalized') {
      const confirmed = performance.now() - t0;
      // The stream's confirmed event may still be on its way (a poll every second before the Geyser stages).
      for (let i = 0; i < 300 && !seen.get(sig)?.has('confirmed'); i++) await new Promise((r2) => setTimeout(r2, 10));
      const m = seen.get(sig) ?? new Map<string, Seen>();
      const at = (type: string): number => (m.has(type) ? m.get(type)!.at - t0 : NaN);
      const c = m.get('confirmed');
      const chainAt = c ? chainConfirmedAt.get(BigInt(c.slot)) : undefined;
      const rawAt = (t: 'napi' | 'grpc-js'): number => (c && chainAt !== undefined && rawConfirmedAt[t].has(c.slot) ? rawConfirmedAt[t].get(c.slot)! - chainAt : NaN);
      return {
        landed: at('landed'),
        processed: at('processed'),
        confirmed,
        confirmedEvent: at('confirmed'),
        chainToEvent: c && chainAt !== undefined ? c.at - chainAt : NaN,
        chainToNapi: rawAt('napi'),
        chainToGrpcJs: rawAt('grpc-js'),
        sources: ['landed', 'processed', 'confirmed'].map((t) => m.get(t)?.source ?? '-').join('/'),
      };
    }
    if (s.status === 'failed') throw new Error(`${path}: ${sig} failed`);
    await new Promise((r2) => setTimeout(r2, 10));
  }
}
const viaBundle: Timed[] = [];
const viaSend: Timed[] = [];
for (let i = 0; i < SUBMITS; i++) {
  viaBundle.push(await landed('/v1/swap'));
  viaSend.push(await landed('/v1/send'));
}
const missed = [...viaBundle, ...viaSend].filter((x) => Number.isNaN(x.landed)).length;

const f = (p: Percentiles): string => `${p.p50.toFixed(2)} | ${p.p99.toFixed(2)} | ${p.max.toFixed(2)} | ${p.n}`;
console.log(machineLine());
console.log(`localnet slot ${SLOT_MS} ms; SOL -> USDC direct, 0.1 SOL`);
console.log('| step | p50 ms | p99 ms | max ms | samples |');
console.log('|---|---:|---:|---:|---:|');
console.log(`| POST /v1/swap/build | ${f(percentiles(plain))} |`);
console.log(`| POST /v1/swap/build simulate=true | ${f(percentiles(simulated))} |`);
const ok = (xs: Timed[], k: keyof Omit<Timed, 'sources'>): number[] => xs.map((x) => x[k]).filter((x) => !Number.isNaN(x));
console.log(`| POST /v1/swap -> landed (bundle) | ${f(percentiles(ok(viaBundle, 'landed')))} |`);
console.log(`| POST /v1/send -> landed (RPC) | ${f(percentiles(ok(viaSend, 'landed')))} |`);
console.log(`| POST /v1/swap -> processed event (bundle) | ${f(percentiles(ok(viaBundle, 'processed')))} |`);
console.log(`| POST /v1/send -> processed event (RPC) | ${f(percentiles(ok(viaSend, 'processed')))} |`);
console.log(`| POST /v1/swap -> confirmed (bundle, GET /v1/tx) | ${f(percentiles(ok(viaBundle, 'confirmed')))} |`);
console.log(`| POST /v1/send -> confirmed (RPC, GET /v1/tx) | ${f(percentiles(ok(viaSend, 'confirmed')))} |`);
console.log(`| POST /v1/swap -> confirmed event (bundle) | ${f(percentiles(ok(viaBundle, 'confirmedEvent')))} |`);
console.log(`| POST /v1/send -> confirmed event (RPC) | ${f(percentiles(ok(viaSend, 'confirmedEvent')))} |`);
console.log(`| slot confirmed on chain -> confirmed event | ${f(percentiles(ok([...viaBundle, ...viaSend], 'chainToEvent')))} |`);
console.log(`| baseline: slot confirmed on chain -> its status at a bare Subscribe client, napi | ${f(percentiles(ok([...viaBundle, ...viaSend], 'chainToNapi')))} |`);
console.log(`| baseline: slot confirmed on chain -> its status at a bare Subscribe client, grpc-js | ${f(percentiles(ok([...viaBundle, ...viaSend], 'chainToGrpcJs')))} |`);
const overService = [...viaBundle, ...viaSend].map((x) => x.chainToEvent - x.chainToNapi).filter((x) => !Number.isNaN(x));
console.log(`| the status at the bare napi client -> the confirmed event (per submission) | ${f(percentiles(overService))} |`);
console.log(`submissions without a landed event: ${missed}`);
const sources = new Map<string, number>();
for (const x of [...viaBundle, ...viaSend]) sources.set(x.sources, (sources.get(x.sources) ?? 0) + 1);
console.log(`sources of landed/processed/confirmed: ${[...sources].map(([k, n]) => `${k} x${n}`).join(', ')}`);
stream.close();
raw.forEach((w) => w.close());
await sut.stop();
await net.stop();
process.exit(0);
