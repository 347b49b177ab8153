/**
 * `POST /v1/swap/build` on the localnet with the simulator paused: quotes built into unsigned v0 transactions, their
 * attestation verified with the client example against `GET /v1/attestation/pubkey`, signed by a fresh wallet that
 * holds nothing but SOL (the build creates its token accounts and wraps its SOL), sent over JSON-RPC; the wallet
 * receives exactly the build's (and, unmoved, the quote's) output: direct, 2 hops, every DEX, ExactOut, SOL out
 * (unwrapped), `wrapAndUnwrapSol=false`, SOL in the middle of a route paid and taken in different forms. A quote id
 * builds once (404 after; 404 unknown); a pool moved beyond `maxDriftBps` between quote and build answers 409
 * QUOTE_MOVED with the four fields, a small move builds on the fresh state; `simulate=true` sizes the compute unit
 * limit from the simulation, or answers SIMULATION_FAILED; a route over the packet, with no funded table wallet, is
 * TX_TOO_LARGE.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Keypair, PublicKey, VersionedTransaction } from '@solana/web3.js';
import { USDC_MINT, WSOL_MINT } from '../engine/catalog/tokens.js';
import { verifySwapAttestation, type SwapBuild } from '../engine/tx/example/verify-attestation.js';
import { compareWithChain } from '../engine/ingest/testing/chain-reference.js';
import { startServiceUnderTest, TEST_DEMO_KEY, type ServiceUnderTest } from './testing/service-under-test.js';
import { TestWallet } from './testing/test-wallet.js';
import { eventually } from './testing/wait.js';

const LAMPORTS_PER_SOL = 1_000_000_000;
const AMOUNT = 1_000_000_000n;
/** A token whose only pool is against USDC: SOL -> USDC -> ORCA (as in quote-execution.int.test.ts). */
const TWO_HOP_SYMBOL = 'ORCA';

/** A token of each other DEX's pools and the DEXes of the best route into it from SOL (quote-execution.int.test.ts). */
const EVERY_DEX: readonly (readonly [symbol: string, dexes: readonly string[]])[] = [
  ['QUATRO', ['raydium-amm-v4']],
  ['VIERA', ['raydium-cpmm', 'raydium-amm-v4']],
  ['LLMID', ['raydium-launchlab']],
  ['LLUSD', ['raydium-cpmm', 'raydium-launchlab']],
  ['DBCMID', ['meteora-dbc']],
  ['GUNKONZ', ['pumpswap']],
  // A Token-2022 mint bought with native SOL: the curve takes lamports, nothing is wrapped.
  ['PMID', ['pumpfun']],
];
/** A route whose accounts do not fit one packet without address lookup tables (CPMM then PumpSwap's 20-odd); this
 * file's service has an unfunded table wallet. */
const TOO_LARGE: readonly [symbol: string, dexes: readonly string[]] = ['DOGFROCAT', ['raydium-cpmm', 'pumpswap']];

interface QuoteBody {
  readonly quoteId: string;
  readonly amount: string;
  readonly inAmount: string;
  readonly outAmount: string;
  readonly otherAmountThreshold: string;
  readonly expiresAt: number;
  readonly bestRoute: { readonly hops: readonly { readonly dex: string; readonly poolAddress: string; readonly inputMint: string; readonly outputMint: string }[] };
}

type BuildBody = SwapBuild & { lastValidBlockHeight: number; computeUnitLimit: number };

let sut: ServiceUnderTest;
let wallet: TestWallet;
let pinnedKey: string;

async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${sut.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': TEST_DEMO_KEY },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

before(async () => {
  // Why the scale: the pro tier builds 10 swaps a minute; this file builds more.
  sut = await startServiceUnderTest({ RATE_QUOTA_SCALE: '100' });
  assert.equal(sut.net.simulator.tps, 0, 'the simulator is paused: nothing but this test trades');
  wallet = await TestWallet.funded(sut.net.rpcUrl, 100 * LAMPORTS_PER_SOL);
  pinnedKey = ((await (await fetch(`${sut.base}/v1/attestation/pubkey`)).json()) as { publicKey: string }).publicKey;
  // The build cache holds a blockhash once an unknown id is refused as unknown rather than as "no blockhash yet".
  await eventually(async () => {
    const r = await post('/v1/swap/build', { quoteId: `q_${'0'.repeat(32)}`, userPublicKey: wallet.address });
    assert.equal(r.status, 404, JSON.stringify(r.body));
  }, 10_000, 100);
});
after(async () => sut?.stop());

async function quote(body: Record<string, unknown>): Promise<QuoteBody> {
  await eventually(async () => {
    const c = await compareWithChain(sut.svc.slab, sut.net.rpcUrl);
    assert.ok(c.compared > 50);
    assert.deepEqual(c.mismatches.slice(0, 3), []);
  }, 10_000, 100);
  const r = await post('/v1/quote', body);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body as unknown as QuoteBody;
}

async function build(body: Record<string, unknown>): Promise<BuildBody> {
  const r = await post('/v1/swap/build', { userPublicKey: wallet.address, ...body });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body as unknown as BuildBody;
}

/** Verifies the attestation as a wallet would, signs and sends the build; returns the landed signature. */
async function signAndSend(b: BuildBody, inputMint: string, outputMint: string): Promise<string> {
  assert.ok(verifySwapAttestation(b, { pinnedPublicKey: pinnedKey, userPublicKey: wallet.address, inputMint, outputMint }), 'the attestation verifies');
  const tx = VersionedTransaction.deserialize(Buffer.from(b.transaction, 'base64'));
  assert.equal(tx.version, 0);
  assert.equal(tx.message.staticAccountKeys[0]!.toBase58(), wallet.address, 'the user pays the fee');
  tx.sign([wallet.keypair]);
  const sig = await wallet.conn.sendRawTransaction(tx.serialize());
  await wallet.confirmed(sig);
  return sig;
}

test('SOL -> USDC direct: attested, signed, sent; the wallet receives exactly the quoted outAmount and pays exactly the amount', async () => {
  const q = await quote({ inputMint: 'SOL', outputMint: 'USDC', amount: AMOUNT.toString(), onlyDirectRoutes: true });
  const b = await build({ quoteId: q.quoteId });
  assert.equal(b.quoteId, q.quoteId);
  assert.equal(b.outAmount, q.outAmount, 'nothing moved: the build delivers the quote');
  assert.equal(b.inAmount, AMOUNT.toString());
  assert.equal(b.minOutAmount, q.otherAmountThreshold);
  assert.ok(b.lastValidBlockHeight > 0 && b.computeUnitLimit > 0);
  const usdcAta = await wallet.tokenAccountOf(USDC_MINT);
  const wsolAta = await wallet.tokenAccountOf(WSOL_MINT);
  const lamportsBefore = await wallet.lamports();
  const usdcBefore = await wallet.balance(usdcAta);
  const sig = await signAndSend(b, WSOL_MINT, USDC_MINT);
  assert.equal((await wallet.balance(usdcAta)) - usdcBefore, BigInt(q.outAmount));
  assert.equal(await wallet.conn.getAccountInfo(new PublicKey(wsolAta), 'confirmed'), null, 'the wrapped-SOL account was closed');
  const ataRent = BigInt((await wallet.conn.getAccountInfo(new PublicKey(usdcAta), 'confirmed'))!.lamports);
  // The wallet paid the amount, the fee, and the rent of the USDC account the build created (wSOL rent came back).
  assert.equal(lamportsBefore - (await wallet.lamports()), AMOUNT + (await wallet.feeOf(sig)) + ataRent);
});

test('SOL -> USDC -> ORCA (2 hops): the wallet receives exactly the quoted outAmount, no USDC left behind', async () => {
  const orca = sut.net.universe.tokens.find((t) => t.symbol === TWO_HOP_SYMBOL)!.mint;
  const q = await quote({ inputMint: 'SOL', outputMint: orca, amount: AMOUNT.toString(), maxHops: 2 });
  assert.equal(q.bestRoute.hops.length, 2, JSON.stringify(q.bestRoute));
  const b = await build({ quoteId: q.quoteId });
  assert.equal(b.outAmount, q.outAmount);
  const orcaAta = await wallet.tokenAccountOf(orca);
  const usdcAta = await wallet.tokenAccountOf(USDC_MINT);
  const [orcaBefore, usdcBefore] = [await wallet.balance(orcaAta), await wallet.balance(usdcAta)];
  await signAndSend(b, WSOL_MINT, orca);
  assert.equal((await wallet.balance(orcaAta)) - orcaBefore, BigInt(q.outAmount));
  assert.equal(await wallet.balance(usdcAta), usdcBefore, 'the intermediate leg spent exactly what the first delivered');
});

test('a quote id builds once: the second build is 404 QUOTE_NOT_FOUND; an unknown id is 404; a malformed body is 400', async () => {
  const q = await quote({ inputMint: 'SOL', outputMint: 'USDC', amount: '1000000', onlyDirectRoutes: true });
  await build({ quoteId: q.quoteId });
  const again = await post('/v1/swap/build', { quoteId: q.quoteId, userPublicKey: wallet.address });
  assert.equal(again.status, 404);
  assert.equal(again.body.code, 'QUOTE_NOT_FOUND');
  const unknown = await post('/v1/swap/build', { quoteId: `q_${'ab'.repeat(16)}`, userPublicKey: wallet.address });
  assert.deepEqual([unknown.status, unknown.body.code], [404, 'QUOTE_NOT_FOUND']);
  const notAnId = await post('/v1/swap/build', { quoteId: 'nope', userPublicKey: wallet.address });
  assert.deepEqual([notAnId.status, notAnId.body.code], [404, 'QUOTE_NOT_FOUND']);
  for (const bad of [{}, { quoteId: q.quoteId }, { quoteId: q.quoteId, userPublicKey: 'xyz' }, { quoteId: q.quoteId, userPublicKey: wallet.address, maxDriftBps: -1 }, { quoteId: q.quoteId, userPublicKey: wallet.address, simulate: 'yes' }]) {
    const r = await post('/v1/swap/build', bad);
    assert.deepEqual([r.status, r.body.code], [400, 'INVALID_REQUEST'], JSON.stringify(bad));
  }
});

/** The quote's first pool swapped in the user's direction by `lamports` (the simulator's trader), landed now. */
function moveFirstPool(q: QuoteBody, lamports: bigint): void {
  const address = q.bestRoute.hops[0]!.poolAddress;
  const pool = [...sut.net.universe.pools, ...sut.net.universe.dexPools].find((p) => p.address === address)!;
  const outcome = sut.net.simulator.swapNow(address, pool.mintA === WSOL_MINT, lamports);
  assert.ok(outcome.slot !== undefined, `the moving swap landed: ${JSON.stringify(outcome.quote, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}`);
}

test('a pool moved beyond maxDriftBps between quote and build: 409 QUOTE_MOVED with the four fields', async () => {
  const q = await quote({ inputMint: 'SOL', outputMint: 'USDC', amount: AMOUNT.toString(), onlyDirectRoutes: true, slippageBps: 50 });
  moveFirstPool(q, 2000n * AMOUNT);
  const r = await post('/v1/swap/build', { quoteId: q.quoteId, userPublicKey: wallet.address });
  assert.equal(r.status, 409, JSON.stringify(r.body));
  assert.equal(r.body.code, 'QUOTE_MOVED');
  assert.equal(r.body.displayedOutput, q.outAmount);
  assert.equal(r.body.maxDriftBps, 50, 'default: the quote\'s slippageBps');
  assert.ok(BigInt(r.body.currentOutput as string) < BigInt(q.outAmount));
  assert.ok((r.body.driftBps as number) > 50, JSON.stringify(r.body));
  const spent = await post('/v1/swap/build', { quoteId: q.quoteId, userPublicKey: wallet.address });
  assert.equal(spent.status, 404, 'the refused build spent the quote id');
});

test('a small move builds on the fresh state: the wallet receives exactly the build\'s outAmount, at least minOut', async () => {
  const q = await quote({ inputMint: 'SOL', outputMint: 'USDC', amount: AMOUNT.toString(), onlyDirectRoutes: true, slippageBps: 50 });
  moveFirstPool(q, 20n * AMOUNT);
  // Within the default bound (the quote's 50 bps slippage).
  const b = await build({ quoteId: q.quoteId });
  assert.ok(BigInt(b.outAmount) < BigInt(q.outAmount), 'the move made the output worse');
  assert.ok(BigInt(b.outAmount) >= BigInt(b.minOutAmount));
  const usdcAta = await wallet.tokenAccountOf(USDC_MINT);
  const before = await wallet.balance(usdcAta);
  await signAndSend(b, WSOL_MINT, USDC_MINT);
  assert.equal((await wallet.balance(usdcAta)) - before, BigInt(b.outAmount));
});

test('simulate=true: the compute unit limit comes from the simulation and the transaction lands with it', async () => {
  const q = await quote({ inputMint: 'SOL', outputMint: 'USDC', amount: AMOUNT.toString(), onlyDirectRoutes: true });
  const b = await build({ quoteId: q.quoteId, simulate: true, computeUnitPriceMicroLamports: 1000 });
  assert.ok(Number.isInteger(b.computeUnitLimit) && b.computeUnitLimit > 10_000, `the simulation's units plus the margin: ${b.computeUnitLimit}`);
  assert.ok(b.computeUnitLimit < 300_000, `sized from the simulation, not the default estimate: ${b.computeUnitLimit}`);
  const usdcAta = await wallet.tokenAccountOf(USDC_MINT);
  const before = await wallet.balance(usdcAta);
  await signAndSend(b, WSOL_MINT, USDC_MINT);
  assert.equal((await wallet.balance(usdcAta)) - before, BigInt(q.outAmount));
});

test('simulate=true for a wallet that cannot pay: 400 SIMULATION_FAILED with the error and the logs', async () => {
  const q = await quote({ inputMint: 'SOL', outputMint: 'USDC', amount: AMOUNT.toString(), onlyDirectRoutes: true });
  const broke = Keypair.generate().publicKey.toBase58();
  const r = await post('/v1/swap/build', { quoteId: q.quoteId, userPublicKey: broke, simulate: true });
  assert.equal(r.status, 400, JSON.stringify(r.body));
  assert.equal(r.body.code, 'SIMULATION_FAILED');
  assert.notEqual(r.body.simulationError, null);
  assert.ok(Array.isArray(r.body.logs));
  assert.equal(typeof r.body.details, 'string');
});

test('USDC -> SOL: the output is unwrapped; the wallet\'s lamports grow by exactly outAmount less the fee', async () => {
  const q = await quote({ inputMint: 'USDC', outputMint: 'SOL', amount: '10000000', onlyDirectRoutes: true });
  const b = await build({ quoteId: q.quoteId });
  assert.equal(b.outAmount, q.outAmount);
  const usdcAta = await wallet.tokenAccountOf(USDC_MINT);
  const [lamportsBefore, usdcBefore] = [await wallet.lamports(), await wallet.balance(usdcAta)];
  const sig = await signAndSend(b, USDC_MINT, WSOL_MINT);
  assert.equal(usdcBefore - (await wallet.balance(usdcAta)), 10_000_000n);
  assert.equal((await wallet.lamports()) - lamportsBefore, BigInt(q.outAmount) - (await wallet.feeOf(sig)));
});

test('wrapAndUnwrapSol=false: the wallet\'s own wrapped SOL is spent, and nothing is wrapped or closed', async () => {
  await wallet.wrapSol(AMOUNT);
  const wsolAta = await wallet.tokenAccountOf(WSOL_MINT);
  const q = await quote({ inputMint: 'SOL', outputMint: 'USDC', amount: AMOUNT.toString(), onlyDirectRoutes: true });
  const b = await build({ quoteId: q.quoteId, wrapAndUnwrapSol: false });
  const usdcAta = await wallet.tokenAccountOf(USDC_MINT);
  const [wsolBefore, usdcBefore] = [await wallet.balance(wsolAta), await wallet.balance(usdcAta)];
  await signAndSend(b, WSOL_MINT, USDC_MINT);
  assert.equal(wsolBefore - (await wallet.balance(wsolAta)), AMOUNT);
  assert.equal((await wallet.balance(usdcAta)) - usdcBefore, BigInt(q.outAmount));
});

test('every DEX adapter\'s leg in a built transaction: exactly the quoted outAmount', async (t) => {
  for (const [symbol, dexes] of EVERY_DEX) {
    await t.test(`SOL -> ${symbol} through ${dexes.join(' -> ')}`, async () => {
      const mint = sut.net.universe.tokens.find((x) => x.symbol === symbol)!.mint;
      const q = await quote({ inputMint: 'SOL', outputMint: mint, amount: '100000000', maxHops: 2, slippageBps: 500 });
      assert.deepEqual(q.bestRoute.hops.map((h) => h.dex), dexes, JSON.stringify(q.bestRoute));
      const b = await build({ quoteId: q.quoteId });
      assert.equal(b.outAmount, q.outAmount);
      const ata = await wallet.tokenAccountOf(mint);
      const before = await wallet.balance(ata);
      await signAndSend(b, WSOL_MINT, mint);
      assert.equal((await wallet.balance(ata)) - before, BigInt(q.outAmount));
    });
  }
});

test('a route too large for one packet while the table wallet is unfunded: 400 TX_TOO_LARGE with its size (tables: swap-lookup-tables.int.test.ts)', async () => {
  const [symbol, dexes] = TOO_LARGE;
  const mint = sut.net.universe.tokens.find((x) => x.symbol === symbol)!.mint;
  const q = await quote({ inputMint: 'SOL', outputMint: mint, amount: '100000000', maxHops: 2, slippageBps: 500 });
  assert.deepEqual(q.bestRoute.hops.map((h) => h.dex), dexes, JSON.stringify(q.bestRoute));
  const r = await post('/v1/swap/build', { quoteId: q.quoteId, userPublicKey: wallet.address });
  assert.deepEqual([r.status, r.body.code], [400, 'TX_TOO_LARGE'], JSON.stringify(r.body));
  const bytes = Number(/^(\d+) bytes/.exec(r.body.details as string)?.[1]);
  assert.ok(bytes > 1232, r.body.details as string);
  assert.match(r.body.details as string, /address lookup tables are unavailable: the table wallet \S+ holds 0 lamports/);
});

test('ExactOut SOL -> USDC: exactly the amount asked arrives; the wallet pays the build\'s inAmount, at most the threshold', async () => {
  const want = 50_000_000n;
  const q = await quote({ inputMint: 'SOL', outputMint: 'USDC', amount: want.toString(), swapMode: 'ExactOut', onlyDirectRoutes: true });
  const b = await build({ quoteId: q.quoteId });
  assert.deepEqual([b.outAmount, b.minOutAmount, b.inAmount], [want.toString(), want.toString(), q.inAmount]);
  const usdcAta = await wallet.tokenAccountOf(USDC_MINT);
  const [lamportsBefore, usdcBefore] = [await wallet.lamports(), await wallet.balance(usdcAta)];
  const sig = await signAndSend(b, WSOL_MINT, USDC_MINT);
  assert.equal((await wallet.balance(usdcAta)) - usdcBefore, want);
  // The wrap moved the threshold in; the close returned what the leg did not take.
  assert.equal(lamportsBefore - (await wallet.lamports()), BigInt(b.inAmount) + (await wallet.feeOf(sig)));
  assert.ok(BigInt(b.inAmount) <= BigInt(q.otherAmountThreshold));
});

test('SOL in the middle, paid as lamports by a pump.fun sell and taken wrapped (and the reverse): converted between the legs', async (t) => {
  const pmid = sut.net.universe.tokens.find((x) => x.symbol === 'PMID')!.mint;
  const pmidAta = await wallet.tokenAccountOf(pmid);
  const usdcAta = await wallet.tokenAccountOf(USDC_MINT);
  await t.test('USDC -> SOL -> PMID: the wrapped SOL unwrapped for the curve', async () => {
    const q = await quote({ inputMint: 'USDC', outputMint: pmid, amount: '20000000', maxHops: 2, slippageBps: 500 });
    assert.deepEqual(q.bestRoute.hops.map((h) => [h.outputMint === WSOL_MINT, h.dex === 'pumpfun']), [[true, false], [false, true]], JSON.stringify(q.bestRoute));
    const b = await build({ quoteId: q.quoteId });
    const before = await wallet.balance(pmidAta);
    await signAndSend(b, USDC_MINT, pmid);
    assert.equal((await wallet.balance(pmidAta)) - before, BigInt(q.outAmount));
  });
  await t.test('PMID -> SOL -> USDC: the curve\'s lamports wrapped for the next leg', async () => {
    const sell = (await wallet.balance(pmidAta)) / 2n;
    const q = await quote({ inputMint: pmid, outputMint: 'USDC', amount: sell.toString(), maxHops: 2, slippageBps: 500 });
    assert.deepEqual(q.bestRoute.hops.map((h) => [h.outputMint === WSOL_MINT, h.dex === 'pumpfun']), [[true, true], [false, false]], JSON.stringify(q.bestRoute));
    const b = await build({ quoteId: q.quoteId });
    const [pmidBefore, usdcBefore] = [await wallet.balance(pmidAta), await wallet.balance(usdcAta)];
    await signAndSend(b, pmid, USDC_MINT);
    assert.equal(pmidBefore - (await wallet.balance(pmidAta)), sell);
    assert.equal((await wallet.balance(usdcAta)) - usdcBefore, BigInt(q.outAmount));
  });
});
