/**
 * Feeds one Yellowstone update into the ingest core: account writes (u64 fields arrive as decimal strings) and
 * slot statuses. Shared by the runner and the ingest benchmark so both measure the same path.
 */
import { pubkeyAt } from '../adapters/common/pubkey-text.js';
import type { SubscribeUpdate } from '../chain/yellowstone.js';
import type { IngestCore, SlotCommitment } from './ingest-core.js';

const SLOT_STATUS: Record<number, SlotCommitment | undefined> = { 0: 'processed', 1: 'confirmed', 2: 'finalized' };

/** Applies `u`, received on stream `stream` (0: the primary), to `core`; pings, pongs and other kinds are ignored. */
export function applyGeyserUpdate(core: IngestCore, u: SubscribeUpdate, stream = 0): void {
  const acc = u.account?.account;
  if (u.account && acc) {
    core.pushAccount({
      // Memoized base58: the same accounts (vaults, pools) and owners (programs) update again and again, and
      // encoding two keys per update was a third of ingest's CPU time (bench/README.md, ingest throughput).
      address: pubkeyAt(acc.pubkey, 0),
      owner: pubkeyAt(acc.owner, 0),
      lamports: BigInt(acc.lamports),
      data: acc.data,
      slot: BigInt(u.account.slot),
      writeVersion: BigInt(acc.writeVersion),
      // Groups the writes of one transaction; an empty signature (the field sent with no bytes) is none.
      txnSignature: acc.txnSignature !== undefined && acc.txnSignature.length > 0 ? acc.txnSignature : undefined,
    }, stream);
    return;
  }
  if (u.slot) {
    const status = SLOT_STATUS[u.slot.status];
    if (status) core.slotStatus(BigInt(u.slot.slot), status, stream);
  }
}
