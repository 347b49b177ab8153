/**
 * Test support: waits until a signature is confirmed on a node (polling `getSignatureStatuses`, as the localnet has
 * no websocket), or throws after `timeoutMs`.
 */
import type { Connection } from '@solana/web3.js';

/** Resolves once `sig` is confirmed or finalized on `conn`'s node. */
export async function landed(conn: Connection, sig: string, timeoutMs = 10_000): Promise<void> {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    const { value } = await conn.getSignatureStatuses([sig], { searchTransactionHistory: true });
    if (value[0]?.confirmationStatus === 'confirmed' || value[0]?.confirmationStatus === 'finalized') return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${sig} did not land`);
}
