/**
 * Test support: the real mainnet Whirlpool accounts of the shared research set
 * (`../shared/research/real-accounts/fixtures/orca-whirlpool/*.json`, beside the repository: public fixtures of
 * Carbon's decoder tests and pools captured by getAccountInfo; see that folder's README). Read at test time, not
 * copied: the fixed tick array alone is 13 KB of base64.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One account of a set. */
export interface RealAccount {
  readonly set: string;
  readonly address: string | null;
  readonly role: string;
  readonly data: Uint8Array;
}

/** The folder of the Whirlpool sets (from `dist/engine/adapters/orca-whirlpool/testing/`: six levels up is `/work`). */
export const REAL_WHIRLPOOL_DIR = fileURLToPath(new URL('../../../../../../shared/research/real-accounts/fixtures/orca-whirlpool/', import.meta.url));

/** Every account of every Whirlpool set. */
export function realWhirlpoolAccounts(): RealAccount[] {
  const out: RealAccount[] = [];
  for (const f of readdirSync(REAL_WHIRLPOOL_DIR).filter((n) => n.endsWith('.json')).sort()) {
    const set = JSON.parse(readFileSync(REAL_WHIRLPOOL_DIR + f, 'utf8')) as { id: string; accounts: { address: string | null; role: string; data: string }[] };
    for (const a of set.accounts) out.push({ set: set.id, address: a.address, role: a.role, data: new Uint8Array(Buffer.from(a.data, 'base64')) });
  }
  return out;
}
