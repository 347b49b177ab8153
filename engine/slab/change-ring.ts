/**
 * The change ring: how the single writer (ingest) tells readers (the main thread, quote workers) which pool
 * records changed, through shared memory instead of messages. One `SharedArrayBuffer` of Int32 words: a header
 * with the published count, then a power-of-two ring of entries (a pool index, the sign bit set when the entry is
 * for the confirmed view). The writer stores entries, then publishes the new count with `Atomics.store` and wakes
 * waiters with `Atomics.notify`; each reader keeps its own cursor, waits with `Atomics.waitAsync` (no thread
 * blocked) and reads entries in place: no copy, no serialization, no string. A reader lapped by the writer (more
 * than the ring's capacity behind) learns it and treats every pool as changed.
 *
 * Layout (Int32 words): [0] magic, [1] capacity (entries, a power of two), [2] published count (wraps at 2^32),
 * [3..7] reserved, [8 + i] entry i.
 */

const MAGIC = 0x43524e47; // "CRNG"
const W_MAGIC = 0;
const W_CAPACITY = 1;
/** The published count: the word readers wait on. */
const W_COUNT = 2;
const HEADER_WORDS = 8;
/** Sign bit of an entry: the confirmed view changed (clear: the latest view). */
const CONFIRMED_BIT = 0x8000_0000 | 0;
const POOL_MASK = 0x7fff_ffff;

/** Default ring capacity: 65,536 entries (256 KiB), several seconds of changes of every pool of a busy chain. */
export const DEFAULT_CHANGE_RING_ENTRIES = 1 << 16;

/** The writer's side. Only one thread may write. */
export class ChangeRing {
  private readonly words: Int32Array;
  private readonly mask: number;
  /** Entries stored, published or not (the writer's own count). */
  private count: number;

  private constructor(readonly sab: SharedArrayBuffer) {
    this.words = new Int32Array(sab);
    if (this.words[W_MAGIC] !== MAGIC) throw new Error('CHANGE_RING_MAGIC_MISMATCH: not a change ring');
    this.mask = this.words[W_CAPACITY]! - 1;
    this.count = Atomics.load(this.words, W_COUNT) >>> 0;
  }

  /** A new ring of `entries` (rounded up to a power of two, at least 16). */
  static create(entries = DEFAULT_CHANGE_RING_ENTRIES): ChangeRing {
    let cap = 16;
    while (cap < entries) cap *= 2;
    const sab = new SharedArrayBuffer((HEADER_WORDS + cap) * 4);
    const w = new Int32Array(sab);
    w[W_MAGIC] = MAGIC;
    w[W_CAPACITY] = cap;
    return new ChangeRing(sab);
  }

  /** The writer over a ring made by {@link create} in another thread. */
  static attach(sab: SharedArrayBuffer): ChangeRing {
    return new ChangeRing(sab);
  }

  /** Stores one change; readers see it at the next {@link publish}. */
  push(pool: number, confirmed: boolean): void {
    this.words[HEADER_WORDS + (this.count & this.mask)] = confirmed ? pool | CONFIRMED_BIT : pool;
    this.count = (this.count + 1) >>> 0;
  }

  /** Publishes every stored change and wakes the waiting readers. */
  publish(): void {
    // Why Atomics.store: a release point: a reader that loads the new count sees every entry stored before it.
    Atomics.store(this.words, W_COUNT, this.count | 0);
    Atomics.notify(this.words, W_COUNT);
  }
}

/** Consecutive changes of one view, in ring order. */
export interface ChangeRun {
  /** True: the confirmed view changed; false: the latest view. */
  readonly confirmed: boolean;
  /** Pools (a pool may repeat). */
  readonly pools: number[];
}

/** What one read of the ring found. */
export interface ChangeBatch {
  /** The changes in the order they were published, as runs of one view (a confirmation, then the next write...). */
  readonly runs: ChangeRun[];
  /** True when the reader was lapped: changes were lost, treat every pool as changed in both views. */
  readonly lapped: boolean;
}

/**
 * The ring's published count, read without a cursor: a number that moves with every publish (every pool change
 * ingest announces), for readers that only need to know whether anything changed since they last looked (memos).
 */
export function changeCounter(sab: SharedArrayBuffer): () => number {
  const words = new Int32Array(sab);
  if (words[W_MAGIC] !== MAGIC) throw new Error('CHANGE_RING_MAGIC_MISMATCH: not a change ring');
  // Why Atomics.load: pairs with the writer's Atomics.store in publish(); a new count means the slab moved.
  return () => Atomics.load(words, W_COUNT);
}

/** One reader's cursor over a ring. Any number of readers, each in any thread. */
export class ChangeReader {
  private readonly words: Int32Array;
  private readonly mask: number;
  private readonly capacity: number;
  private cursor: number;
  private stopped = false;

  /** A reader that starts at the ring's present (changes published before are not seen). */
  constructor(sab: SharedArrayBuffer) {
    this.words = new Int32Array(sab);
    if (this.words[W_MAGIC] !== MAGIC) throw new Error('CHANGE_RING_MAGIC_MISMATCH: not a change ring');
    this.capacity = this.words[W_CAPACITY]!;
    this.mask = this.capacity - 1;
    this.cursor = Atomics.load(this.words, W_COUNT) >>> 0;
  }

  /** Changes published since the last read (empty arrays when none). */
  read(): ChangeBatch {
    const head = Atomics.load(this.words, W_COUNT) >>> 0;
    const n = (head - this.cursor) >>> 0;
    if (n === 0) return { runs: [], lapped: false };
    if (n > this.capacity) {
      this.cursor = head;
      return { runs: [], lapped: true };
    }
    const runs: ChangeRun[] = [];
    let run: ChangeRun | null = null;
    for (let i = 0; i < n; i++) {
      const v = this.words[HEADER_WORDS + ((this.cursor + i) & this.mask)]!;
      const confirmed = v < 0;
      if (run === null || run.confirmed !== confirmed) {
        run = { confirmed, pools: [] };
        runs.push(run);
      }
      run.pools.push(v & POOL_MASK);
    }
    // The writer may have lapped the entries while they were read: then they are not to be trusted.
    const after = Atomics.load(this.words, W_COUNT) >>> 0;
    if (((after - this.cursor) >>> 0) > this.capacity) {
      this.cursor = after;
      return { runs: [], lapped: true };
    }
    this.cursor = head;
    return { runs, lapped: false };
  }

  /**
   * Calls `onBatch` with every batch of changes as they are published, until {@link stop}. Waits with
   * `Atomics.waitAsync`: the thread stays free; a publish wakes it within one event-loop task.
   */
  async watch(onBatch: (b: ChangeBatch) => void): Promise<void> {
    while (!this.stopped) {
      const r = Atomics.waitAsync(this.words, W_COUNT, this.cursor | 0);
      if (r.async) await r.value;
      if (this.stopped) return;
      const b = this.read();
      if (b.lapped || b.runs.length > 0) onBatch(b);
    }
  }

  /** Ends {@link watch} (wakes it if it waits). */
  stop(): void {
    this.stopped = true;
    Atomics.notify(this.words, W_COUNT);
  }
}
