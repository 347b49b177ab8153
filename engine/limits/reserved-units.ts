/**
 * The units of one window that an instance reserved in Redis and has not spent yet, as ranges of positions in the
 * window's reservation order (a grant of g units that left the counter at `used` holds `used - g + 1 .. used`).
 * Units are spent lowest position first, so the position of a request's last unit is its `used`: exact with one
 * instance, distinct across instances.
 */
export class ReservedUnits {
  /** Units held. */
  count = 0;
  // Flat [from, to] pairs (inclusive), oldest first; `head` indexes the first live pair. Rarely more than two.
  private readonly ranges: number[] = [];
  private head = 0;

  /** Adds the positions `from..to` (inclusive); an empty range adds nothing. */
  add(from: number, to: number): void {
    if (to < from) return;
    const n = this.ranges.length;
    // A grant that continues the last one extends it (one instance alone gets contiguous grants).
    if (n > this.head && this.ranges[n - 1] === from - 1) this.ranges[n - 1] = to;
    else this.ranges.push(from, to);
    this.count += to - from + 1;
  }

  /** Spends `n` units (1 <= n <= count) and returns the position of the last one. */
  take(n: number): number {
    const r = this.ranges;
    let last = 0;
    while (n > 0) {
      const from = r[this.head]!;
      const to = r[this.head + 1]!;
      const k = Math.min(n, to - from + 1);
      last = from + k - 1;
      n -= k;
      this.count -= k;
      if (last === to) this.head += 2;
      else r[this.head] = from + k;
    }
    if (this.head === r.length) this.clear();
    return last;
  }

  /** Forgets every unit (they were returned, or their window is over). */
  clear(): void {
    this.ranges.length = 0;
    this.head = 0;
    this.count = 0;
  }
}
