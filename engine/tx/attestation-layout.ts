/**
 * The swap attestation's signed message, v1: a fixed 225-byte layout (documented byte by byte in
 * engine/tx/README.md). Every field is fixed-size, so two different builds can never encode to the same bytes.
 *
 * | offset | size | field |
 * |---:|---:|---|
 * | 0 | 20 | domain, ASCII `svc-swap-attestation` |
 * | 20 | 2 | version, ASCII `v1` |
 * | 22 | 34 | quote id, ASCII (`q_` + 32 lowercase hex digits) |
 * | 56 | 32 | SHA-256 of the transaction's message bytes (what the wallet signs) |
 * | 88 | 32 | user public key |
 * | 120 | 32 | input mint |
 * | 152 | 32 | output mint |
 * | 184 | 1 | swap mode: 0 ExactIn, 1 ExactOut |
 * | 185 | 8 | inAmount, u64 little-endian |
 * | 193 | 8 | outAmount, u64 little-endian |
 * | 201 | 8 | minOutAmount, u64 little-endian (the least the transaction accepts to receive) |
 * | 209 | 8 | maxInAmount, u64 little-endian (the most it may spend; ExactIn: inAmount) |
 * | 217 | 8 | expiresAt, u64 little-endian, epoch milliseconds |
 */

/** The attestation domain (the spec's). */
export const ATTESTATION_DOMAIN = 'svc-swap-attestation';
/** The layout version (the spec's). */
export const ATTESTATION_VERSION = 'v1';
/** The signature algorithm (the spec's). */
export const ATTESTATION_ALGORITHM = 'ed25519';
/** Size of a v1 message. */
export const ATTESTATION_MESSAGE_BYTES = 225;

const QUOTE_ID = /^q_[0-9a-f]{32}$/;
const U64_MAX = 0xffff_ffff_ffff_ffffn;

/** What one attestation binds. Keys and the hash are raw bytes (32 each). */
export interface AttestedSwap {
  readonly quoteId: string;
  readonly messageHash: Uint8Array;
  readonly user: Uint8Array;
  readonly inputMint: Uint8Array;
  readonly outputMint: Uint8Array;
  readonly swapMode: 'ExactIn' | 'ExactOut';
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  readonly minOutAmount: bigint;
  readonly maxInAmount: bigint;
  readonly expiresAt: number;
}

function put32(out: Uint8Array, at: number, b: Uint8Array, name: string): void {
  if (b.length !== 32) throw new Error(`${name} must be 32 bytes, got ${b.length}`);
  out.set(b, at);
}

function putU64(v: DataView, at: number, x: bigint, name: string): void {
  if (x < 0n || x > U64_MAX) throw new Error(`${name} must be a u64, got ${x}`);
  v.setBigUint64(at, x, true);
}

/** The v1 message of `s` (throws on a field outside its type: a bug of the caller, never user input). */
export function encodeAttestation(s: AttestedSwap): Uint8Array {
  if (!QUOTE_ID.test(s.quoteId)) throw new Error(`quote id ${s.quoteId} is not q_ + 32 hex digits`);
  if (!Number.isSafeInteger(s.expiresAt) || s.expiresAt < 0) throw new Error(`expiresAt must be epoch ms, got ${s.expiresAt}`);
  const out = new Uint8Array(ATTESTATION_MESSAGE_BYTES);
  const v = new DataView(out.buffer);
  const enc = new TextEncoder();
  out.set(enc.encode(ATTESTATION_DOMAIN), 0);
  out.set(enc.encode(ATTESTATION_VERSION), 20);
  out.set(enc.encode(s.quoteId), 22);
  put32(out, 56, s.messageHash, 'messageHash');
  put32(out, 88, s.user, 'user');
  put32(out, 120, s.inputMint, 'inputMint');
  put32(out, 152, s.outputMint, 'outputMint');
  out[184] = s.swapMode === 'ExactIn' ? 0 : 1;
  putU64(v, 185, s.inAmount, 'inAmount');
  putU64(v, 193, s.outAmount, 'outAmount');
  putU64(v, 201, s.minOutAmount, 'minOutAmount');
  putU64(v, 209, s.maxInAmount, 'maxInAmount');
  v.setBigUint64(217, BigInt(s.expiresAt), true);
  return out;
}

/** The fields of a v1 message, or null when it is not one (size, domain, version, quote id, mode). */
export function decodeAttestation(m: Uint8Array): AttestedSwap | null {
  if (m.length !== ATTESTATION_MESSAGE_BYTES) return null;
  const dec = new TextDecoder();
  if (dec.decode(m.subarray(0, 20)) !== ATTESTATION_DOMAIN || dec.decode(m.subarray(20, 22)) !== ATTESTATION_VERSION) return null;
  const quoteId = dec.decode(m.subarray(22, 56));
  if (!QUOTE_ID.test(quoteId) || m[184]! > 1) return null;
  const v = new DataView(m.buffer, m.byteOffset, m.byteLength);
  const expiresAt = v.getBigUint64(217, true);
  if (expiresAt > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return {
    quoteId,
    messageHash: m.slice(56, 88),
    user: m.slice(88, 120),
    inputMint: m.slice(120, 152),
    outputMint: m.slice(152, 184),
    swapMode: m[184] === 0 ? 'ExactIn' : 'ExactOut',
    inAmount: v.getBigUint64(185, true),
    outAmount: v.getBigUint64(193, true),
    minOutAmount: v.getBigUint64(201, true),
    maxInAmount: v.getBigUint64(209, true),
    expiresAt: Number(expiresAt),
  };
}
