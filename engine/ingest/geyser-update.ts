/**
 * Feeds one Yellowstone update into the ingest core: account writes (u64 fields arrive as decimal strings) and
 * slot statuses. Shared by the runner and the ingest benchmark so both measure the same path.
 */
import bs58 from 'bs58';
import type { SubscribeUpdate } from '../chain/yellowstone.js';
import type { IngestCore, SlotCommitment } from './ingest-core.js';

const SLOT_STATUS: Record<number, SlotCommitment | undefined> = { 0: 'processed', 1: 'confirmed', 2: 'finalized' };

/** Applies `u` to `core`; pings, pongs and other kinds are ignored. */
export function applyGeyserUpdate(core: IngestCore, u: SubscribeUpdate): void {
  const acc = u.account?.account;
  if (u.account && acc) {
    core.pushAccount({
      address: bs58.encode(acc.pubkey),
      owner: bs58.encode(acc.owner),
      lamports: BigInt(acc.lamports),
      data: acc.data,
      slot: BigInt(u.account.slot),
      writeVersion: BigInt(acc.writeVersion),
    });
    return;
  }
  if (u.slot) {
    const status = SLOT_STATUS[u.slot.status];
    if (status) core.slotStatus(BigInt(u.slot.slot), status);
  }
}
