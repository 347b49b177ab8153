/**
 * Base58 text of 32-byte public keys read from account data, memoized: decoders run on every account update and
 * pool accounts repeat the same keys (mints, vaults, configs) update after update, while base58 encoding costs
 * ~1-2 µs a key. The memo is keyed by the raw bytes (a latin1 string, cheap to make) and cleared when it grows
 * past {@link PUBKEY_MEMO_MAX} entries, so memory stays bounded whatever the key churn.
 */
import bs58 from 'bs58';
import { encodeKey32 } from '../../base58-key.js';

/** Entries kept before the memo is cleared. */
export const PUBKEY_MEMO_MAX = 65_536;

const memo = new Map<string, string>();

/** Base58 of the 32 bytes at `offset` of `data` (of the bytes there when fewer remain). */
export function pubkeyAt(data: Uint8Array, offset: number): string {
  // Not a whole key (malformed input): encode what is there, unmemoized, rather than read past the end.
  if (data.length - offset < 32) return bs58.encode(data.subarray(offset));
  const raw = Buffer.from(data.buffer, data.byteOffset + offset, 32).toString('latin1');
  let text = memo.get(raw);
  if (text === undefined) {
    if (memo.size >= PUBKEY_MEMO_MAX) memo.clear();
    // A flat string: it may be held per pool (descriptors, dependencies).
    text = encodeKey32(data, offset);
    memo.set(raw, text);
  }
  return text;
}
