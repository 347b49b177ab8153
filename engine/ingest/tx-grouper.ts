/**
 * Groups consecutive account writes of one transaction. Every write of a transaction carries its signature and
 * the Geyser stream sends them together, so a transaction's group is complete when a write of another transaction
 * (or another slot) arrives, or at the end of the event-loop turn that delivered it (the caller's `take`).
 * Writes without a signature (startup replays, sysvars) group with the writes of the same slot next to them.
 */
import type { AccountUpdate } from './account-update.js';

/** The open transaction's writes. */
export class TxGrouper {
  private group: AccountUpdate[] = [];

  /** Adds `u`; returns the previous transaction's writes when `u` starts another transaction, else null. */
  push(u: AccountUpdate): AccountUpdate[] | null {
    const g = this.group;
    if (g.length > 0 && !sameTransaction(g[0]!, u)) {
      this.group = [u];
      return g;
    }
    g.push(u);
    return null;
  }

  /** Takes the open transaction's writes (null when none): the caller's turn ended. */
  take(): AccountUpdate[] | null {
    if (this.group.length === 0) return null;
    const g = this.group;
    this.group = [];
    return g;
  }

  /** Drops the open transaction (the chain was replaced). */
  clear(): void {
    this.group = [];
  }

  /** Writes held in the open transaction. */
  get pending(): number {
    return this.group.length;
  }
}

/** True when `a` and `b` belong to one transaction: same slot and same signature (or both unsigned). */
export function sameTransaction(a: AccountUpdate, b: AccountUpdate): boolean {
  return a.slot === b.slot && sameSignature(a.txnSignature, b.txnSignature);
}

/** True when two optional signatures hold the same bytes (absent equals absent). */
export function sameSignature(x: Uint8Array | undefined, y: Uint8Array | undefined): boolean {
  if (x === y) return true;
  const lx = x?.length ?? 0;
  if (lx !== (y?.length ?? 0)) return false;
  // Signatures of different transactions almost always differ in the first byte: the loop exits at once.
  for (let i = 0; i < lx; i++) if (x![i] !== y![i]) return false;
  return true;
}
