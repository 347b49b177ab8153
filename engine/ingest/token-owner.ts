/**
 * Token accounts by their owner field, as ingest matches them: an owner as its 32 address bytes in a latin1 string,
 * a key made straight from the account's bytes without base58 (vault authorities, pools that own token accounts).
 */
import bs58 from 'bs58';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../adapters/common/spl-layouts.js';

/** Byte offset of the `owner` field in an SPL token account. */
const OWNER_OFFSET = 32;

/** True when `owner` (an account's program) is SPL Token or Token-2022. */
export function isTokenProgram(owner: string): boolean {
  return owner === TOKEN_PROGRAM_ID || owner === TOKEN_2022_PROGRAM_ID;
}

/** The key of a base58 address: its 32 bytes as a latin1 string (what {@link tokenOwnerKey} gives for it). */
export function ownerKeyOf(address: string): string {
  return Buffer.from(bs58.decode(address)).toString('latin1');
}

/** The key of a token account's `owner` field (`data` at least 64 bytes; the caller checks the layout). */
export function tokenOwnerKey(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset + OWNER_OFFSET, 32).toString('latin1');
}
