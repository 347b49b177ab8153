/**
 * Pools held back while their transaction's writes come in. A transaction's messages can arrive in separate reads
 * (a swap's first vault in one, its pool and other vault in the next), so a pool whose transaction has brought only
 * part of its swap set (`DexAdapter.swapWrites`) keeps its record untouched until the rest arrives, a write of
 * another transaction or a status of its slot shows the transaction is over, or it has waited long enough. The held
 * pools are then released together, as one state.
 */
import type { AccountUpdate } from './account-update.js';
import type { PoolEntry } from './pool-registry.js';
import { sameSignature } from './tx-grouper.js';

/** One held pool: the transaction holding it and which accounts of its swap set that transaction wrote. */
interface Hold {
  readonly signature: Uint8Array | undefined;
  readonly slot: bigint;
  readonly written: Set<string>;
  /** When the hold began (the clock of {@link HeldPools}). */
  readonly sinceMs: number;
}

/** The held pools of the open transaction (or of the transaction before it, until something shows it is over). */
export class HeldPools {
  private readonly held = new Map<PoolEntry, Hold>();

  /** `nowMs`: a monotonic clock in ms, for how long a pool has been held. */
  constructor(private readonly nowMs: () => number = () => performance.now()) {}

  /** Pools held. */
  get size(): number {
    return this.held.size;
  }

  /** True when `pool` is held. */
  has(pool: PoolEntry): boolean {
    return this.held.has(pool);
  }

  /**
   * Moves from `dirty` to the held pools those whose swap set the transaction that wrote `batch` (at `slot`) has
   * brought only part of, counting what it brought while held before. `over`: the transaction is known to be over
   * (another began), so nothing more is coming: its pools are released from any hold and none is held.
   */
  holdIncomplete(batch: readonly AccountUpdate[], dirty: Set<PoolEntry>, slot: bigint, over: boolean): void {
    const signature = batch[0]!.txnSignature;
    // Unsigned writes (startup replays, snapshots) are no transaction: nothing to wait for.
    if (signature === undefined && !over) return;
    for (const p of dirty) {
      const set = p.swapSet;
      if (set === undefined) continue;
      const before = this.held.get(p);
      const mine = before !== undefined && sameSignature(before.signature, signature);
      if (over) {
        this.held.delete(p);
        continue;
      }
      const written = mine ? before.written : new Set<string>();
      for (const u of batch) if (set.includes(u.address)) written.add(u.address);
      // Written only for other reasons (a Clock rebuild) or all of the set in: nothing to wait for.
      if (written.size === 0 || written.size === set.length) {
        this.held.delete(p);
        continue;
      }
      this.held.set(p, { signature, slot, written, sinceMs: mine ? before.sinceMs : this.nowMs() });
      dirty.delete(p);
    }
  }

  /** True when `u` belongs to a transaction other than a held pool's (another slot or signature): that one is over. */
  endedBy(u: AccountUpdate): boolean {
    for (const h of this.held.values()) {
      if (h.slot !== u.slot || !sameSignature(h.signature, u.txnSignature)) return true;
    }
    return false;
  }

  /** True when a pool is held from `slot` or before: a slot's status follows every write of the slot. */
  endedBySlot(slot: bigint): boolean {
    for (const h of this.held.values()) if (h.slot <= slot) return true;
    return false;
  }

  /**
   * Releases into `dirty` every held pool (`olderThanMs` 0), or those held at least `olderThanMs`. Returns the
   * newest slot they were held at (0 when none was released): the slot their records are written at.
   */
  release(dirty: Set<PoolEntry>, olderThanMs = 0): bigint {
    let slot = 0n;
    if (this.held.size === 0) return slot;
    const now = olderThanMs > 0 ? this.nowMs() : 0;
    for (const [p, h] of this.held) {
      if (olderThanMs > 0 && now - h.sinceMs < olderThanMs) continue;
      if (h.slot > slot) slot = h.slot;
      dirty.add(p);
      // Why here: a Map visits each entry once and skips those deleted, so deleting the current one is safe.
      this.held.delete(p);
    }
    return slot;
  }

  /** Stops holding `pool` (it will never be written again: left out of the subscription). */
  delete(pool: PoolEntry): void {
    this.held.delete(pool);
  }

  /** Forgets every hold (the chain was replaced). */
  clear(): void {
    this.held.clear();
  }
}
