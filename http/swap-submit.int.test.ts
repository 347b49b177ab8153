/**
 * POST /v1/swap on the whole service over the localnet, its block engine wired by BLOCK_ENGINE_URL and a funded
 * tip wallet (TIP_PAYER_SECRET_KEY): 200 `{ status: 'submitted', signature, bundleId }`, the transaction lands, the
 * same bytes again answer the same body without a second bundle; every refusal carries `signature` (400 TX_*,
 * 502 BUNDLE_REJECTED with the engine's reason); a service without BLOCK_ENGINE_URL answers 503
 * BUNDLE_UNAVAILABLE with Retry-After. The key's transaction stream shows the submission `landed` (Geyser) first.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Keypair, LAMPORTS_PER_SOL, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { startLocalnet } from '../fixtures/localnet/start-localnet.js';
import { startServiceUnderTest, TEST_DEMO_KEY, type ServiceUnderTest } from './testing/service-under-test.js';
import { openSse } from './testing/sse-reader.js';
import { TestWallet } from './testing/test-wallet.js';
import { eventually } from './testing/wait.js';

let sut: ServiceUnderTest;
let plain: ServiceUnderTest;
let user: TestWallet;

before(async () => {
  // A landed signal 150 ms before processed visibility, as on a real cluster (in process it defaults to 0: a
  // transaction would land inside sendBundle, before a freshly added fee payer's filter could reach the stream).
  const net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 100, landingDelayMs: 400 });
  const tip = await TestWallet.funded(net.rpcUrl, LAMPORTS_PER_SOL);
  user = await TestWallet.funded(net.rpcUrl, LAMPORTS_PER_SOL);
  sut = await startServiceUnderTest({ BLOCK_ENGINE_URL: net.blockEngineUrl, TIP_PAYER_SECRET_KEY: bs58.encode(tip.keypair.secretKey) }, net);
  plain = await startServiceUnderTest({}, net);
  // The landed signal before processed (0 in process by default), and the geyser streams open before any submit.
  net.ledger.landingDelayMs = 400;
  await eventually(() => assert.ok(sut.svc.txSignals?.watching, 'geyser streams open'));
});
after(async () => {
  await plain?.stop();
  await sut?.stop();
  await sut?.net.stop();
});

async function signedTransfer(blockhash?: string): Promise<{ base64: string; signature: string }> {
  const from = user.keypair;
  const message = new TransactionMessage({
    payerKey: from.publicKey,
    recentBlockhash: blockhash ?? (await user.conn.getLatestBlockhash()).blockhash,
    instructions: [SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1_000_000 })],
  }).compileToV0Message();
  const tx = new VersionedTransaction(message);
  tx.sign([from]);
  return { base64: Buffer.from(tx.serialize()).toString('base64'), signature: bs58.encode(tx.signatures[0]!) };
}

async function submit(base: string, body: unknown): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const res = await fetch(`${base}/v1/swap`, {
    method: 'POST',
    headers: { 'x-api-key': TEST_DEMO_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

test('a signed transaction is submitted (200), lands, and submitting it again is the same submission', async () => {
  const t = await signedTransfer();
  const received = sut.net.blockEngine.stats().received;
  const first = await submit(sut.base, { transaction: t.base64 });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(first.body.status, 'submitted');
  assert.equal(first.body.signature, t.signature);
  assert.match(String(first.body.bundleId), /^[0-9a-f]{64}$/);
  await user.confirmed(t.signature);
  const again = await submit(sut.base, { transaction: t.base64 });
  assert.deepEqual([again.status, again.body], [200, first.body]);
  assert.equal(sut.net.blockEngine.stats().received, received + 1, 'one bundle');
});

test('the key\'s transaction stream shows a submitted swap landed (geyser), then processed and confirmed', async () => {
  const s = await openSse(`${sut.base}/v1/stream/tx`, { 'x-api-key': TEST_DEMO_KEY });
  try {
    assert.equal(s.status, 200);
    const t = await signedTransfer();
    const r = await submit(sut.base, { transaction: t.base64 });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const evs: { event: string; source: string }[] = [];
    while (!evs.some((e) => e.event === 'confirmed')) {
      const e = await s.next(20_000);
      const d = e.data as { signature?: string; source?: string };
      if (e.event !== 'ready' && d.signature === t.signature) evs.push({ event: e.event, source: d.source ?? '' });
    }
    assert.deepEqual(evs.map((e) => e.event), ['landed', 'processed', 'confirmed']);
    assert.equal(evs[0]!.source, 'geyser');
  } finally {
    s.close();
  }
});

test('every refusal carries signature: TX_* 400, BUNDLE_REJECTED 502, BUNDLE_UNAVAILABLE 503', async () => {
  const noBody = await submit(sut.base, {});
  assert.deepEqual([noBody.status, noBody.body.code, noBody.body.signature], [400, 'INVALID_REQUEST', null]);
  const garbage = await submit(sut.base, { transaction: 'not base64!' });
  assert.deepEqual([garbage.status, garbage.body.code, garbage.body.signature], [400, 'TX_INVALID', null]);
  const big = await submit(sut.base, { transaction: Buffer.alloc(1300, 1).toString('base64') });
  assert.deepEqual([big.status, big.body.code], [400, 'TX_TOO_LARGE']);
  assert.ok('signature' in big.body);
  const t = await signedTransfer();
  const unsigned = Buffer.from(t.base64, 'base64');
  unsigned.fill(0, 1, 65);
  const u = await submit(sut.base, { transaction: unsigned.toString('base64') });
  assert.deepEqual([u.status, u.body.code, u.body.signature], [400, 'TX_UNSIGNED', null]);
  const stale = await signedTransfer(bs58.encode(new Uint8Array(32).fill(9)));
  const r = await submit(sut.base, { transaction: stale.base64 });
  assert.deepEqual([r.status, r.body.code, r.body.signature], [502, 'BUNDLE_REJECTED', stale.signature]);
  assert.match(String(r.body.details), /expired blockhash/);
  const n = await submit(plain.base, { transaction: t.base64 });
  assert.deepEqual([n.status, n.body.code, n.body.signature], [503, 'BUNDLE_UNAVAILABLE', t.signature]);
  assert.ok(n.headers.get('retry-after'));
});
