/**
 * What ingest keeps per Subscribe stream: the open transaction's writes and the pools held for the rest of their
 * transaction, both of which rely on one stream's order, and the newest slot the stream reported processed (where it
 * resumes). Each stream's pools are grouped, held and released by their own stream's lane only.
 */
import { HeldPools } from './held-pools.js';
import type { PoolEntry } from './pool-registry.js';
import { TxGrouper } from './tx-grouper.js';

/** One stream's grouping state. */
export class StreamLane {
  /** True for the pools this lane's stream carries. */
  readonly owns: (p: PoolEntry) => boolean;
  readonly grouper = new TxGrouper();
  readonly held = new HeldPools();
  /** Highest slot this stream reported processed (0 before). */
  processedSlot = 0n;

  constructor(readonly stream: number) {
    this.owns = (p) => streamOfPool(p) === stream;
  }

  /** Forgets the open transaction, the holds and the slot (the chain was replaced). */
  clear(): void {
    this.grouper.clear();
    this.held.clear();
    this.processedSlot = 0n;
  }
}

/** The stream a pool's writes are applied from: the one a plan placed it on, else the primary (0). */
export function streamOfPool(p: PoolEntry): number {
  return p.stream ?? 0;
}
