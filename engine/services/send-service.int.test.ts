/**
 * Sending against the localnet's JSON-RPC (the real node protocol): a signed transfer is sent and lands; the same
 * bytes again are the same send; the node's preflight refusal is SEND_FAILED with its reason; malformed, unsigned
 * and oversize transactions are refused before the node; an unreachable node is SUBMISSION_FAILED. The
 * rebroadcaster sends a tracked transaction the node has not seen until it lands, and drops one whose blockhash
 * the node no longer knows.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Connection, Keypair, LAMPORTS_PER_SOL, SystemProgram, TransactionMessage, VersionedTransaction, type PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import { RpcClient } from '../chain/rpc-client.js';
import { startLocalnet, type Localnet } from '../../fixtures/localnet/start-localnet.js';
import { Rebroadcaster, type RebroadcastEnd } from '../tx/rebroadcaster.js';
import { SendService } from './send-service.js';
import { landed } from './testing/landed.js';
import { badTransactionCases } from '../tx/testing/bad-transactions.js';

let net: Localnet;
let conn: Connection;
let rpc: RpcClient;
let rebroadcaster: Rebroadcaster;
let svc: SendService;
const ends: [string, RebroadcastEnd][] = [];
const payer = Keypair.generate();

before(async () => {
  net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 50 });
  conn = new Connection(net.rpcUrl, 'confirmed');
  rpc = new RpcClient(net.rpcUrl, { retries: 0, timeoutMs: 5000 });
  // A long period: the tests drive rounds by hand.
  rebroadcaster = new Rebroadcaster(rpc, { periodMs: 3_600_000, onEnd: (s, e) => ends.push([s, e]) });
  svc = new SendService(rpc, rebroadcaster);
  const sig = await conn.requestAirdrop(payer.publicKey, 2 * LAMPORTS_PER_SOL);
  await landed(conn, sig);
});
after(async () => {
  rebroadcaster?.close();
  await net?.stop();
});


async function signedTransfer(lamports: number, blockhash?: string, to: PublicKey = Keypair.generate().publicKey): Promise<{ base64: string; signature: string }> {
  const message = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: blockhash ?? (await conn.getLatestBlockhash()).blockhash,
    instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports })],
  }).compileToV0Message();
  const tx = new VersionedTransaction(message);
  tx.sign([payer]);
  return { base64: Buffer.from(tx.serialize()).toString('base64'), signature: bs58.encode(tx.signatures[0]!) };
}

test('a signed transfer is sent and lands; sending the same bytes again is the same send', async () => {
  const to = Keypair.generate().publicKey;
  const t = await signedTransfer(1_000_000, undefined, to);
  assert.deepEqual(await svc.send(t.base64), { ok: true, signature: t.signature });
  assert.equal(rebroadcaster.has(t.signature), true);
  assert.deepEqual(await svc.send(t.base64), { ok: true, signature: t.signature }, 'while tracked');
  await landed(conn, t.signature);
  await rebroadcaster.round();
  assert.equal(rebroadcaster.has(t.signature), false);
  assert.deepEqual(ends.find(([s]) => s === t.signature), [t.signature, 'landed']);
  // After it landed and left the set, the node says AlreadyProcessed: still the same send, nothing moves twice.
  assert.deepEqual(await svc.send(t.base64), { ok: true, signature: t.signature }, 'after it landed');
  assert.equal(rebroadcaster.has(t.signature), false, 'the node answered AlreadyProcessed: not sent again');
  assert.equal(await conn.getBalance(to, 'confirmed'), 1_000_000);
});

test('the node refusing the transaction in preflight is SEND_FAILED with its reason and the signature', async () => {
  const t = await signedTransfer(100 * LAMPORTS_PER_SOL);
  const out = await svc.send(t.base64);
  assert.equal(out.ok, false);
  assert.ok(!out.ok && out.code === 'SEND_FAILED' && out.signature === t.signature);
  assert.ok(!out.ok && out.details !== undefined && (out.details as { err: unknown }).err !== null, JSON.stringify(out));
  assert.equal(rebroadcaster.has(t.signature), false);
});

test('malformed, unsigned and oversize transactions are refused before the node; a dead node is SUBMISSION_FAILED', async () => {
  const t = await signedTransfer(1000);
  const cases = badTransactionCases(t.base64);
  for (const [body, code] of cases) {
    const out = await svc.send(body);
    assert.equal(out.ok ? 'ok' : out.code, code, String(body).slice(0, 40));
  }
  const dead = new SendService(new RpcClient('http://127.0.0.1:9', { retries: 0, timeoutMs: 1000 }), rebroadcaster);
  const out = await dead.send(t.base64);
  assert.ok(!out.ok && out.code === 'SUBMISSION_FAILED' && out.signature === t.signature);
});

test('rebroadcast: a tracked transaction the node never saw is sent until it lands; one with a dead blockhash is dropped', async () => {
  const to = Keypair.generate().publicKey;
  const t = await signedTransfer(2_000_000, undefined, to);
  const { blockhash } = await conn.getLatestBlockhash();
  assert.equal(rebroadcaster.track(t.signature, t.base64, blockhash, null), true);
  assert.equal(rebroadcaster.track(t.signature, t.base64, blockhash, null), false, 'tracked once');
  const resent = rebroadcaster.stats.resent;
  await rebroadcaster.round();
  assert.equal(rebroadcaster.stats.resent, resent + 1);
  await landed(conn, t.signature);
  await rebroadcaster.round();
  assert.deepEqual(ends.find(([s]) => s === t.signature), [t.signature, 'landed']);
  assert.equal(await conn.getBalance(to, 'confirmed'), 2_000_000);
  const stale = await signedTransfer(1000, bs58.encode(new Uint8Array(32).fill(5)));
  rebroadcaster.track(stale.signature, stale.base64, bs58.encode(new Uint8Array(32).fill(5)), null);
  await rebroadcaster.round();
  assert.deepEqual(ends.find(([s]) => s === stale.signature), [stale.signature, 'expired']);
  // A known last valid block height below the chain's: expired without asking about the blockhash.
  const h = await conn.getBlockHeight('confirmed');
  const old = await signedTransfer(1000);
  rebroadcaster.track(old.signature, old.base64, 'unused', h - 1);
  await rebroadcaster.round();
  assert.deepEqual(ends.find(([s]) => s === old.signature), [old.signature, 'expired']);
});
