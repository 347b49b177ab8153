/**
 * The bundle tip wallet's key (`POST /v1/swap`): `TIP_PAYER_SECRET_KEY` (base58 of a 32-byte seed or a 64-byte
 * Solana secret key), else `<DATA_DIR>/tip-payer-key.json`, generated once (mode 0600) and kept, so the wallet the
 * operator funded stays the service's across restarts. The wallet pays every bundle's tip and its transaction fee,
 * and owns and pays for the service's address lookup tables (`engine/services/lookup-table-manager.ts`).
 */
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { loadOrCreateKeyFile, pairFromBase58 } from './key-file.js';

/** The file name of the generated key inside DATA_DIR. */
export const TIP_PAYER_KEY_FILE_NAME = 'tip-payer-key.json';

/** The tip wallet and where its key came from. */
export interface TipPayerKey {
  readonly keypair: Keypair;
  readonly source: 'env' | 'generated' | 'data-dir';
}

/** Loads (or, the first time, generates into `dataDir`) the tip wallet's key; throws a clear error on a bad one. */
export function loadTipPayerKey(dataDir: string, secret: string | undefined): TipPayerKey {
  if (secret) return { keypair: Keypair.fromSeed(pairFromBase58(secret, 'TIP_PAYER_SECRET_KEY').seed), source: 'env' };
  const k = loadOrCreateKeyFile(join(dataDir, TIP_PAYER_KEY_FILE_NAME));
  return { keypair: Keypair.fromSeed(k.seed), source: k.generated ? 'generated' : 'data-dir' };
}
