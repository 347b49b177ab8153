/**
 * The attestation signing key from configuration: `ATTESTATION_SECRET_KEY` (base58 of a 32-byte Ed25519 seed or
 * of a 64-byte Solana secret key, seed then public key), else the key file `ATTESTATION_KEY_FILE` (a JSON array of
 * 64 bytes, the `solana-keygen` format), else `<DATA_DIR>/attestation-key.json`, generated once (mode 0600) and
 * kept: the public key clients pin must not change across restarts.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ed25519 } from '@noble/curves/ed25519.js';
import bs58 from 'bs58';

/** The file name of the generated key inside DATA_DIR. */
export const ATTESTATION_KEY_FILE_NAME = 'attestation-key.json';

/** An Ed25519 key pair (32-byte seed, 32-byte public key) and where it came from. */
export interface AttestationKey {
  readonly seed: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly source: 'env' | 'file' | 'generated' | 'data-dir';
}

function fromSecret(secret: Uint8Array, what: string): { seed: Uint8Array; publicKey: Uint8Array } {
  if (secret.length !== 32 && secret.length !== 64) throw new Error(`${what}: an Ed25519 secret key is 32 or 64 bytes, got ${secret.length}`);
  const seed = secret.slice(0, 32);
  const publicKey = ed25519.getPublicKey(seed);
  // Why: a 64-byte Solana key carries its public half; one that does not match is a corrupted or mixed-up key.
  if (secret.length === 64 && !publicKey.every((b, i) => b === secret[32 + i])) throw new Error(`${what}: the public half does not match the seed`);
  return { seed, publicKey };
}

function readKeyFile(file: string): Uint8Array {
  const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(raw) || !raw.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) throw new Error(`${file}: expected a JSON array of bytes`);
  return Uint8Array.from(raw as number[]);
}

/** Loads (or, the first time, generates into `dataDir`) the attestation key; throws a clear error on a bad one. */
export function loadAttestationKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): AttestationKey {
  const secret = env.ATTESTATION_SECRET_KEY;
  if (secret) {
    let bytes: Uint8Array;
    try {
      bytes = bs58.decode(secret.trim());
    } catch {
      throw new Error('ATTESTATION_SECRET_KEY: not base58');
    }
    return { ...fromSecret(bytes, 'ATTESTATION_SECRET_KEY'), source: 'env' };
  }
  const file = env.ATTESTATION_KEY_FILE;
  if (file) return { ...fromSecret(readKeyFile(file), file), source: 'file' };
  const own = join(dataDir, ATTESTATION_KEY_FILE_NAME);
  if (existsSync(own)) return { ...fromSecret(readKeyFile(own), own), source: 'data-dir' };
  const seed = ed25519.utils.randomSecretKey();
  const publicKey = ed25519.getPublicKey(seed);
  mkdirSync(dirname(own), { recursive: true });
  // Why 'wx': two processes starting on one fresh DATA_DIR must not both write a key; the loser reads the winner's.
  try {
    writeFileSync(own, JSON.stringify([...seed, ...publicKey]) + '\n', { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return { ...fromSecret(readKeyFile(own), own), source: 'data-dir' };
    throw e;
  }
  return { seed, publicKey, source: 'generated' };
}
