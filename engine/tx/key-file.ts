/**
 * Ed25519 keys the service holds (the attestation key, the bundle tip wallet): from a base58 secret, a key file
 * (a JSON array of 64 bytes, the `solana-keygen` format), or a key file generated once into DATA_DIR (mode 0600)
 * and kept across restarts.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ed25519 } from '@noble/curves/ed25519.js';
import bs58 from 'bs58';

/** An Ed25519 key pair: the 32-byte seed and the 32-byte public key. */
export interface Ed25519Pair {
  readonly seed: Uint8Array;
  readonly publicKey: Uint8Array;
}

/** The pair of a 32-byte seed or a 64-byte Solana secret key (seed then public key); `what` names it in errors. */
export function pairFromSecret(secret: Uint8Array, what: string): Ed25519Pair {
  if (secret.length !== 32 && secret.length !== 64) throw new Error(`${what}: an Ed25519 secret key is 32 or 64 bytes, got ${secret.length}`);
  const seed = secret.slice(0, 32);
  const publicKey = ed25519.getPublicKey(seed);
  // Why: a 64-byte Solana key carries its public half; one that does not match is a corrupted or mixed-up key.
  if (secret.length === 64 && !publicKey.every((b, i) => b === secret[32 + i])) throw new Error(`${what}: the public half does not match the seed`);
  return { seed, publicKey };
}

/** The pair of a base58 secret (32 or 64 bytes); `what` names it in errors. */
export function pairFromBase58(secret: string, what: string): Ed25519Pair {
  let bytes: Uint8Array;
  try {
    bytes = bs58.decode(secret.trim());
  } catch {
    throw new Error(`${what}: not base58`);
  }
  return pairFromSecret(bytes, what);
}

/** The pair of a key file (a JSON array of bytes). */
export function readKeyFile(file: string): Ed25519Pair {
  const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(raw) || !raw.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) throw new Error(`${file}: expected a JSON array of bytes`);
  return pairFromSecret(Uint8Array.from(raw as number[]), file);
}

/** The key of `file`, generated into it the first time; `generated` tells which. */
export function loadOrCreateKeyFile(file: string): Ed25519Pair & { readonly generated: boolean } {
  if (existsSync(file)) return { ...readKeyFile(file), generated: false };
  const seed = ed25519.utils.randomSecretKey();
  const publicKey = ed25519.getPublicKey(seed);
  mkdirSync(dirname(file), { recursive: true });
  // Why 'wx': two processes starting on one fresh DATA_DIR must not both write a key; the loser reads the winner's.
  try {
    writeFileSync(file, JSON.stringify([...seed, ...publicKey]) + '\n', { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return { ...readKeyFile(file), generated: false };
    throw e;
  }
  return { seed, publicKey, generated: true };
}
