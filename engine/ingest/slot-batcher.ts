/**
 * Buffers account updates by slot so that the accounts of one pool (pool, vaults, config) written in one slot
 * are applied together. A slot's batch is released when the slot is reported processed (or any later status),
 * when a later slot's status arrives, or when updates two slots newer arrive (a lost status must not stall).
 */
import type { AccountUpdate } from './account-update.js';

/** Per-slot buffer of account updates. */
export class SlotBatcher {
  private readonly bySlot = new Map<bigint, AccountUpdate[]>();

  /** Buffers an update; returns the batches it releases (older slots two behind). */
  push(u: AccountUpdate): AccountUpdate[][] {
    let batch = this.bySlot.get(u.slot);
    if (!batch) {
      batch = [];
      this.bySlot.set(u.slot, batch);
    }
    batch.push(u);
    return this.releaseUpTo(u.slot - 2n);
  }

  /** A slot status for `slot` arrived: releases every batch of slots <= `slot`, oldest first. */
  slotDone(slot: bigint): AccountUpdate[][] {
    return this.releaseUpTo(slot);
  }

  /** Releases everything buffered (shutdown, snapshot boundary). */
  drain(): AccountUpdate[][] {
    return this.releaseUpTo(BigInt(Number.MAX_SAFE_INTEGER) * 1024n);
  }

  /** Drops everything buffered (the chain was replaced). */
  clear(): void {
    this.bySlot.clear();
  }

  /** Number of slots buffered. */
  get pendingSlots(): number {
    return this.bySlot.size;
  }

  private releaseUpTo(slot: bigint): AccountUpdate[][] {
    if (this.bySlot.size === 0) return [];
    const ready = [...this.bySlot.keys()].filter((s) => s <= slot).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const out: AccountUpdate[][] = [];
    for (const s of ready) {
      out.push(this.bySlot.get(s)!);
      this.bySlot.delete(s);
    }
    return out;
  }
}
