/**
 * A caller's signed transaction (`POST /v1/send`, `POST /v1/swap`): base64 wire bytes checked in the spec's order:
 * larger than 1,232 bytes `TX_TOO_LARGE`, not a transaction `TX_INVALID`, slot 0 unsigned (all zeros)
 * `TX_UNSIGNED`. The signature (slot 0, base58) is the transaction's id from then on.
 */
import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';

/** Largest serialized transaction (the packet size the cluster accepts). */
export const MAX_TRANSACTION_BYTES = 1232;

/** A transaction that passed the checks. */
export interface SignedTransaction {
  readonly ok: true;
  readonly raw: Uint8Array;
  readonly signature: string;
  readonly tx: VersionedTransaction;
}

/** Why it did not (`signature` when the bytes got far enough to have one). */
export interface RejectedTransaction {
  readonly ok: false;
  readonly code: 'TX_INVALID' | 'TX_UNSIGNED' | 'TX_TOO_LARGE';
  readonly message: string;
  readonly signature: string | null;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function firstSignature(raw: Uint8Array): string | null {
  // The wire format starts with a compact-u16 signature count (1 byte below 128), then the 64-byte signatures.
  if (raw.length < 65 || raw[0] === 0 || raw[0]! >= 0x80) return null;
  return bs58.encode(raw.subarray(1, 65));
}

/** Checks a base64 signed transaction. */
export function parseSignedTransaction(base64: unknown): SignedTransaction | RejectedTransaction {
  if (typeof base64 !== 'string' || base64.length === 0 || !BASE64.test(base64)) {
    return { ok: false, code: 'TX_INVALID', message: 'transaction must be the base64 of a serialized transaction', signature: null };
  }
  const raw = new Uint8Array(Buffer.from(base64, 'base64'));
  if (raw.length > MAX_TRANSACTION_BYTES) {
    return { ok: false, code: 'TX_TOO_LARGE', message: `the transaction is ${raw.length} bytes; at most ${MAX_TRANSACTION_BYTES}`, signature: firstSignature(raw) };
  }
  let tx: VersionedTransaction;
  try {
    tx = VersionedTransaction.deserialize(raw);
  } catch (e) {
    return { ok: false, code: 'TX_INVALID', message: `not a transaction: ${(e as Error).message}`, signature: firstSignature(raw) };
  }
  const sig0 = tx.signatures[0];
  // Why also the length: deserialize accepts trailing bytes; a transaction that does not re-serialize to itself is not one.
  if (tx.serialize().length !== raw.length) return { ok: false, code: 'TX_INVALID', message: 'trailing bytes after the transaction', signature: firstSignature(raw) };
  if (!sig0 || sig0.every((b) => b === 0)) return { ok: false, code: 'TX_UNSIGNED', message: 'no signature in slot 0 (the fee payer has not signed)', signature: null };
  return { ok: true, raw, signature: bs58.encode(sig0), tx };
}
