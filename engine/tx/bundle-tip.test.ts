/**
 * The bundle pieces of `POST /v1/swap` without a cluster: Jito's bundle id (its documented example), the engine
 * URL, the tip transaction (derived only from the caller's transaction: same input, same bytes; another caller,
 * another transaction), the tip account pick, the idempotency memory's expiry and bound, the tip wallet key.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Keypair, SystemProgram } from '@solana/web3.js';
import bs58 from 'bs58';
import { bundleEndpoint, bundleIdOf } from './bundle-client.js';
import { RecentBundles } from './recent-bundles.js';
import { loadTipPayerKey, TIP_PAYER_KEY_FILE_NAME } from './tip-payer-key.js';
import { buildTipTransaction, MEMO_V1_PROGRAM_ID, tipAccountFor } from './tip-transaction.js';

const TIPS = ['96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5', 'HFqU5x63VTqvQss8hp11i4wVV8bD44PvwucfZ2bU7gRe', 'Cw8CFyM9FkoMi7K7Crf6HNQqf4uEMzpKw6QNghXLvLkY'];

test("bundle id: Jito's documented example; the engine URL", () => {
  const id = bundleIdOf([
    '3bC2M9fiACSjkTXZDgeNAuQ4ScTsdKGwR42ytFdhUvikqTmBheUxfsR1fDVsM5ADCMMspuwGkdm1uKbU246x5aE3',
    '8t9hKYEYNbLvNqiSzP96S13XF1C2f1ro271Kdf7bkZ6EpjPLuDff1ywRy4gfaGSTubsM2FeYGDoT64ZwPm1cQUt',
  ]);
  assert.equal(id, '892b79ed49138bfb3aa5441f0df6e06ef34f9ee8f3976c15b323605bae0cf51d');
  assert.equal(bundleEndpoint('https://mainnet.block-engine.jito.wtf'), 'https://mainnet.block-engine.jito.wtf/api/v1/bundles');
  assert.equal(bundleEndpoint('http://127.0.0.1:10001/'), 'http://127.0.0.1:10001/api/v1/bundles');
  assert.equal(bundleEndpoint('http://h/api/v1/bundles'), 'http://h/api/v1/bundles');
});

test('tip transaction: derived from the caller transaction only; a different caller gets a different one', () => {
  const payer = Keypair.generate();
  const blockhash = bs58.encode(new Uint8Array(32).fill(3));
  const sigA = bs58.encode(new Uint8Array(64).fill(1));
  const sigB = bs58.encode(new Uint8Array(64).fill(2));
  const build = (forSignature: string) =>
    buildTipTransaction({ payer, tipAccount: TIPS[0]!, lamports: 10_000n, recentBlockhash: blockhash, forSignature });
  const a1 = build(sigA);
  assert.deepEqual(a1.serialize(), build(sigA).serialize(), 'deterministic: the same bundle id on a resubmit');
  assert.notDeepEqual(a1.signatures[0], build(sigB).signatures[0], 'two callers with one blockhash: two tip transactions');
  assert.equal(a1.message.recentBlockhash, blockhash);
  assert.equal(a1.message.staticAccountKeys[0]!.toBase58(), payer.publicKey.toBase58(), 'the tip wallet pays the fee');
  const [transfer, memo] = a1.message.compiledInstructions;
  const keys = a1.message.staticAccountKeys;
  assert.equal(keys[transfer!.programIdIndex]!.toBase58(), SystemProgram.programId.toBase58());
  assert.equal(keys[transfer!.accountKeyIndexes[1]!]!.toBase58(), TIPS[0]);
  assert.equal(Buffer.from(transfer!.data).readBigUInt64LE(4), 10_000n);
  assert.ok(a1.message.isAccountWritable(transfer!.accountKeyIndexes[1]!), 'the tip account is write-locked (Jito requires it)');
  assert.equal(keys[memo!.programIdIndex]!.toBase58(), MEMO_V1_PROGRAM_ID.toBase58());
  assert.equal(Buffer.from(memo!.data).toString('utf8'), `tip ${sigA}`);
});

test('tip account: picked from the signature, always one of the list', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 64; i++) {
    const sig = new Uint8Array(64).fill(i);
    const pick = tipAccountFor(TIPS, sig);
    assert.equal(pick, tipAccountFor(TIPS, sig));
    assert.ok(TIPS.includes(pick));
    seen.add(pick);
  }
  assert.equal(seen.size, TIPS.length, 'spread over every account');
  assert.throws(() => tipAccountFor([], new Uint8Array(64)));
});

test('recent bundles: answered within the TTL, forgotten after it, bounded by max (oldest first)', () => {
  let now = 0;
  const r = new RecentBundles({ ttlMs: 1000, max: 3, now: () => now });
  r.set('a', 'A');
  assert.equal(r.get('a'), 'A');
  now = 999;
  assert.equal(r.get('a'), 'A');
  now = 1000;
  assert.equal(r.get('a'), undefined);
  assert.equal(r.size, 0);
  for (const k of ['b', 'c', 'd', 'e']) r.set(k, k.toUpperCase());
  assert.equal(r.size, 3);
  assert.equal(r.get('b'), undefined, 'the oldest went first');
  assert.equal(r.get('e'), 'E');
  now = 1500;
  r.set('f', 'F');
  now = 2400;
  r.set('g', 'G');
  assert.deepEqual(['c', 'd', 'e', 'f', 'g'].map((k) => r.get(k) ?? null), [null, null, null, 'F', 'G'], 'expired entries dropped on set');
});

test('tip wallet key: from TIP_PAYER_SECRET_KEY, else generated once into DATA_DIR and kept', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tip-key-'));
  try {
    const first = loadTipPayerKey(dir, undefined);
    assert.equal(first.source, 'generated');
    assert.equal(statSync(join(dir, TIP_PAYER_KEY_FILE_NAME)).mode & 0o777, 0o600);
    const again = loadTipPayerKey(dir, undefined);
    assert.equal(again.source, 'data-dir');
    assert.equal(again.keypair.publicKey.toBase58(), first.keypair.publicKey.toBase58());
    assert.equal((JSON.parse(readFileSync(join(dir, TIP_PAYER_KEY_FILE_NAME), 'utf8')) as number[]).length, 64);
    const k = Keypair.generate();
    const fromEnv = loadTipPayerKey(dir, bs58.encode(k.secretKey));
    assert.deepEqual([fromEnv.source, fromEnv.keypair.publicKey.toBase58()], ['env', k.publicKey.toBase58()]);
    assert.throws(() => loadTipPayerKey(dir, 'not-base58-0OIl'), /TIP_PAYER_SECRET_KEY: not base58/);
    assert.throws(() => loadTipPayerKey(dir, bs58.encode(new Uint8Array(10))), /32 or 64 bytes/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
