/**
 * Issue 14's user story through HTTP only, on the localnet with the simulator paused: a wallet quotes, builds, checks
 * the attestation with the published key as a client would, signs, submits (`POST /v1/swap`: a tipped bundle to the
 * localnet's block engine; or `POST /v1/send`), watches its transaction on `GET /v1/stream/tx` (landed from the
 * Geyser deshred stream, then processed, confirmed, finalized from the Geyser Subscribe stream), `GET /v1/tx` agrees, and the wallet receives exactly the quoted `outAmount`: a direct
 * route, a 2-hop route, ExactOut, and through /v1/send. A transaction whose minimum out is violated (the pool moved
 * after the build; sent with skipPreflight, as a wallet may) fails on chain with the program's slippage error and
 * shows `failed` on the stream and the status route.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { USDC_MINT, WSOL_MINT } from '../engine/catalog/tokens.js';
import { verifySwapAttestation, type SwapBuild } from '../engine/tx/example/verify-attestation.js';
import { startLocalnet, type Localnet } from '../fixtures/localnet/start-localnet.js';
import { startServiceUnderTest, TEST_DEMO_KEY, type ServiceUnderTest } from './testing/service-under-test.js';
import { openSse, type SseEvent, type SseReader } from './testing/sse-reader.js';
import { TestWallet } from './testing/test-wallet.js';
import { eventually } from './testing/wait.js';

const SOL = 1_000_000_000n;
const KEY = { 'x-api-key': TEST_DEMO_KEY };
let net: Localnet;
let sut: ServiceUnderTest;
let wallet: TestWallet;
let pinned: string;
let stream: SseReader;
const events = new Map<string, SseEvent[]>();

before(async () => {
  // A landed signal 150 ms before processed visibility, as on a real cluster (in process it defaults to 0).
  net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 100, landingDelayMs: 150 });
  const tip = await TestWallet.funded(net.rpcUrl, Number(SOL));
  wallet = await TestWallet.funded(net.rpcUrl, Number(100n * SOL));
  sut = await startServiceUnderTest({ BLOCK_ENGINE_URL: net.blockEngineUrl, TIP_PAYER_SECRET_KEY: bs58.encode(tip.keypair.secretKey), RATE_QUOTA_SCALE: '100' }, net);
  pinned = ((await (await fetch(`${sut.base}/v1/attestation/pubkey`)).json()) as { publicKey: string }).publicKey;
  // The key's own transaction stream, open before anything is submitted.
  stream = await openSse(`${sut.base}/v1/stream/tx`, KEY);
  assert.equal(stream.status, 200);
  await eventually(async () => {
    const r = await post('/v1/swap/build', { quoteId: `q_${'0'.repeat(32)}`, userPublicKey: wallet.address });
    assert.equal(r.status, 404, 'the build holds a blockhash');
  }, 10_000, 100);
});
after(async () => {
  stream?.close();
  await sut?.stop();
  await net?.stop();
});

async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${sut.base}${path}`, { method: 'POST', headers: { ...KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The stream's events of `signature` up to one of `until`, others kept for their own waits. */
async function lifecycle(signature: string, until: readonly string[]): Promise<string[]> {
  const got = (): SseEvent[] => events.get(signature) ?? [];
  while (!got().some((e) => until.includes(e.event))) {
    const e = await stream.next(20_000);
    if (e.event === 'ready') continue;
    const sig = (e.data as { signature: string }).signature;
    events.set(sig, [...(events.get(sig) ?? []), e]);
  }
  return got().map((e) => e.event);
}

interface Flow { quote: Record<string, unknown>; build: SwapBuild & Record<string, unknown>; signature: string; wire: string }

/** Quote, build, verify the attestation as a client, sign. */
async function prepare(q: Record<string, unknown>, inputMint: string, outputMint: string): Promise<Flow> {
  const quote = await post('/v1/quote', q);
  assert.equal(quote.status, 200, JSON.stringify(quote.body));
  const b = await post('/v1/swap/build', { quoteId: quote.body.quoteId, userPublicKey: wallet.address });
  assert.equal(b.status, 200, JSON.stringify(b.body));
  const build = b.body as SwapBuild & Record<string, unknown>;
  assert.ok(verifySwapAttestation(build, { pinnedPublicKey: pinned, userPublicKey: wallet.address, inputMint, outputMint }), 'the attestation verifies against the published key');
  const tx = VersionedTransaction.deserialize(Buffer.from(build.transaction, 'base64'));
  tx.sign([wallet.keypair]);
  return { quote: quote.body, build, signature: bs58.encode(tx.signatures[0]!), wire: Buffer.from(tx.serialize()).toString('base64') };
}

/** Submits `f` through `path`, waits for finalized on the stream, checks GET /v1/tx; returns the output received. */
async function submitAndWatch(f: Flow, path: '/v1/swap' | '/v1/send', outAccount: string): Promise<bigint> {
  const before = await wallet.balance(outAccount);
  const r = await post(path, { transaction: f.wire });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.signature, f.signature);
  assert.equal(r.body.status, path === '/v1/swap' ? 'submitted' : 'sent');
  assert.deepEqual(await lifecycle(f.signature, ['finalized', 'failed']), ['landed', 'processed', 'confirmed', 'finalized']);
  // Landed comes from the deshred stream, or, when a loaded stream delivers it after the first poll saw the
  // transaction processed, from that poll (the tracker keeps the order; http/tx-stream.int.test.ts holds the geyser path).
  assert.ok(['geyser', 'poll'].includes((events.get(f.signature)![0]!.data as { source: string }).source));
  // The later stages come from the Geyser Subscribe stream (polling only fills in for a stream that is down or late).
  assert.deepEqual(events.get(f.signature)!.slice(1).map((e) => (e.data as { source: string }).source), ['geyser', 'geyser', 'geyser']);
  const status = (await (await fetch(`${sut.base}/v1/tx/${f.signature}`, { headers: KEY })).json()) as { status: string; error: string | null };
  assert.deepEqual([status.status, status.error], ['finalized', null]);
  return (await wallet.balance(outAccount)) - before;
}

test('SOL -> USDC direct through POST /v1/swap: landed in order, exactly the quoted outAmount', async () => {
  const f = await prepare({ inputMint: 'SOL', outputMint: 'USDC', amount: SOL.toString(), onlyDirectRoutes: true }, WSOL_MINT, USDC_MINT);
  const got = await submitAndWatch(f, '/v1/swap', await wallet.tokenAccountOf(USDC_MINT));
  assert.equal(got, BigInt(f.quote.outAmount as string));
});

test('a 2-hop route (SOL -> USDC -> ORCA) through POST /v1/swap: exactly the quoted outAmount', async () => {
  const orca = ((await (await fetch(`${sut.base}/v1/price/ORCA`)).json()) as { mint: string }).mint;
  const f = await prepare({ inputMint: 'SOL', outputMint: 'ORCA', amount: SOL.toString(), maxHops: 2 }, WSOL_MINT, orca);
  assert.equal((f.quote.bestRoute as { hops: unknown[] }).hops.length, 2);
  const got = await submitAndWatch(f, '/v1/swap', await wallet.tokenAccountOf(orca));
  assert.equal(got, BigInt(f.quote.outAmount as string));
});

test('ExactOut SOL -> USDC through POST /v1/swap: exactly the amount asked', async () => {
  const f = await prepare({ inputMint: 'SOL', outputMint: 'USDC', amount: '25000000', swapMode: 'ExactOut', onlyDirectRoutes: true }, WSOL_MINT, USDC_MINT);
  const got = await submitAndWatch(f, '/v1/swap', await wallet.tokenAccountOf(USDC_MINT));
  assert.equal(got, 25_000_000n);
  assert.equal(f.quote.outAmount, '25000000');
});

test('through POST /v1/send: the same lifecycle, exactly the quoted outAmount', async () => {
  const f = await prepare({ inputMint: 'SOL', outputMint: 'USDC', amount: (SOL / 2n).toString(), onlyDirectRoutes: true }, WSOL_MINT, USDC_MINT);
  const got = await submitAndWatch(f, '/v1/send', await wallet.tokenAccountOf(USDC_MINT));
  assert.equal(got, BigInt(f.quote.outAmount as string));
});

test('a violated minimum out fails on chain with the program\'s slippage error and shows failed', async () => {
  const f = await prepare({ inputMint: 'SOL', outputMint: 'USDC', amount: SOL.toString(), onlyDirectRoutes: true, slippageBps: 10 }, WSOL_MINT, USDC_MINT);
  // The pool moves against the user after the build (another trader's 2,000 SOL sell lands first).
  const pool = (f.quote.bestRoute as { poolAddress: string }).poolAddress;
  const p = [...net.universe.pools, ...net.universe.dexPools].find((x) => x.address === pool)!;
  const moved = net.simulator.swapNow(pool, p.mintA === WSOL_MINT, 2000n * SOL);
  assert.ok(moved.slot !== undefined, 'the moving swap landed');
  const usdc = await wallet.tokenAccountOf(USDC_MINT);
  const before = await wallet.balance(usdc);
  // A wallet that skips preflight puts it on chain, where the program's minimum-out check refuses it.
  const sig = await wallet.conn.sendRawTransaction(Buffer.from(f.wire, 'base64'), { skipPreflight: true });
  assert.equal(sig, f.signature);
  const s = await openSse(`${sut.base}/v1/stream/tx?signatures=${sig}`, KEY);
  const seen: string[] = [];
  let failed: SseEvent | null = null;
  while (failed === null) {
    const e = await s.next(20_000);
    if (e.event === 'ready') continue;
    seen.push(e.event);
    if (e.event === 'failed' || e.event === 'finalized') failed = e;
  }
  s.close();
  assert.equal(failed.event, 'failed', seen.join(','));
  const err = (failed.data as { err: string }).err;
  assert.match(err, /InstructionError/);
  assert.match(err, /Custom/, `the program's own error: ${err}`);
  const status = (await (await fetch(`${sut.base}/v1/tx/${sig}`, { headers: KEY })).json()) as { status: string; error: string };
  assert.equal(status.status, 'failed');
  assert.equal(status.error, err);
  assert.equal(await wallet.balance(usdc), before, 'nothing received');
});
