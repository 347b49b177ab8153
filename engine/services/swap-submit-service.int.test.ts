/**
 * Submitting against the localnet's Jito block engine (the real bundle protocol): a signed transfer is submitted
 * as a tipped bundle and lands whole (the transfer and the tip in one slot); the same bytes again, at once or later,
 * are the same submission and no second bundle; a service that forgot the submission still answers the same
 * bundle; the engine's refusals are BUNDLE_REJECTED with its reason; an empty tip wallet is refused before the
 * engine (which would accept the bundle, then drop it at its auction: shown); no engine configured is
 * BUNDLE_UNAVAILABLE; an unreachable engine is SUBMISSION_FAILED; malformed, unsigned and oversize transactions
 * are refused first.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { startLocalnet, type Localnet } from '../../fixtures/localnet/start-localnet.js';
import { BundleClient, type InflightBundleStatus } from '../tx/bundle-client.js';
import { SwapSubmitService, type BundleSetup, type SwapSubmitOutcome } from './swap-submit-service.js';
import { landed } from './testing/landed.js';
import { badTransactionCases } from '../tx/testing/bad-transactions.js';

const TIP = 10_000n;
let net: Localnet;
let conn: Connection;
let client: BundleClient;
let svc: SwapSubmitService;
const payer = Keypair.generate();
const tipPayer = Keypair.generate();

const balanceOf = async (address: string): Promise<bigint> => BigInt(await conn.getBalance(new PublicKey(address), 'confirmed'));

function setup(over: Partial<BundleSetup> = {}): BundleSetup {
  return { engine: client, tipPayer, tipLamports: TIP, tipBalance: balanceOf, ...over };
}

before(async () => {
  net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 50 });
  conn = new Connection(net.rpcUrl, 'confirmed');
  client = new BundleClient(net.blockEngineUrl);
  svc = new SwapSubmitService({ bundles: setup() });
  for (const k of [payer, tipPayer]) await landed(conn, await conn.requestAirdrop(k.publicKey, 2 * LAMPORTS_PER_SOL));
});
after(async () => {
  await net?.stop();
});


/** The bundle's in-flight status once it left Pending (or Pending after 10 s). */
async function settled(bundleId: string): Promise<InflightBundleStatus> {
  const t0 = Date.now();
  for (;;) {
    const [s] = await client.inflightStatuses([bundleId]);
    if (s!.status !== 'Pending' || Date.now() - t0 > 10_000) return s!;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function signedTransfer(lamports: number, opts: { blockhash?: string; to?: PublicKey; from?: Keypair } = {}): Promise<{ base64: string; signature: string }> {
  const from = opts.from ?? payer;
  const message = new TransactionMessage({
    payerKey: from.publicKey,
    recentBlockhash: opts.blockhash ?? (await conn.getLatestBlockhash()).blockhash,
    instructions: [SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: opts.to ?? Keypair.generate().publicKey, lamports })],
  }).compileToV0Message();
  const tx = new VersionedTransaction(message);
  tx.sign([from]);
  return { base64: Buffer.from(tx.serialize()).toString('base64'), signature: bs58.encode(tx.signatures[0]!) };
}

function codeOf(out: SwapSubmitOutcome): string {
  return out.ok ? 'ok' : out.code;
}

test('a signed transfer is submitted as a tipped bundle and lands; the same bytes again are the same bundle', async () => {
  const to = Keypair.generate().publicKey;
  const t = await signedTransfer(1_000_000, { to });
  const tipsBefore = await Promise.all((await client.tipAccounts()).map((a) => balanceOf(a)));
  const before = net.blockEngine.stats();
  const out = await svc.submit(t.base64);
  assert.ok(out.ok, JSON.stringify(out));
  assert.equal(out.signature, t.signature);
  assert.match(out.bundleId, /^[0-9a-f]{64}$/);
  assert.equal(net.blockEngine.stats().received, before.received + 1);
  const s = await settled(out.bundleId);
  assert.equal(s.status, 'Landed', JSON.stringify(s));
  await landed(conn, t.signature);
  // getBundleStatuses: both transactions, the caller's first, in the slot it reported.
  const [status] = (await (await fetch(`${net.blockEngineUrl}/api/v1/bundles`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBundleStatuses', params: [[out.bundleId]] }),
  }).then((r) => r.json())) as { result: { value: { transactions: string[]; slot: number }[] } }).result.value;
  assert.equal(status!.transactions.length, 2);
  assert.equal(status!.transactions[0], t.signature);
  assert.equal(status!.slot, s.landed_slot);
  assert.equal(await conn.getBalance(to, 'confirmed'), 1_000_000);
  // One tip account got exactly the tip.
  const tipsAfter = await Promise.all((await client.tipAccounts()).map((a) => balanceOf(a)));
  assert.deepEqual(tipsAfter.map((b, i) => b - tipsBefore[i]!).filter((d) => d !== 0n), [TIP]);
  // Again: the same answer, no second bundle.
  assert.deepEqual(await svc.submit(t.base64), out);
  assert.equal(net.blockEngine.stats().received, before.received + 1);
  // A service that forgot it (another instance, a restart): the engine refuses the landed transaction, yet holds
  // the bundle, so the answer is the same bundle and nothing lands twice.
  const other = new SwapSubmitService({ bundles: setup() });
  const rejected = net.blockEngine.stats().rejected;
  const again = await other.submit(t.base64);
  assert.deepEqual(again, out);
  assert.equal(net.blockEngine.stats().rejected, rejected + 1, 'the engine refused it as already processed');
  assert.equal(net.blockEngine.stats().landed, before.landed + 1);
  assert.equal(await conn.getBalance(to, 'confirmed'), 1_000_000);
});

test('two submits of the same bytes at once are one bundle; two transactions with one blockhash are two bundles', async () => {
  const { blockhash } = await conn.getLatestBlockhash();
  const a = await signedTransfer(1_000_000, { blockhash });
  const b = await signedTransfer(1_000_000, { blockhash });
  const before = net.blockEngine.stats().received;
  const [x, y, z] = await Promise.all([svc.submit(a.base64), svc.submit(a.base64), svc.submit(b.base64)]);
  assert.ok(x.ok && y.ok && z.ok, JSON.stringify([x, y, z]));
  assert.equal(x.bundleId, y.bundleId);
  assert.notEqual(x.bundleId, z.bundleId);
  assert.equal(net.blockEngine.stats().received, before + 2);
  assert.equal((await settled(x.bundleId)).status, 'Landed', net.blockEngine.engine.bundles.get(x.bundleId)?.failure ?? '');
  assert.equal((await settled(z.bundleId)).status, 'Landed');
});

test("the engine's refusals are BUNDLE_REJECTED with its reason and the signature", async () => {
  // A blockhash the chain never had: Jito refuses the bundle at once.
  const stale = await signedTransfer(1000, { blockhash: bs58.encode(new Uint8Array(32).fill(7)) });
  const out = await svc.submit(stale.base64);
  assert.equal(codeOf(out), 'BUNDLE_REJECTED', JSON.stringify(out));
  assert.ok(!out.ok && out.signature === stale.signature);
  assert.match(JSON.stringify(!out.ok && out.details), /expired blockhash/);
  // A signature that does not verify (not all zeros, so not TX_UNSIGNED).
  const t = await signedTransfer(1000);
  const raw = Buffer.from(t.base64, 'base64');
  raw[10] = raw[10]! ^ 0xff;
  const bad = await svc.submit(raw.toString('base64'));
  assert.equal(codeOf(bad), 'BUNDLE_REJECTED', JSON.stringify(bad));
  assert.match(JSON.stringify(!bad.ok && bad.details), /is invalid/);
  // Refused submissions are not remembered: nothing was submitted.
  assert.equal(codeOf(await svc.submit(stale.base64)), 'BUNDLE_REJECTED');
});

test('an empty tip wallet is refused before the engine; unchecked, the engine accepts the bundle and drops it', async () => {
  const empty = Keypair.generate();
  const checked = new SwapSubmitService({ bundles: setup({ tipPayer: empty }) });
  const t = await signedTransfer(1_000_000);
  const before = net.blockEngine.stats().received;
  const out = await checked.submit(t.base64);
  assert.equal(codeOf(out), 'BUNDLE_REJECTED', JSON.stringify(out));
  assert.ok(!out.ok && out.signature === t.signature);
  assert.match(JSON.stringify(!out.ok && out.details), /tip wallet underfunded/);
  assert.equal(net.blockEngine.stats().received, before, 'nothing reached the engine');
  // Why the check: without it the engine answers a bundle id, then the auction drops the bundle whole.
  const unchecked = new SwapSubmitService({ bundles: { engine: client, tipPayer: empty, tipLamports: TIP } });
  const sent = await unchecked.submit(t.base64);
  assert.ok(sent.ok, JSON.stringify(sent));
  assert.equal((await settled(sent.bundleId)).status, 'Failed');
  assert.match(net.blockEngine.engine.bundles.get(sent.bundleId)?.failure ?? '', /^transaction 1 .*failed/, 'the tip transaction (second) failed');
  const { value } = await conn.getSignatureStatuses([t.signature], { searchTransactionHistory: true });
  assert.equal(value[0], null, "the caller's transaction did not land either");
});

test('no engine configured is BUNDLE_UNAVAILABLE; an unreachable engine is SUBMISSION_FAILED; bad bytes are refused first', async () => {
  const t = await signedTransfer(1000);
  const none = await new SwapSubmitService({ bundles: null }).submit(t.base64);
  assert.equal(codeOf(none), 'BUNDLE_UNAVAILABLE');
  assert.ok(!none.ok && none.signature === t.signature);
  const dead = new SwapSubmitService({ bundles: setup({ engine: new BundleClient('http://127.0.0.1:9', { timeoutMs: 1000 }) }) });
  const out = await dead.submit(t.base64);
  assert.equal(codeOf(out), 'SUBMISSION_FAILED', JSON.stringify(out));
  assert.ok(!out.ok && out.signature === t.signature);
  const cases = badTransactionCases(t.base64);
  const received = net.blockEngine.stats().received;
  for (const [body, code] of cases) {
    assert.equal(codeOf(await svc.submit(body)), code, String(body).slice(0, 40));
    assert.equal(codeOf(await new SwapSubmitService({ bundles: null }).submit(body)), code, 'checked before the configuration');
  }
  assert.equal(net.blockEngine.stats().received, received);
});
