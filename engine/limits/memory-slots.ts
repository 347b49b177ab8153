/**
 * Per-process stream slot counters: the slot limiter of a single instance, and the fallback of the Redis one.
 */
import { checkSlotLimit } from './args.js';
import type { SlotDecision, SlotLease, SlotLimiter } from './types.js';

/**
 * A count per subject. A subject's entry is deleted when its count returns to zero, so memory follows the keys
 * streaming now, not every key that ever streamed.
 */
export class MemorySlotLimiter implements SlotLimiter {
  private readonly counts = new Map<string, number>();
  // Bumped by close(), so a lease from before it cannot decrement a count taken after it.
  private generation = 0;

  /** Takes a slot if fewer than `limit` are held (resolves at once). */
  acquire(subject: string, limit: number): Promise<SlotDecision> {
    return Promise.resolve(this.acquireNow(subject, limit));
  }

  /** Synchronous {@link acquire}, for callers already inside a decision (the Redis limiter's fallback). */
  acquireNow(subject: string, limit: number): SlotDecision {
    checkSlotLimit(subject, limit);
    const held = this.counts.get(subject) ?? 0;
    if (held >= limit) return { ok: false, held };
    this.counts.set(subject, held + 1);
    return { ok: true, held: held + 1, lease: this.lease(subject) };
  }

  /** Slots `subject` holds in this process. */
  held(subject: string): Promise<number> {
    return Promise.resolve(this.heldNow(subject));
  }

  /** Synchronous {@link held}. */
  heldNow(subject: string): number {
    return this.counts.get(subject) ?? 0;
  }

  /** Subjects holding at least one slot (for tests and metrics). */
  get size(): number {
    return this.counts.size;
  }

  /** Forgets every count; leases released afterwards are no-ops. */
  async close(): Promise<void> {
    this.counts.clear();
    this.generation++;
  }

  private lease(subject: string): SlotLease {
    let released = false;
    const generation = this.generation;
    return {
      release: () => {
        // Idempotent: a stream's close and error handlers may both release.
        if (released || generation !== this.generation) return;
        released = true;
        const n = (this.counts.get(subject) ?? 0) - 1;
        if (n > 0) this.counts.set(subject, n);
        else this.counts.delete(subject);
      },
    };
  }
}
