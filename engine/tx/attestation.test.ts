import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Keypair, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { ATTESTATION_MESSAGE_BYTES, decodeAttestation, encodeAttestation, type AttestedSwap } from './attestation-layout.js';
import { ATTESTATION_KEY_FILE_NAME, loadAttestationKey } from './attestation-key.js';
import { AttestationSigner, messageHash } from './attestation-signer.js';
import { verifySwapAttestation, type SwapBuild } from './example/verify-attestation.js';

const user = Keypair.generate();
const inputMint = new PublicKey('So11111111111111111111111111111111111111112');
const outputMint = new PublicKey('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
const NOW = 1_800_000_000_000;

/** A real unsigned v0 transaction paid by `payer`. */
function transaction(payer: PublicKey, lamports: number): string {
  const message = new TransactionMessage({
    payerKey: payer,
    recentBlockhash: bs58.encode(new Uint8Array(32).fill(7)),
    instructions: [SystemProgram.transfer({ fromPubkey: payer, toPubkey: Keypair.generate().publicKey, lamports })],
  }).compileToV0Message();
  return Buffer.from(new VersionedTransaction(message).serialize()).toString('base64');
}

function fields(tx: string, over: Partial<AttestedSwap> = {}): AttestedSwap {
  return {
    quoteId: `q_${'ab'.repeat(16)}`,
    messageHash: messageHash(VersionedTransaction.deserialize(Buffer.from(tx, 'base64')).message.serialize()),
    user: user.publicKey.toBytes(),
    inputMint: inputMint.toBytes(),
    outputMint: outputMint.toBytes(),
    swapMode: 'ExactIn',
    inAmount: 1_000_000_000n,
    outAmount: 150_123_456n,
    minOutAmount: 149_372_838n,
    maxInAmount: 1_000_000_000n,
    expiresAt: NOW + 30_000,
    ...over,
  };
}

const signer = new AttestationSigner(loadAttestationKey(mkdtempSync(join(tmpdir(), 'att-'))));

function build(tx = transaction(user.publicKey, 5000)): SwapBuild {
  const f = fields(tx);
  return {
    transaction: tx, quoteId: f.quoteId, inAmount: f.inAmount.toString(), outAmount: f.outAmount.toString(),
    minOutAmount: f.minOutAmount.toString(), attestation: signer.attest(f),
  };
}

const expected = {
  pinnedPublicKey: signer.publicKey.publicKey, userPublicKey: user.publicKey.toBase58(), inputMint: inputMint.toBase58(),
  outputMint: outputMint.toBase58(), nowMs: NOW,
};

test('the v1 message is 225 bytes at the documented offsets and decodes to what was encoded', () => {
  const f = fields(transaction(user.publicKey, 1));
  const m = encodeAttestation(f);
  assert.equal(m.length, ATTESTATION_MESSAGE_BYTES);
  assert.equal(Buffer.from(m.subarray(0, 22)).toString('latin1'), 'svc-swap-attestationv1');
  assert.equal(Buffer.from(m.subarray(22, 56)).toString('latin1'), f.quoteId);
  assert.deepEqual(m.subarray(88, 120), f.user);
  assert.equal(Buffer.from(m).readBigUInt64LE(193), f.outAmount);
  assert.equal(Buffer.from(m).readBigUInt64LE(217), BigInt(f.expiresAt));
  assert.deepEqual(decodeAttestation(m), f);
  const out = encodeAttestation({ ...f, swapMode: 'ExactOut' });
  assert.equal(out[184], 1);
  assert.equal(decodeAttestation(out)?.swapMode, 'ExactOut');
  // Not a v1 message: wrong size, domain, version, mode byte.
  assert.equal(decodeAttestation(m.subarray(0, 224)), null);
  for (const [at, v] of [[0, 0x53], [21, 0x32], [184, 2]] as const) {
    const bad = m.slice();
    bad[at] = v;
    assert.equal(decodeAttestation(bad), null, `byte ${at}`);
  }
  assert.throws(() => encodeAttestation({ ...f, quoteId: 'q_short' }), /quote id/);
  assert.throws(() => encodeAttestation({ ...f, outAmount: 1n << 64n }), /u64/);
  assert.throws(() => encodeAttestation({ ...f, user: new Uint8Array(31) }), /32 bytes/);
});

test('the README quotes the verification example verbatim', () => {
  const readme = readFileSync(new URL('../../../engine/tx/README.md', import.meta.url), 'utf8');
  const example = readFileSync(new URL('../../../engine/tx/example/verify-attestation.ts', import.meta.url), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.equal(block, example);
});

test('the example accepts a real signed build and fails closed on every tampered or missing part', () => {
  const good = build();
  assert.equal(verifySwapAttestation(good, expected), true);
  const a = good.attestation!;
  const flip = (b64: string, at: number): string => {
    const m = Buffer.from(b64, 'base64');
    m[at] = m[at]! ^ 1;
    return m.toString('base64');
  };
  const cases: [string, SwapBuild, typeof expected][] = [
    ['no attestation', { ...good, attestation: null }, expected],
    ['another pinned key', good, { ...expected, pinnedPublicKey: Keypair.generate().publicKey.toBase58() }],
    ['a key the response claims, not the pinned one', { ...good, attestation: { ...a, publicKey: Keypair.generate().publicKey.toBase58() } }, expected],
    ['another version', { ...good, attestation: { ...a, version: 'v2' } }, expected],
    ['a signature of other bytes', { ...good, attestation: { ...a, message: flip(a.message, 200) } }, expected],
    ['a garbage signature', { ...good, attestation: { ...a, signature: 'not-base58-0OIl' } }, expected],
    ['another transaction', { ...good, transaction: transaction(user.publicKey, 6000) }, expected],
    ['a transaction paid by someone else', build(transaction(Keypair.generate().publicKey, 5000)), expected],
    ['another quote id', { ...good, quoteId: `q_${'cd'.repeat(16)}` }, expected],
    ['another outAmount', { ...good, outAmount: '150123457' }, expected],
    ['another minOutAmount', { ...good, minOutAmount: '1' }, expected],
    ['another inAmount', { ...good, inAmount: '999999999' }, expected],
    ['another user', good, { ...expected, userPublicKey: Keypair.generate().publicKey.toBase58() }],
    ['swapped mints', good, { ...expected, inputMint: expected.outputMint, outputMint: expected.inputMint }],
    ['expired', good, { ...expected, nowMs: NOW + 30_000 }],
    ['a truncated transaction', { ...good, transaction: good.transaction.slice(0, 40) }, expected],
  ];
  for (const [what, b, e] of cases) assert.equal(verifySwapAttestation(b, e), false, what);
});

test('the key: generated once into DATA_DIR (0600) and the same on the next start; env and file keys; bad keys refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'attk-'));
  const first = loadAttestationKey(dir, {});
  assert.equal(first.source, 'generated');
  assert.equal(statSync(join(dir, ATTESTATION_KEY_FILE_NAME)).mode & 0o777, 0o600);
  const again = loadAttestationKey(dir, {});
  assert.equal(again.source, 'data-dir');
  assert.deepEqual(again.publicKey, first.publicKey);
  const kp = Keypair.generate();
  const fromEnv64 = loadAttestationKey(dir, { ATTESTATION_SECRET_KEY: bs58.encode(kp.secretKey) });
  assert.equal(fromEnv64.source, 'env');
  assert.equal(bs58.encode(fromEnv64.publicKey), kp.publicKey.toBase58());
  const fromEnv32 = loadAttestationKey(dir, { ATTESTATION_SECRET_KEY: bs58.encode(kp.secretKey.subarray(0, 32)) });
  assert.deepEqual(fromEnv32.publicKey, fromEnv64.publicKey);
  const file = join(dir, 'id.json');
  writeFileSync(file, JSON.stringify([...kp.secretKey]));
  assert.equal(bs58.encode(loadAttestationKey(dir, { ATTESTATION_KEY_FILE: file }).publicKey), kp.publicKey.toBase58());
  const mixed = Uint8Array.from([...kp.secretKey.subarray(0, 32), ...Keypair.generate().publicKey.toBytes()]);
  assert.throws(() => loadAttestationKey(dir, { ATTESTATION_SECRET_KEY: bs58.encode(mixed) }), /does not match/);
  assert.throws(() => loadAttestationKey(dir, { ATTESTATION_SECRET_KEY: bs58.encode(new Uint8Array(31)) }), /32 or 64 bytes/);
  assert.throws(() => loadAttestationKey(dir, { ATTESTATION_SECRET_KEY: '0OIl' }), /not base58/);
  writeFileSync(file, '{"not":"bytes"}');
  assert.throws(() => loadAttestationKey(dir, { ATTESTATION_KEY_FILE: file }), /array of bytes/);
  // The published key object is the spec's.
  const s = new AttestationSigner(fromEnv64);
  assert.deepEqual(s.publicKey, { version: 'v1', domain: 'svc-swap-attestation', algorithm: 'ed25519', publicKey: kp.publicKey.toBase58() });
});
