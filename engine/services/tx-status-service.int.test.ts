/**
 * The transaction status service against the localnet's JSON-RPC (a real node protocol, nothing faked): a landed
 * transfer goes confirmed -> finalized with its fee and compute units, a transaction that fails on chain is
 * `failed` with the program's error, an unknown signature is `not_found`, a node that cannot be reached is `error`,
 * and a finalized answer is served from the cache without asking the node again.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Connection, Keypair, LAMPORTS_PER_SOL, SystemProgram, Transaction, type TransactionSignature } from '@solana/web3.js';
import bs58 from 'bs58';
import { RpcClient } from '../chain/rpc-client.js';
import { startLocalnet, type Localnet } from '../../fixtures/localnet/start-localnet.js';
import { TxStatusService, type TxStatus } from './tx-status-service.js';

let net: Localnet;
let conn: Connection;
const payer = Keypair.generate();
let calls = 0;
let svc: TxStatusService;

before(async () => {
  net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 50 });
  conn = new Connection(net.rpcUrl, 'confirmed');
  const rpc = new RpcClient(net.rpcUrl, { retries: 0, timeoutMs: 5000 });
  // Counts node calls (the cache test reads it); every call still goes to the real node.
  svc = new TxStatusService({ call: (m, p) => { calls++; return rpc.call(m, p); } });
  const sig = await conn.requestAirdrop(payer.publicKey, 2 * LAMPORTS_PER_SOL);
  await until(sig, (s) => s.status === 'confirmed' || s.status === 'finalized');
});
after(async () => net?.stop());

async function until(sig: string, done: (s: TxStatus) => boolean, s0 = svc): Promise<TxStatus> {
  const t0 = Date.now();
  for (;;) {
    const s = await s0.status(sig);
    if (done(s)) return s;
    if (Date.now() - t0 > 20_000) throw new Error(`${sig}: still ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function transfer(lamports: number): Promise<TransactionSignature> {
  const tx = new Transaction().add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports }));
  tx.recentBlockhash = (await conn.getLatestBlockhash()).blockhash;
  tx.feePayer = payer.publicKey;
  tx.sign(payer);
  return conn.sendRawTransaction(tx.serialize(), { skipPreflight: true });
}

test('a landed transfer: confirmed with fee and compute units, then finalized (confirmations null), then cached', async () => {
  const sig = await transfer(1_000_000);
  const c = await until(sig, (s) => s.status === 'confirmed' || s.status === 'finalized');
  const onChain = await conn.getTransaction(sig, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
  assert.ok(onChain?.meta);
  assert.equal(c.status === 'confirmed' || c.status === 'finalized' ? c.fee : -1, onChain.meta.fee);
  assert.ok('slot' in c && c.slot === onChain.slot && c.error === null && typeof c.computeUnits === 'number');
  const f = await until(sig, (s) => s.status === 'finalized');
  assert.deepEqual(Object.keys(f), ['signature', 'status', 'confirmationStatus', 'slot', 'confirmations', 'error', 'fee', 'computeUnits']);
  assert.ok('confirmations' in f && f.confirmations === null && f.confirmationStatus === 'finalized');
  const before = calls;
  assert.deepEqual(await svc.status(sig), f);
  assert.equal(calls, before, 'a finalized answer is served from the cache');
});

test('a transaction that fails on chain is failed, with the program error as JSON', async () => {
  const sig = await transfer(50 * LAMPORTS_PER_SOL);
  const s = await until(sig, (x) => x.status !== 'not_found');
  assert.equal(s.status, 'failed');
  assert.ok('error' in s && s.error !== null && s.error.length > 0, JSON.stringify(s));
  assert.ok('fee' in s && (s.fee === null || s.fee > 0));
});

test('an unknown signature is not_found with a reason; an unreachable node is error', async () => {
  const unknown = bs58.encode(new Uint8Array(64).fill(9));
  const s = await svc.status(unknown);
  assert.equal(s.status, 'not_found');
  assert.ok('reason' in s && s.reason.length > 0);
  const dead = new TxStatusService(new RpcClient('http://127.0.0.1:9', { retries: 0, timeoutMs: 1000 }));
  const e = await dead.status(unknown);
  assert.equal(e.status, 'error');
  assert.deepEqual(Object.keys(e), ['signature', 'status', 'reason']);
});
