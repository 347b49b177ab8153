// Verifying a swap build's attestation before signing, as a wallet would. Fails closed: anything unexpected,
// including a thrown error, answers false, and the caller must then not sign the transaction.
import { createHash } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';

/** The part of a `POST /v1/swap/build` response the check reads. */
export interface SwapBuild {
  transaction: string;
  quoteId: string;
  inAmount: string;
  outAmount: string;
  minOutAmount: string;
  attestation: { version: string; domain: string; algorithm: string; publicKey: string; signature: string; message: string } | null;
}

/** What the wallet knows on its own: the pinned service key, its user, the swap it asked for. */
export interface Expected {
  pinnedPublicKey: string;
  userPublicKey: string;
  inputMint: string;
  outputMint: string;
  nowMs?: number;
}

/** True only when the attestation is valid, signed by the pinned key, and binds this exact transaction and swap. */
export function verifySwapAttestation(build: SwapBuild, expected: Expected): boolean {
  try {
    const a = build.attestation;
    if (!a || a.version !== 'v1' || a.domain !== 'svc-swap-attestation' || a.algorithm !== 'ed25519') return false;
    if (a.publicKey !== expected.pinnedPublicKey) return false;
    const m = Buffer.from(a.message, 'base64');
    if (m.length !== 225) return false;
    if (!ed25519.verify(bs58.decode(a.signature), m, bs58.decode(expected.pinnedPublicKey))) return false;
    // The signature is good: now check that the signed fields are this build's.
    if (m.toString('latin1', 0, 20) !== 'svc-swap-attestation' || m.toString('latin1', 20, 22) !== 'v1') return false;
    if (m.toString('latin1', 22, 56) !== build.quoteId) return false;
    const tx = VersionedTransaction.deserialize(Buffer.from(build.transaction, 'base64'));
    const messageBytes = tx.message.serialize();
    if (!createHash('sha256').update(messageBytes).digest().equals(m.subarray(56, 88))) return false;
    if (tx.message.staticAccountKeys[0]?.toBase58() !== expected.userPublicKey) return false;
    if (bs58.encode(m.subarray(88, 120)) !== expected.userPublicKey) return false;
    if (bs58.encode(m.subarray(120, 152)) !== expected.inputMint) return false;
    if (bs58.encode(m.subarray(152, 184)) !== expected.outputMint) return false;
    if (m.readBigUInt64LE(185).toString() !== build.inAmount) return false;
    if (m.readBigUInt64LE(193).toString() !== build.outAmount) return false;
    if (m.readBigUInt64LE(201).toString() !== build.minOutAmount) return false;
    return Number(m.readBigUInt64LE(217)) > (expected.nowMs ?? Date.now());
  } catch {
    return false;
  }
}
