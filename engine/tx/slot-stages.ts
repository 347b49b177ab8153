/**
 * Which tracked transaction was executed in which slot, and what a slot status means for them: the bookkeeping
 * between the Geyser stage stream (`engine/chain/tx-stage-watch.ts`) and the tracker. A transaction update places
 * its signature in its slot (`processed`); the slot's `confirmed` and `finalized` statuses then give the stage of
 * every signature placed in it.
 *
 * A dead branch: a slot that was processed but will never be confirmed (its fork lost, or it was marked dead) must
 * not hold its transactions. A slot reported `dead`, or a slot below a finalized one that was not finalized itself
 * (Agave notifies every rooted slot as finalized, so a lower slot without it is off the rooted chain, or its status
 * was missed while the stream was down), releases its signatures as `lost`: the caller lets polling decide, and a
 * later transaction update (the transaction landed again on the surviving fork) places it anew.
 *
 * Statuses of the last `windowSlots` slots are remembered, so a transaction update that arrives after its slot's
 * status (a stream reopened, updates reordered) gets its stage at once. Pure: no I/O, no clock.
 */

/** Yellowstone's slot status numbers used here (`SlotStatus`). */
export const SLOT_STATUS = { processed: 0, confirmed: 1, finalized: 2, dead: 6 } as const;

/** A later stage given by a slot status. */
export type SlotStage = 'confirmed' | 'finalized';

/** What one slot status means for the tracked signatures. */
export interface SlotOutcome {
  /** The stage the slot reached (null: none of interest). */
  readonly stage: SlotStage | null;
  /** Signatures placed in that slot (they reached `stage`). */
  readonly reached: readonly string[];
  /** Signatures whose slot left the chain (dead, or passed by a finalized slot): no longer placed. */
  readonly lost: readonly string[];
}

const NOTHING: SlotOutcome = { stage: null, reached: [], lost: [] };

/** The bookkeeping (see the file header). */
export class SlotStages {
  private readonly slotOf = new Map<string, number>();
  private readonly inSlot = new Map<number, Set<string>>();
  /** Recent slots that reached confirmed or finalized. */
  private readonly reachedBy = new Map<number, SlotStage>();
  private highest = 0;

  constructor(private readonly windowSlots = 512) {}

  /** Signatures placed now (tests, metrics). */
  get size(): number {
    return this.slotOf.size;
  }

  /** `signature` was executed in `slot`; returns the stage that slot already reached, if any. */
  place(signature: string, slot: number): SlotStage | null {
    this.forget(signature);
    const known = this.reachedBy.get(slot) ?? null;
    if (known === 'finalized') return known;
    this.slotOf.set(signature, slot);
    let set = this.inSlot.get(slot);
    if (!set) this.inSlot.set(slot, (set = new Set()));
    set.add(signature);
    return known;
  }

  /** Stops following `signature` (its tracking ended). */
  forget(signature: string): void {
    const slot = this.slotOf.get(signature);
    if (slot === undefined) return;
    this.slotOf.delete(signature);
    const set = this.inSlot.get(slot);
    set?.delete(signature);
    if (set?.size === 0) this.inSlot.delete(slot);
  }

  /** A slot status (`SlotStatus` number) from the stream. */
  slotStatus(slot: number, status: number): SlotOutcome {
    if (status === SLOT_STATUS.dead) return { stage: null, reached: [], lost: this.release(slot) };
    if (status !== SLOT_STATUS.confirmed && status !== SLOT_STATUS.finalized) return NOTHING;
    const stage: SlotStage = status === SLOT_STATUS.confirmed ? 'confirmed' : 'finalized';
    if (this.reachedBy.get(slot) !== 'finalized') this.reachedBy.set(slot, stage);
    this.trim(slot);
    const reached = [...(this.inSlot.get(slot) ?? [])];
    if (stage === 'confirmed') return { stage, reached, lost: [] };
    // Finalized: the slot's signatures are done; every lower slot still holding signatures is off the rooted chain.
    for (const s of reached) this.forget(s);
    const lost: string[] = [];
    for (const s of [...this.inSlot.keys()]) if (s < slot) lost.push(...this.release(s));
    return { stage, reached, lost };
  }

  private release(slot: number): string[] {
    const set = this.inSlot.get(slot);
    if (!set) return [];
    this.inSlot.delete(slot);
    for (const s of set) this.slotOf.delete(s);
    return [...set];
  }

  private trim(slot: number): void {
    if (slot <= this.highest) return;
    this.highest = slot;
    const floor = slot - this.windowSlots;
    for (const s of this.reachedBy.keys()) if (s < floor) this.reachedBy.delete(s);
  }
}
