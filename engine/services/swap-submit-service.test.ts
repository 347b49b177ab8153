/**
 * The submit's paths a real block engine does not produce on demand, over a fake engine: an answer lost after the
 * engine took the bundle, then a retry the engine refuses while it holds the bundle (the same submission, the id
 * Jito derives); an engine answering no tip accounts (SUBMISSION_FAILED, never a throw); a tip balance that cannot
 * be read does not stop submissions, and a low one is read again at once (funding takes effect immediately).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Keypair, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { EngineError } from '../errors.js';
import { bundleIdOf, type BundleEngine, type InflightBundleStatus } from '../tx/bundle-client.js';
import { SwapSubmitService } from './swap-submit-service.js';

const TIP_ACCOUNT = '96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5';

function signed(): { base64: string; signature: string } {
  const k = Keypair.generate();
  const message = new TransactionMessage({
    payerKey: k.publicKey,
    recentBlockhash: bs58.encode(new Uint8Array(32).fill(4)),
    instructions: [SystemProgram.transfer({ fromPubkey: k.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1 })],
  }).compileToV0Message();
  const tx = new VersionedTransaction(message);
  tx.sign([k]);
  return { base64: Buffer.from(tx.serialize()).toString('base64'), signature: bs58.encode(tx.signatures[0]!) };
}

/** An engine that holds what it was sent; `mode` decides its next sendBundle answer. */
class FakeEngine implements BundleEngine {
  mode: 'accept' | 'lose-answer' | 'refuse' = 'accept';
  tips: string[] = [TIP_ACCOUNT];
  readonly held = new Map<string, 'Pending' | 'Landed'>();
  sends = 0;
  async sendBundle(transactions: readonly Uint8Array[]): Promise<string> {
    this.sends++;
    const id = bundleIdOf(transactions.map((t) => bs58.encode(VersionedTransaction.deserialize(t).signatures[0]!)));
    if (this.mode === 'refuse' || (this.held.has(id) && this.mode !== 'accept')) throw new EngineError('RPC_ERROR', 'RPC sendBundle: bundle contains duplicate transactions', { code: -32602, data: null });
    this.held.set(id, 'Pending');
    if (this.mode === 'lose-answer') throw new EngineError('RPC_TIMEOUT', 'timed out');
    return id;
  }
  async inflightStatuses(ids: readonly string[]): Promise<InflightBundleStatus[]> {
    return ids.map((id) => ({ bundle_id: id, status: this.held.get(id) ?? 'Invalid', landed_slot: null }));
  }
  async tipAccounts(): Promise<readonly string[]> {
    return this.tips;
  }
}

test('an answer lost after the engine took the bundle: SUBMISSION_FAILED, then the retry is the same bundle', async () => {
  const engine = new FakeEngine();
  const svc = new SwapSubmitService({ bundles: { engine, tipPayer: Keypair.generate(), tipLamports: 10_000n } });
  const t = signed();
  engine.mode = 'lose-answer';
  const lost = await svc.submit(t.base64);
  assert.equal(lost.ok ? 'ok' : lost.code, 'SUBMISSION_FAILED');
  assert.equal(engine.held.size, 1);
  engine.mode = 'refuse';
  const retry = await svc.submit(t.base64);
  assert.ok(retry.ok, JSON.stringify(retry));
  assert.equal(retry.bundleId, [...engine.held.keys()][0], "the id Jito derives, the engine's own");
  // Remembered now: no third call.
  assert.deepEqual(await svc.submit(t.base64), retry);
  assert.equal(engine.sends, 2);
  // A refusal of a bundle the engine does not hold is the engine's refusal.
  const other = signed();
  const refused = await svc.submit(other.base64);
  assert.ok(!refused.ok && refused.code === 'BUNDLE_REJECTED' && refused.signature === other.signature);
  assert.deepEqual(refused.details, { rpcCode: -32602, reason: 'bundle contains duplicate transactions', data: null });
});

test('concurrent submits share one call; an engine without tip accounts is SUBMISSION_FAILED, not a throw', async () => {
  const engine = new FakeEngine();
  const svc = new SwapSubmitService({ bundles: { engine, tipPayer: Keypair.generate(), tipLamports: 10_000n } });
  const t = signed();
  const outs = await Promise.all([1, 2, 3].map(() => svc.submit(t.base64)));
  assert.equal(engine.sends, 1);
  assert.ok(outs.every((o) => o.ok && outs[0]!.ok && o.bundleId === outs[0]!.bundleId));
  engine.tips = [];
  const out = await svc.submit(signed().base64);
  assert.equal(out.ok ? 'ok' : out.code, 'SUBMISSION_FAILED');
});

test('tip balance: unreadable does not stop submissions; a low balance is read again at once', async () => {
  const engine = new FakeEngine();
  let balance: bigint | Error = new Error('node down');
  let reads = 0;
  const svc = new SwapSubmitService({
    bundles: {
      engine,
      tipPayer: Keypair.generate(),
      tipLamports: 10_000n,
      tipBalance: async () => {
        reads++;
        if (balance instanceof Error) throw balance;
        return balance;
      },
    },
    now: () => 0,
  });
  assert.ok((await svc.submit(signed().base64)).ok, 'unreadable: submitted');
  balance = 14_999n;
  const low = await svc.submit(signed().base64);
  assert.ok(!low.ok && low.code === 'BUNDLE_REJECTED');
  assert.deepEqual((low as { details: unknown }).details, { reason: 'tip wallet underfunded', tipPayer: svc.tipPayerAddress, balance: '14999', needed: '15000' });
  balance = 15_000n;
  const readsBefore = reads;
  assert.ok((await svc.submit(signed().base64)).ok, 'funded: read again although the clock did not move');
  assert.equal(reads, readsBefore + 1);
  await svc.submit(signed().base64);
  assert.equal(reads, readsBefore + 1, 'a sufficient balance is trusted for the TTL');
});
