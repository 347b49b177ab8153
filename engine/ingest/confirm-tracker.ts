/**
 * Remembers the record images written at slots that are not confirmed yet, so that when the slot stream reports a
 * slot confirmed, each pool's confirmed view receives its newest state at or below that slot.
 */
import type { RecordFields } from '../adapters/types.js';

interface Pending {
  readonly slot: bigint;
  readonly fields: RecordFields;
  readonly updatedAtMs: number;
}

/** What to write into a pool's confirmed view. */
export interface ConfirmedWrite {
  readonly pool: number;
  readonly slot: bigint;
  readonly fields: RecordFields;
  readonly updatedAtMs: number;
}

/** Pending (optimistic) states per pool, oldest first. */
export class ConfirmTracker {
  private readonly pending = new Map<number, Pending[]>();
  /** Bound per pool: a pool updated in every slot for a long unconfirmed stretch keeps only its newest states. */
  private readonly maxPerPool: number;

  constructor(maxPerPool = 256) {
    this.maxPerPool = maxPerPool;
  }

  /** Records a state written at an unconfirmed slot. */
  add(pool: number, slot: bigint, fields: RecordFields, updatedAtMs: number): void {
    let list = this.pending.get(pool);
    if (!list) {
      list = [];
      this.pending.set(pool, list);
    }
    const last = list[list.length - 1];
    if (last && last.slot === slot) list[list.length - 1] = { slot, fields, updatedAtMs };
    else list.push({ slot, fields, updatedAtMs });
    if (list.length > this.maxPerPool) list.shift();
  }

  /** Slot `slot` is confirmed: returns each pool's newest state at or below it and forgets those states. */
  confirm(slot: bigint): ConfirmedWrite[] {
    const out: ConfirmedWrite[] = [];
    for (const [pool, list] of this.pending) {
      let k = -1;
      for (let i = 0; i < list.length && list[i]!.slot <= slot; i++) k = i;
      if (k < 0) continue;
      const p = list[k]!;
      out.push({ pool, slot: p.slot, fields: p.fields, updatedAtMs: p.updatedAtMs });
      list.splice(0, k + 1);
      if (list.length === 0) this.pending.delete(pool);
    }
    return out;
  }

  /** Forgets every pending state (the chain was replaced). */
  clear(): void {
    this.pending.clear();
  }

  /** Pools with unconfirmed states. */
  get size(): number {
    return this.pending.size;
  }
}
