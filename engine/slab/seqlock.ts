/**
 * Sequence-lock helpers over one Int32 word of a SharedArrayBuffer. Even = stable, odd = a write is in progress.
 *
 * Protocol (single writer per word, any number of readers):
 * - writer: `const s = seqWriteBegin(seq, i)`; plain stores; `seqWriteEnd(seq, i, s)`. Nothing between the two
 *   calls may throw or block, or readers spin forever: validate inputs before `seqWriteBegin`.
 * - reader: `const s = seqReadBegin(seq, i)`; if `seqIsOdd(s)` retry; plain loads into locals or an `out` object;
 *   `if (seqReadValid(seq, i, s))` the loads are a consistent snapshot, otherwise retry.
 *
 * The sequence wraps at 2^32 writes and keeps its parity (int32 overflow of an odd value gives an even one), so a
 * wrap is harmless; a reader would have to sleep across exactly 2^31 writes of one record to be fooled.
 */

/**
 * Starts a write of the record guarded by `seq[index]`; returns the odd sequence to hand to {@link seqWriteEnd}.
 * Only the single writer thread may call this.
 */
export function seqWriteBegin(seq: Int32Array, index: number): number {
  // Plain read: this thread is the only writer of the word, so it always sees its own last store.
  const odd = (seq[index]! + 1) | 0;
  // Why Atomics.store: readers must see the odd value before any data store below (a reader that starts now retries
  // instead of reading a half-written record). V8 emits a seq-cst store (xchg, a full fence on x86-64), and the
  // compiler does not move the plain stores that follow above it. See README "x86-64 only is proven".
  Atomics.store(seq, index, odd);
  return odd;
}

/** Ends a write started by {@link seqWriteBegin}, publishing the record (the sequence becomes even again). */
export function seqWriteEnd(seq: Int32Array, index: number, odd: number): void {
  // Why Atomics.store: a release point: every data store above is visible to a reader that observes the new even
  // value, and the value differs from the one before the write, so a reader that overlapped the write fails
  // validation.
  Atomics.store(seq, index, (odd + 1) | 0);
}

/** Starts a read; the returned sequence is odd while a write is in flight (then retry, see {@link seqIsOdd}). */
export function seqReadBegin(seq: Int32Array, index: number): number {
  // Why Atomics.load: an acquire point: the data loads that follow cannot be hoisted above it, and it sees the
  // latest odd/even value published by the writer.
  return Atomics.load(seq, index);
}

/** True when `s` marks a write in progress. */
export function seqIsOdd(s: number): boolean {
  return (s & 1) !== 0;
}

/**
 * Ends a read started with even sequence `begin`: true when no write overlapped the loads made since, i.e. they form
 * a consistent snapshot.
 */
export function seqReadValid(seq: Int32Array, index: number, begin: number): boolean {
  // Why Atomics.load: the second sequence load must be ordered after the data loads (V8 keeps plain typed-array
  // loads before an atomic load, and x86-64 does not reorder loads with loads); equal to `begin` means no writer
  // touched the record in between.
  return Atomics.load(seq, index) === begin;
}
