/**
 * When did a slot start, at the latest-known lower bound? Built from polls of the chain's processed slot (RPC
 * `getSlot`), each stamped with the time the request was SENT: an answer `tip` means the chain had not yet opened
 * slot `tip + 1` when the request left. So a state read at slot `s` is at least as old as the send time of the
 * newest poll that answered below `s`. Why not the arrival time of the state itself: a stream that stalls and then
 * delivers held updates would make 45-second-old data look fresh; the send time of an earlier poll cannot.
 */

/** One poll: the chain's processed slot and the local time its request was sent. */
interface Observation {
  readonly tip: bigint;
  readonly sentAtMs: number;
}

/** Options of {@link SlotTimeline}. */
export interface SlotTimelineOptions {
  /** Polls kept (a ring); default 6,000 (20 minutes at 200 ms). */
  readonly capacity?: number;
  /** Slot duration assumed for slots older than every kept poll; default 400 ms. */
  readonly assumedSlotMs?: number;
}

/** Poll observations, tips non-decreasing, oldest first. */
export class SlotTimeline {
  private readonly ring: Observation[] = [];
  private head = 0;
  private readonly capacity: number;
  private readonly assumedSlotMs: number;

  constructor(o: SlotTimelineOptions = {}) {
    this.capacity = o.capacity ?? 6000;
    this.assumedSlotMs = o.assumedSlotMs ?? 400;
  }

  /** Records a poll answer. An answer below the newest kept tip is ignored (the caller judges regressions). */
  observe(tip: bigint, sentAtMs: number): void {
    const last = this.newest();
    if (last && (tip < last.tip || sentAtMs < last.sentAtMs)) return;
    if (this.ring.length < this.capacity) this.ring.push({ tip, sentAtMs });
    else {
      this.ring[this.head] = { tip, sentAtMs };
      this.head = (this.head + 1) % this.capacity;
    }
  }

  /** The newest observation, if any. */
  newest(): Observation | undefined {
    const n = this.ring.length;
    if (n === 0) return undefined;
    return this.ring[(this.head + n - 1) % n];
  }

  /** Forgets everything (the chain was replaced). */
  reset(): void {
    this.ring.length = 0;
    this.head = 0;
  }

  /**
   * A time at or before the opening of `slot`: the send time of the newest poll that answered below it. For a slot
   * at or below every kept poll, an estimate from the oldest poll and the assumed slot duration; `fallbackMs`
   * when nothing was observed yet.
   */
  notAfterOpenMs(slot: bigint, fallbackMs: number): number {
    const n = this.ring.length;
    if (n === 0) return fallbackMs;
    // Binary search for the newest observation with tip < slot (tips are non-decreasing in ring order).
    let lo = 0;
    let hi = n - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.at(mid).tip < slot) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found >= 0) return Math.min(fallbackMs, this.at(found).sentAtMs);
    const oldest = this.at(0);
    const slotsBack = Number(oldest.tip - slot) + 1;
    return Math.min(fallbackMs, oldest.sentAtMs - slotsBack * this.assumedSlotMs);
  }

  private at(i: number): Observation {
    return this.ring[(this.head + i) % this.ring.length]!;
  }
}
