/**
 * Key material: random API keys, their stored hash, display prefix, and referral codes. Keys are shown once at
 * creation and stored only as SHA-256 (a key has 192 random bits, so a fast hash is enough: nothing to brute-force).
 */
import { createHash, randomBytes } from 'node:crypto';
import bs58 from 'bs58';

/** Prefix of every generated key, so leaked keys are recognisable by secret scanners. */
export const KEY_PREFIX = 'svc_';

/** A new random API key: `svc_` + base58 of 24 random bytes. */
export function generateApiKey(): string {
  return KEY_PREFIX + bs58.encode(randomBytes(24));
}

/** Hex SHA-256 of a key, as stored and looked up. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The first 8 characters of a key, kept to tell keys apart in listings. */
export function keyDisplayPrefix(key: string): string {
  return key.slice(0, 8);
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A random 8-character referral code (no 0/O/1/I to keep it readable aloud). */
export function generateReferralCode(): string {
  const b = randomBytes(8);
  let s = '';
  for (const x of b) s += CODE_ALPHABET[x % CODE_ALPHABET.length];
  return s;
}
