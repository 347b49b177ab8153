/**
 * One account write as ingest sees it, whatever its source (RPC snapshot or a Geyser update).
 */

/** An account write at a slot. Snapshot reads carry writeVersion 0 (older than any streamed write of that slot). */
export interface AccountUpdate {
  readonly address: string;
  readonly owner: string;
  readonly lamports: bigint;
  readonly data: Uint8Array;
  readonly slot: bigint;
  readonly writeVersion: bigint;
  /** Signature of the transaction that wrote it (Geyser); absent for snapshot reads, sysvars and startup replays. */
  readonly txnSignature?: Uint8Array | undefined;
}

/** True when `next` is newer than `prev` (slot first, then write version): duplicates and replays are dropped. */
export function isNewer(next: { slot: bigint; writeVersion: bigint }, prev: { slot: bigint; writeVersion: bigint } | undefined): boolean {
  if (!prev) return true;
  return next.slot > prev.slot || (next.slot === prev.slot && next.writeVersion > prev.writeVersion);
}
