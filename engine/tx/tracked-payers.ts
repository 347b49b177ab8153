/**
 * The fee payers of the transactions being tracked, counted per signature: a payer is watched while at least one
 * of its transactions is, and for `lingerMs` after its last one ended (default 60 s). A signature leaves on `remove`
 * (its lifecycle ended) or after `ttlMs` (the tracker's budget ran out, or the submission never happened),
 * whichever comes first.
 *
 * Why the linger: a wallet that submits again soon (a market maker, a user's next swap) is still in the stream's
 * filter, so its next submission needs no filter write and cannot land before the filter reaches the stream (the
 * write waits at most 500 ms for the stream to acknowledge it; a loaded stream may take longer). Fewer filter
 * writes, too: one per new wallet, not one per transaction.
 */

/** Signature → payer with a deadline, and payer → how many tracked signatures. */
export class TrackedPayers {
  private readonly bySignature = new Map<string, { readonly payer: string; readonly until: number }>();
  private readonly counts = new Map<string, number>();
  /** Payers without a tracked signature, kept in the filter until the deadline. */
  private readonly lingering = new Map<string, number>();

  constructor(
    private readonly ttlMs = 70_000,
    private readonly now: () => number = Date.now,
    private readonly lingerMs = 60_000,
  ) {}

  /** Tracked signatures. */
  get size(): number {
    return this.bySignature.size;
  }

  /** True when `signature` is tracked. */
  has(signature: string): boolean {
    return this.bySignature.has(signature);
  }

  /** The payers watched now (tracked ones and lingering ones). */
  payers(): string[] {
    return [...this.counts.keys(), ...this.lingering.keys()];
  }

  /** Tracks `signature` paid by `payer`; true when the payer is new (the filter must grow). Idempotent. */
  add(signature: string, payer: string): boolean {
    if (this.bySignature.has(signature)) return false;
    this.bySignature.set(signature, { payer, until: this.now() + this.ttlMs });
    const n = this.counts.get(payer) ?? 0;
    this.counts.set(payer, n + 1);
    // A lingering payer is still in the filter: not new.
    return n === 0 && !this.lingering.delete(payer);
  }

  /**
   * Stops tracking `signature`; true when its payer leaves the filter now (no tracked signature left and no
   * linger); with a linger the payer stays until `expire` drops it.
   */
  remove(signature: string): boolean {
    const e = this.bySignature.get(signature);
    if (!e) return false;
    this.bySignature.delete(signature);
    const n = (this.counts.get(e.payer) ?? 1) - 1;
    if (n > 0) {
      this.counts.set(e.payer, n);
      return false;
    }
    this.counts.delete(e.payer);
    if (this.lingerMs <= 0) return true;
    this.lingering.set(e.payer, this.now() + this.lingerMs);
    return false;
  }

  /** Drops the signatures past their deadline and the payers whose linger ended; true when a payer left. */
  expire(): boolean {
    const now = this.now();
    let dropped = false;
    for (const [sig, e] of this.bySignature) if (now > e.until && this.remove(sig)) dropped = true;
    for (const [payer, until] of this.lingering) {
      if (now > until) {
        this.lingering.delete(payer);
        dropped = true;
      }
    }
    return dropped;
  }
}
