/**
 * The attestation signing key from configuration: `ATTESTATION_SECRET_KEY` (base58 of a 32-byte Ed25519 seed or
 * of a 64-byte Solana secret key, seed then public key), else the key file `ATTESTATION_KEY_FILE` (a JSON array of
 * 64 bytes, the `solana-keygen` format), else `<DATA_DIR>/attestation-key.json`, generated once (mode 0600) and
 * kept: the public key clients pin must not change across restarts.
 */
import { join } from 'node:path';
import { loadOrCreateKeyFile, pairFromBase58, readKeyFile } from './key-file.js';

/** The file name of the generated key inside DATA_DIR. */
export const ATTESTATION_KEY_FILE_NAME = 'attestation-key.json';

/** An Ed25519 key pair (32-byte seed, 32-byte public key) and where it came from. */
export interface AttestationKey {
  readonly seed: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly source: 'env' | 'file' | 'generated' | 'data-dir';
}

/** Loads (or, the first time, generates into `dataDir`) the attestation key; throws a clear error on a bad one. */
export function loadAttestationKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): AttestationKey {
  const secret = env.ATTESTATION_SECRET_KEY;
  if (secret) return { ...pairFromBase58(secret, 'ATTESTATION_SECRET_KEY'), source: 'env' };
  const file = env.ATTESTATION_KEY_FILE;
  if (file) return { ...readKeyFile(file), source: 'file' };
  const { seed, publicKey, generated } = loadOrCreateKeyFile(join(dataDir, ATTESTATION_KEY_FILE_NAME));
  return { seed, publicKey, source: generated ? 'generated' : 'data-dir' };
}
