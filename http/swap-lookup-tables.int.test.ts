/**
 * `POST /v1/swap/build` with address lookup tables on the localnet (simulator paused): a route whose accounts do not
 * fit one packet (CPMM then PumpSwap) is built against a table the service makes for the route's accounts with its
 * table wallet (the tip wallet), attested over the message with its lookups, signed by the user, sent through
 * `POST /v1/send`; the wallet receives exactly the quoted outAmount. A second build over the same pools reuses the
 * table and lands as a bundle through `POST /v1/swap` (the localnet's block engine resolving the lookups);
 * concurrent builds of a fresh service make one table; a restarted service finds its tables on chain and makes none.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Keypair, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { WSOL_MINT } from '../engine/catalog/tokens.js';
import { verifySwapAttestation, type SwapBuild } from '../engine/tx/example/verify-attestation.js';
import { ADDRESS_LOOKUP_TABLE_PROGRAM, decodeLookupTableAccount, LOOKUP_TABLE_AUTHORITY_OFFSET } from '../engine/tx/lookup-table-layout.js';
import { startLocalnet, type Localnet } from '../fixtures/localnet/index.js';
import { startServiceUnderTest, TEST_DEMO_KEY, type ServiceUnderTest } from './testing/service-under-test.js';
import { TestWallet } from './testing/test-wallet.js';
import { eventually } from './testing/wait.js';

const SOL = 1_000_000_000n;
/** The route over one packet without tables (as in swap-build.int.test.ts). */
const SYMBOL = 'DOGFROCAT';
const DEXES = ['raydium-cpmm', 'pumpswap'];

let net: Localnet;
let sut: ServiceUnderTest;
let wallet: TestWallet;
let tableWallet: TestWallet;
let pinned: string;
let mint: string;

async function post(s: ServiceUnderTest, path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${s.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': TEST_DEMO_KEY }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function start(tableKey: Keypair): Promise<ServiceUnderTest> {
  const s = await startServiceUnderTest({ BLOCK_ENGINE_URL: net.blockEngineUrl, TIP_PAYER_SECRET_KEY: bs58.encode(tableKey.secretKey), RATE_QUOTA_SCALE: '100' }, net);
  await eventually(async () => {
    const r = await post(s, '/v1/swap/build', { quoteId: `q_${'0'.repeat(32)}`, userPublicKey: wallet.address });
    assert.equal(r.status, 404, 'the build holds a blockhash');
  }, 10_000, 100);
  return s;
}

/** The active tables whose authority is `authority`, on chain (confirmed). */
async function tablesOf(authority: string): Promise<{ address: string; addresses: readonly string[] }[]> {
  const res = await fetch(net.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'getProgramAccounts',
      params: [ADDRESS_LOOKUP_TABLE_PROGRAM, { encoding: 'base64', commitment: 'confirmed', filters: [{ memcmp: { offset: LOOKUP_TABLE_AUTHORITY_OFFSET, bytes: authority } }] }],
    }),
  });
  const list = ((await res.json()) as { result: { pubkey: string; account: { data: [string, string] } }[] }).result;
  return list.map((a) => ({ address: a.pubkey, addresses: decodeLookupTableAccount(Buffer.from(a.account.data[0], 'base64'))!.addresses }));
}

async function quote(s: ServiceUnderTest): Promise<Record<string, unknown>> {
  const r = await post(s, '/v1/quote', { inputMint: 'SOL', outputMint: mint, amount: '100000000', maxHops: 2, slippageBps: 500 });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const hops = (r.body.bestRoute as { hops: { dex: string }[] }).hops.map((h) => h.dex);
  assert.deepEqual(hops, DEXES);
  return r.body;
}

async function build(s: ServiceUnderTest, quoteId: unknown): Promise<SwapBuild & Record<string, unknown>> {
  const r = await post(s, '/v1/swap/build', { quoteId, userPublicKey: wallet.address });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body as SwapBuild & Record<string, unknown>;
}

/** The tables a built transaction loads from. */
const lookupsOf = (b: SwapBuild): string[] => VersionedTransaction.deserialize(Buffer.from(b.transaction, 'base64')).message.addressTableLookups.map((l) => l.accountKey.toBase58());

before(async () => {
  net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 100 });
  wallet = await TestWallet.funded(net.rpcUrl, Number(100n * SOL));
  tableWallet = await TestWallet.funded(net.rpcUrl, Number(SOL));
  sut = await start(tableWallet.keypair);
  pinned = ((await (await fetch(`${sut.base}/v1/attestation/pubkey`)).json()) as { publicKey: string }).publicKey;
  mint = net.universe.tokens.find((t) => t.symbol === SYMBOL)!.mint;
});
after(async () => {
  await sut?.stop();
  await net?.stop();
});

test('a route over one packet: built against a new table, attested, sent through /v1/send; exactly the quoted outAmount arrives', async () => {
  assert.deepEqual(await tablesOf(tableWallet.address), [], 'the table wallet has no table yet');
  const lamportsBefore = await tableWallet.lamports();
  const q = await quote(sut);
  const b = await build(sut, q.quoteId);
  assert.equal(b.outAmount, q.outAmount);
  const tables = await tablesOf(tableWallet.address);
  assert.equal(tables.length, 1, 'one table made');
  assert.deepEqual(lookupsOf(b), [tables[0]!.address], 'the transaction loads from it');
  assert.ok(!tables[0]!.addresses.includes(wallet.address), "never the user's own key");
  assert.ok(lamportsBefore > (await tableWallet.lamports()), 'the table wallet paid the rent');
  assert.ok(verifySwapAttestation(b, { pinnedPublicKey: pinned, userPublicKey: wallet.address, inputMint: WSOL_MINT, outputMint: mint }), 'the attestation verifies');
  const tx = VersionedTransaction.deserialize(Buffer.from(b.transaction, 'base64'));
  assert.ok(tx.serialize().length <= 1232);
  tx.sign([wallet.keypair]);
  const ata = await wallet.tokenAccountOf(mint);
  const before = await wallet.balance(ata);
  const r = await post(sut, '/v1/send', { transaction: Buffer.from(tx.serialize()).toString('base64') });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  await wallet.confirmed(r.body.signature as string);
  assert.equal((await wallet.balance(ata)) - before, BigInt(q.outAmount as string));
  const landed = await wallet.conn.getTransaction(r.body.signature as string, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
  assert.equal(landed?.meta?.err, null);
  assert.ok((landed?.meta?.loadedAddresses?.writable.length ?? 0) + (landed?.meta?.loadedAddresses?.readonly.length ?? 0) > 0, 'accounts were loaded from the table');
});

test('a second build over the same pools reuses the table (no new one); submitted as a bundle through /v1/swap', async () => {
  const [table] = await tablesOf(tableWallet.address);
  const q = await quote(sut);
  const b = await build(sut, q.quoteId);
  assert.deepEqual(lookupsOf(b), [table!.address]);
  assert.equal((await tablesOf(tableWallet.address)).length, 1);
  assert.ok(verifySwapAttestation(b, { pinnedPublicKey: pinned, userPublicKey: wallet.address, inputMint: WSOL_MINT, outputMint: mint }));
  const tx = VersionedTransaction.deserialize(Buffer.from(b.transaction, 'base64'));
  tx.sign([wallet.keypair]);
  const ata = await wallet.tokenAccountOf(mint);
  const before = await wallet.balance(ata);
  const r = await post(sut, '/v1/swap', { transaction: Buffer.from(tx.serialize()).toString('base64') });
  assert.deepEqual([r.status, r.body.status], [200, 'submitted'], JSON.stringify(r.body));
  await wallet.confirmed(r.body.signature as string);
  assert.equal((await wallet.balance(ata)) - before, BigInt(q.outAmount as string));
});

test('a restarted service finds its tables on chain and makes none', async () => {
  await sut.stop();
  sut = await start(tableWallet.keypair);
  const [table] = await tablesOf(tableWallet.address);
  const b = await build(sut, (await quote(sut)).quoteId);
  assert.deepEqual(lookupsOf(b), [table!.address]);
  assert.equal((await tablesOf(tableWallet.address)).length, 1);
});

test('concurrent builds over the same pools on a fresh table wallet make one table', async () => {
  const fresh = await TestWallet.funded(net.rpcUrl, Number(SOL));
  const other = await start(fresh.keypair);
  try {
    const quotes = [await quote(other), await quote(other), await quote(other)];
    const builds = await Promise.all(quotes.map((q) => build(other, q.quoteId)));
    const tables = await tablesOf(fresh.address);
    assert.equal(tables.length, 1, JSON.stringify(tables.map((t) => t.address)));
    for (const b of builds) assert.deepEqual(lookupsOf(b), [tables[0]!.address]);
  } finally {
    await other.stop();
  }
});

test('tables needed but the table wallet holds nothing: 400 TX_TOO_LARGE saying lookup tables are unavailable', async () => {
  const empty = Keypair.generate();
  const other = await start(empty);
  try {
    const q = await quote(other);
    const r = await post(other, '/v1/swap/build', { quoteId: q.quoteId, userPublicKey: wallet.address });
    assert.deepEqual([r.status, r.body.code], [400, 'TX_TOO_LARGE'], JSON.stringify(r.body));
    assert.match(r.body.details as string, /^\d+ bytes for 2 hop\(s\); address lookup tables are unavailable: the table wallet \S+ holds 0 lamports/);
    assert.deepEqual(await tablesOf(empty.publicKey.toBase58()), []);
  } finally {
    await other.stop();
  }
});
