/**
 * The fee payers of the transactions being tracked, counted per signature: a payer is watched while at least one
 * of its transactions is. A signature leaves on `remove` (its lifecycle ended) or after `ttlMs` (the tracker's
 * budget ran out, or the submission never happened), whichever comes first.
 */

/** Signature → payer with a deadline, and payer → how many tracked signatures. */
export class TrackedPayers {
  private readonly bySignature = new Map<string, { readonly payer: string; readonly until: number }>();
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly ttlMs = 70_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Tracked signatures. */
  get size(): number {
    return this.bySignature.size;
  }

  /** True when `signature` is tracked. */
  has(signature: string): boolean {
    return this.bySignature.has(signature);
  }

  /** The payers watched now. */
  payers(): string[] {
    return [...this.counts.keys()];
  }

  /** Tracks `signature` paid by `payer`; true when the payer is new (the filter must grow). Idempotent. */
  add(signature: string, payer: string): boolean {
    if (this.bySignature.has(signature)) return false;
    this.bySignature.set(signature, { payer, until: this.now() + this.ttlMs });
    const n = this.counts.get(payer) ?? 0;
    this.counts.set(payer, n + 1);
    return n === 0;
  }

  /** Stops tracking `signature`; true when its payer has no tracked signature left (the filter may shrink). */
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
    return true;
  }

  /** Drops the signatures past their deadline; true when a payer went with them. */
  expire(): boolean {
    const now = this.now();
    let dropped = false;
    for (const [sig, e] of this.bySignature) if (now > e.until && this.remove(sig)) dropped = true;
    return dropped;
  }
}
