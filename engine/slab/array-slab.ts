/**
 * The array region: fixed-size, seqlocked, reusable records for pool state that is neither fixed nor small (a tick
 * array of 60-88 ticks, a bin array of 70 bins, an order book side), and per-pool-view directories that list them.
 * One growable SharedArrayBuffer; one writer (the ingest thread); any number of readers that read the data in
 * place, with no copy per quote.
 *
 * - A **record** is allocated for one account (`alloc`), rewritten under its own seqlock (`beginWrite` /
 *   `endWrite`), and freed when the account is no longer watched (`free`); a freed record is reused by the next
 *   `alloc`. Every alloc and free bumps the record's `generation`, so a reader holding (index, generation) from a
 *   directory can tell that the record it points at was freed or reused: it reads as missing, never as another
 *   pool's data.
 * - A **directory** is a record of kind {@link ARRAY_KIND_DIRECTORY} listing one pool view's records (index,
 *   generation, startIndex, kind), sorted by startIndex. A pool record points at its directory (`PoolSlab`
 *   `arrayDir`). The directory's seqlock is also the **group lock** of the pool view: the writer opens it
 *   (`beginGroup`) before it writes any of the pool's arrays or changes the list and closes it (`endGroup`) after;
 *   a reader that began on the directory (`dirBegin`) and validates it after its whole computation (`dirValid`)
 *   knows that every array it read, and the list, came from one write.
 *
 * Reading in place: take `u64` / `i64` / `f64` / `i32` after `dirBegin` or `recordBegin` (they are re-made when
 * the region grows; a view taken earlier stays valid for the records it covers) and index them from `dataWord(r)`
 * (8-byte words) or `dataI32(r)` (4-byte words). Loads between the begin and the validation may be torn: nothing
 * computed from them may be used before the validation succeeds, and a computation over them must not loop on
 * their values unboundedly (bound every walk by the record's size).
 */
import { EngineError } from '../errors.js';
import {
  AREC,
  ARRAY_FLAG_LIVE,
  ARRAY_HEADER,
  ARRAY_HEADER_BYTES,
  ARRAY_KIND_DIRECTORY,
  ARRAY_NO_POOL,
  ARRAY_RECORD_HEADER_BYTES,
  ARRAY_SLAB_MAGIC,
  ARRAY_SLAB_VERSION,
  DIR_ENTRY_I32,
  DIR_HEAD_I32,
  arrayRecordBytes,
  directoryCapacity,
} from './array-layout.js';
import { seqIsOdd, seqReadBegin, seqReadValid, seqWriteBegin, seqWriteEnd } from './seqlock.js';

const U64_MAX = (1n << 64n) - 1n;
const H32_MAGIC = ARRAY_HEADER.magic >> 2;
const H32_VERSION = ARRAY_HEADER.layoutVersion >> 2;
const H32_DATA_WORDS = ARRAY_HEADER.dataWords >> 2;
const H32_CAPACITY = ARRAY_HEADER.capacity >> 2;
const H32_COUNT = ARRAY_HEADER.count >> 2;

function isU32(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n <= 0xffffffff;
}

function isI32(n: number): boolean {
  return Number.isInteger(n) && n >= -0x80000000 && n <= 0x7fffffff;
}

function bad(message: string, details?: Record<string, unknown>): never {
  throw new EngineError('SLAB_BAD_RECORD', `array slab: ${message}`, details);
}

/** Shared records for variable-size pool state; see the file header for the protocol. */
export class ArraySlab {
  /** The shared buffer: hand it to other threads with the pool slab's and `attach` there. */
  readonly sab: SharedArrayBuffer;
  /** Data words (8 bytes each) per record. */
  readonly dataWords: number;
  /** Entries one directory holds. */
  readonly directoryCapacity: number;
  private readonly recordBytes: number;
  private i32v!: Int32Array;
  private u32v!: Uint32Array;
  private u16v!: Uint16Array;
  private u8v!: Uint8Array;
  private u64v!: BigUint64Array;
  private i64v!: BigInt64Array;
  private f64v!: Float64Array;
  private mappedRecords = 0;
  /** Writer only: freed records, reused last-in first-out. */
  private readonly freeList: number[] = [];
  /** Writer only: the directory whose group is open, or -1. */
  private openGroup = -1;
  private openGroupSeq = 0;

  private constructor(sab: SharedArrayBuffer, dataWords: number) {
    this.sab = sab;
    this.dataWords = dataWords;
    this.recordBytes = arrayRecordBytes(dataWords);
    this.directoryCapacity = directoryCapacity(dataWords);
    this.map();
  }

  private map(): void {
    const bytes = this.sab.byteLength;
    this.i32v = new Int32Array(this.sab, 0, bytes >> 2);
    this.u32v = new Uint32Array(this.sab, 0, bytes >> 2);
    this.u16v = new Uint16Array(this.sab, 0, bytes >> 1);
    this.u8v = new Uint8Array(this.sab, 0, bytes);
    this.u64v = new BigUint64Array(this.sab, 0, bytes >> 3);
    this.i64v = new BigInt64Array(this.sab, 0, bytes >> 3);
    this.f64v = new Float64Array(this.sab, 0, bytes >> 3);
    this.mappedRecords = Math.floor((bytes - ARRAY_HEADER_BYTES) / this.recordBytes);
  }

  /**
   * Creates an empty region of records with `dataWords` 8-byte data words each (at least 8: a directory needs
   * room), room for `initialRecords`, growable in place up to `maxRecords`.
   */
  static create(dataWords: number, initialRecords: number, maxRecords: number): ArraySlab {
    if (!isU32(dataWords) || dataWords < 8 || dataWords > 1 << 20 || !isU32(initialRecords) || !isU32(maxRecords) || maxRecords < 1 || initialRecords > maxRecords) {
      throw new EngineError('SLAB_BAD_CONFIG', `array slab: need 8 <= dataWords (${dataWords}), 0 <= initialRecords (${initialRecords}) <= maxRecords (${maxRecords})`);
    }
    const rb = arrayRecordBytes(dataWords);
    const sab = new SharedArrayBuffer(ARRAY_HEADER_BYTES + initialRecords * rb, { maxByteLength: ARRAY_HEADER_BYTES + maxRecords * rb });
    const slab = new ArraySlab(sab, dataWords);
    // Plain stores: no other thread holds the buffer yet; handing it over publishes them.
    slab.u32v[H32_MAGIC] = ARRAY_SLAB_MAGIC;
    slab.u32v[H32_VERSION] = ARRAY_SLAB_VERSION;
    slab.u32v[H32_DATA_WORDS] = dataWords;
    slab.u32v[H32_CAPACITY] = initialRecords;
    return slab;
  }

  /** Opens a region created by another thread; refuses another magic or layout version. */
  static attach(sab: SharedArrayBuffer): ArraySlab {
    if (!(sab instanceof SharedArrayBuffer) || sab.byteLength < ARRAY_HEADER_BYTES) {
      throw new EngineError('SLAB_MAGIC_MISMATCH', 'array slab: not a SharedArrayBuffer holding an array region header');
    }
    const head = new Uint32Array(sab, 0, ARRAY_HEADER_BYTES >> 2);
    if (head[H32_MAGIC] !== ARRAY_SLAB_MAGIC) throw new EngineError('SLAB_MAGIC_MISMATCH', 'array slab: bad magic');
    if (head[H32_VERSION] !== ARRAY_SLAB_VERSION) {
      throw new EngineError('SLAB_VERSION_MISMATCH', `array slab: layout version ${head[H32_VERSION]}, this build reads ${ARRAY_SLAB_VERSION}`);
    }
    return new ArraySlab(sab, head[H32_DATA_WORDS]!);
  }

  // ---- views (re-made on growth) ------------------------------------------------------------------------------

  /** The region as u64 words: a record's data starts at `dataWord(r)`. */
  get u64(): BigUint64Array {
    return this.u64v;
  }
  /** The region as i64 words. */
  get i64(): BigInt64Array {
    return this.i64v;
  }
  /** The region as f64 words. */
  get f64(): Float64Array {
    return this.f64v;
  }
  /** The region as i32 words: a record's data starts at `dataI32(r)`. */
  get i32(): Int32Array {
    return this.i32v;
  }

  // ---- header -------------------------------------------------------------------------------------------------

  /** Records allocated so far (free ones included): every index below it exists. */
  count(): number {
    // Why Atomics.load: pairs with the writer's Atomics.store in alloc, made after the buffer grew and the record
    // was initialised.
    const n = Atomics.load(this.u32v, H32_COUNT);
    if (n > this.mappedRecords) this.map();
    return n;
  }

  /** Records on the writer's free list (writer only). */
  get freeCount(): number {
    return this.freeList.length;
  }

  private offset(r: number): number {
    return ARRAY_HEADER_BYTES + r * this.recordBytes;
  }

  private ensure(r: number): void {
    if (r < this.mappedRecords && r >= 0) return;
    if (!Number.isInteger(r) || r < 0 || r >= this.count()) bad(`record ${r} does not exist`, { record: r });
  }

  private seqIndex(r: number): number {
    return (this.offset(r) + AREC.seq) >> 2;
  }

  // ---- writer -------------------------------------------------------------------------------------------------

  /**
   * Allocates a record for the account `address` of `pool` (writer only): a freed record when there is one, else a
   * new one (growing the region; `SLAB_FULL` past its maximum). Its data is zeroed, its generation bumped; it is
   * not listed in any directory until the writer lists it.
   */
  alloc(pool: number, kind: number, address: Uint8Array, startIndex: number): number {
    if (!isU32(pool) || pool === ARRAY_NO_POOL) bad(`pool ${pool} is not a pool index`);
    if (!Number.isInteger(kind) || kind < 0 || kind >= ARRAY_KIND_DIRECTORY) bad(`kind ${kind} is not an array kind`);
    return this.allocRecord(pool, kind, address, startIndex);
  }

  /** Allocates the directory of one pool view (writer only); point the pool record at it with `setArrayDir`. */
  allocDirectory(pool: number): number {
    if (!isU32(pool) || pool === ARRAY_NO_POOL) bad(`pool ${pool} is not a pool index`);
    return this.allocRecord(pool, ARRAY_KIND_DIRECTORY, new Uint8Array(32), 0);
  }

  private allocRecord(pool: number, kind: number, address: Uint8Array, startIndex: number): number {
    if (!(address instanceof Uint8Array) || address.length !== 32) bad('address must be 32 bytes');
    if (!isI32(startIndex)) bad(`startIndex ${startIndex} is not an i32`);
    let r = this.freeList.pop();
    const fresh = r === undefined;
    if (r === undefined) {
      r = this.u32v[H32_COUNT]!;
      if (r >= this.mappedRecords) this.grow(r + 1);
    }
    const o = this.offset(r);
    const s = seqWriteBegin(this.i32v, o >> 2);
    this.u32v[(o + AREC.generation) >> 2] = (this.u32v[(o + AREC.generation) >> 2]! + 1) >>> 0;
    this.u32v[(o + AREC.pool) >> 2] = pool;
    this.u16v[(o + AREC.kind) >> 1] = kind;
    this.u16v[(o + AREC.flags) >> 1] = ARRAY_FLAG_LIVE;
    this.i32v[(o + AREC.startIndex) >> 2] = startIndex;
    this.u32v[(o + AREC.usedWords) >> 2] = 0;
    this.u64v[(o + AREC.slot) >> 3] = 0n;
    this.u8v.set(address, o + AREC.address);
    const d = (o + ARRAY_RECORD_HEADER_BYTES) >> 3;
    this.u64v.fill(0n, d, d + this.dataWords);
    seqWriteEnd(this.i32v, o >> 2, s);
    // Why Atomics.store: publishes the new record (initialised, inside the grown buffer) to readers' count().
    if (fresh) Atomics.store(this.u32v, H32_COUNT, r + 1);
    return r;
  }

  /**
   * Frees record `r` (writer only): its generation moves, readers holding the old one see it as missing, and the
   * next alloc may reuse it. Unlist it from its directory first (in the same group) so that no listed entry points
   * at a free record. Freeing a directory frees only the directory, not the records it listed.
   */
  free(r: number): void {
    this.ensure(r);
    const o = this.offset(r);
    if ((this.u16v[(o + AREC.flags) >> 1]! & ARRAY_FLAG_LIVE) === 0) bad(`record ${r} is already free`, { record: r });
    const s = seqWriteBegin(this.i32v, o >> 2);
    this.u32v[(o + AREC.generation) >> 2] = (this.u32v[(o + AREC.generation) >> 2]! + 1) >>> 0;
    this.u32v[(o + AREC.pool) >> 2] = ARRAY_NO_POOL;
    this.u16v[(o + AREC.flags) >> 1] = 0;
    seqWriteEnd(this.i32v, o >> 2, s);
    this.freeList.push(r);
  }

  /**
   * Opens the write of live array record `r` (writer only) and returns the sequence for {@link endWrite}. Between
   * the two, the caller stores the data through `u64` / `i64` / `f64` / `i32` from `dataWord(r)` / `dataI32(r)`;
   * nothing in between may throw (validate first), or readers of the record retry forever.
   */
  beginWrite(r: number): number {
    this.ensure(r);
    const o = this.offset(r);
    if ((this.u16v[(o + AREC.flags) >> 1]! & ARRAY_FLAG_LIVE) === 0) bad(`record ${r} is free`, { record: r });
    if (this.u16v[(o + AREC.kind) >> 1] === ARRAY_KIND_DIRECTORY) bad(`record ${r} is a directory: use beginGroup`, { record: r });
    return seqWriteBegin(this.i32v, o >> 2);
  }

  /** Closes a write opened by {@link beginWrite}, stamping the state's slot and the data words in use. */
  endWrite(r: number, seq: number, slot: bigint, usedWords: number): void {
    const o = this.offset(r);
    // Bad stamps are stored clamped rather than thrown: a throw here would leave the record odd.
    this.u64v[(o + AREC.slot) >> 3] = typeof slot === 'bigint' && slot >= 0n && slot <= U64_MAX ? slot : 0n;
    this.u32v[(o + AREC.usedWords) >> 2] = Number.isInteger(usedWords) && usedWords >= 0 ? Math.min(usedWords, this.dataWords) : 0;
    seqWriteEnd(this.i32v, o >> 2, seq);
  }

  /**
   * Opens the group of directory `dir` (writer only): until {@link endGroup}, readers that began on the directory
   * fail validation. Write the pool view's arrays and change its list (`list`) inside the group. One group at a time.
   */
  beginGroup(dir: number): void {
    this.ensure(dir);
    const o = this.offset(dir);
    if (this.u16v[(o + AREC.kind) >> 1] !== ARRAY_KIND_DIRECTORY || (this.u16v[(o + AREC.flags) >> 1]! & ARRAY_FLAG_LIVE) === 0) {
      bad(`record ${dir} is not a live directory`, { record: dir });
    }
    if (this.openGroup !== -1) bad(`group ${this.openGroup} is still open`);
    this.openGroup = dir;
    this.openGroupSeq = seqWriteBegin(this.i32v, o >> 2);
  }

  /**
   * Replaces the open group's list with `records` (writer only): each must be live, of the directory's pool and not
   * a directory; they are stored sorted by startIndex with their current generation. Throws (before writing
   * anything) past the directory's capacity or on a record that does not qualify; the group stays open.
   */
  list(records: readonly number[]): void {
    const dir = this.openGroup;
    if (dir === -1) bad('list outside a group');
    const pool = this.u32v[(this.offset(dir) + AREC.pool) >> 2]!;
    if (records.length > this.directoryCapacity) bad(`${records.length} records, a directory holds ${this.directoryCapacity}`);
    const entries: { r: number; gen: number; start: number; kind: number }[] = [];
    for (const r of records) {
      this.ensure(r);
      const o = this.offset(r);
      const kind = this.u16v[(o + AREC.kind) >> 1]!;
      if ((this.u16v[(o + AREC.flags) >> 1]! & ARRAY_FLAG_LIVE) === 0 || kind === ARRAY_KIND_DIRECTORY || this.u32v[(o + AREC.pool) >> 2] !== pool) {
        bad(`record ${r} is not a live array of pool ${pool}`, { record: r });
      }
      entries.push({ r, gen: this.u32v[(o + AREC.generation) >> 2]!, start: this.i32v[(o + AREC.startIndex) >> 2]!, kind });
    }
    entries.sort((a, b) => a.start - b.start || a.r - b.r);
    const base = this.dataI32(dir);
    this.i32v[base] = entries.length;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      const at = base + DIR_HEAD_I32 + i * DIR_ENTRY_I32;
      this.i32v[at] = e.r;
      this.i32v[at + 1] = e.gen | 0;
      this.i32v[at + 2] = e.start;
      this.i32v[at + 3] = e.kind;
    }
  }

  /** Closes the open group, stamping the slot of the pool view's state. */
  endGroup(slot: bigint): void {
    const dir = this.openGroup;
    if (dir === -1) bad('no open group');
    const o = this.offset(dir);
    this.u64v[(o + AREC.slot) >> 3] = typeof slot === 'bigint' && slot >= 0n && slot <= U64_MAX ? slot : 0n;
    this.openGroup = -1;
    seqWriteEnd(this.i32v, o >> 2, this.openGroupSeq);
  }

  private grow(minRecords: number): void {
    const max = Math.floor((this.sab.maxByteLength - ARRAY_HEADER_BYTES) / this.recordBytes);
    if (minRecords > max) throw new EngineError('SLAB_FULL', `array slab is full at ${max} records`, { maxRecords: max });
    const next = Math.min(max, Math.max(minRecords, this.mappedRecords * 2, 16));
    this.sab.grow(ARRAY_HEADER_BYTES + next * this.recordBytes);
    this.map();
    // Why Atomics.store: the capacity is informational for readers (they map by count), stored atomically anyway.
    Atomics.store(this.u32v, H32_CAPACITY, next);
  }

  // ---- readers ------------------------------------------------------------------------------------------------

  /** First 8-byte data word of record `r` in `u64` / `i64` / `f64`. */
  dataWord(r: number): number {
    return (this.offset(r) + ARRAY_RECORD_HEADER_BYTES) >> 3;
  }

  /** First 4-byte data word of record `r` in `i32`. */
  dataI32(r: number): number {
    return (this.offset(r) + ARRAY_RECORD_HEADER_BYTES) >> 2;
  }

  /** Starts a read of record `r` (odd: a write is in flight, retry). */
  recordBegin(r: number): number {
    this.ensure(r);
    return seqReadBegin(this.i32v, this.seqIndex(r));
  }

  /** True when no write of record `r` overlapped the loads since `recordBegin` returned the even `seq`. */
  recordValid(r: number, seq: number): boolean {
    return seqReadValid(this.i32v, this.seqIndex(r), seq);
  }

  /** Starts a read of directory `dir`'s group: its list and every array written in its groups (odd: retry). */
  dirBegin(dir: number): number {
    return this.recordBegin(dir);
  }

  /** True when no group of `dir` overlapped the loads since `dirBegin` returned the even `seq`. */
  dirValid(dir: number, seq: number): boolean {
    return this.recordValid(dir, seq);
  }

  /** Entries listed by `dir` (read inside a directory read; clamped to its capacity). */
  dirLength(dir: number): number {
    const n = this.i32v[this.dataI32(dir)]!;
    return n < 0 ? 0 : n > this.directoryCapacity ? this.directoryCapacity : n;
  }

  /** Record index of entry `i` of `dir`. */
  dirRecord(dir: number, i: number): number {
    return this.i32v[this.dataI32(dir) + DIR_HEAD_I32 + i * DIR_ENTRY_I32]!;
  }

  /** Generation entry `i` of `dir` was listed with. */
  dirGeneration(dir: number, i: number): number {
    return this.i32v[this.dataI32(dir) + DIR_HEAD_I32 + i * DIR_ENTRY_I32 + 1]! >>> 0;
  }

  /** startIndex of entry `i` of `dir` (entries are sorted by it). */
  dirStartIndex(dir: number, i: number): number {
    return this.i32v[this.dataI32(dir) + DIR_HEAD_I32 + i * DIR_ENTRY_I32 + 2]!;
  }

  /** Kind of entry `i` of `dir`. */
  dirKind(dir: number, i: number): number {
    return this.i32v[this.dataI32(dir) + DIR_HEAD_I32 + i * DIR_ENTRY_I32 + 3]!;
  }

  /**
   * The entry of `dir` whose startIndex is the greatest one at or below `index` (the array that holds a tick or a
   * bin when arrays start at multiples of their span), or -1. Binary search, bounded by the directory's capacity.
   */
  dirFloor(dir: number, index: number): number {
    let lo = 0;
    let hi = this.dirLength(dir) - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.dirStartIndex(dir, mid) <= index) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /**
   * True when entry `i` of `dir` still names the record it was listed with: live and of the listed generation.
   * Inside a validated directory read this holds by construction; a reader that kept an entry across reads checks it.
   */
  entryLive(dir: number, i: number): boolean {
    const r = this.dirRecord(dir, i);
    if (r < 0 || r >= this.mappedRecords) return false;
    const o = this.offset(r);
    return (this.u16v[(o + AREC.flags) >> 1]! & ARRAY_FLAG_LIVE) !== 0 && this.u32v[(o + AREC.generation) >> 2] === this.dirGeneration(dir, i);
  }

  /** Record `r`'s generation. */
  generation(r: number): number {
    this.ensure(r);
    return this.u32v[(this.offset(r) + AREC.generation) >> 2]!;
  }

  /** True when record `r` is allocated. */
  isLive(r: number): boolean {
    this.ensure(r);
    return (this.u16v[(this.offset(r) + AREC.flags) >> 1]! & ARRAY_FLAG_LIVE) !== 0;
  }

  /** Pool index of record `r` ({@link ARRAY_NO_POOL} when free). */
  pool(r: number): number {
    this.ensure(r);
    return this.u32v[(this.offset(r) + AREC.pool) >> 2]!;
  }

  /** Kind of record `r`. */
  kind(r: number): number {
    this.ensure(r);
    return this.u16v[(this.offset(r) + AREC.kind) >> 1]!;
  }

  /** startIndex of record `r`. */
  startIndex(r: number): number {
    this.ensure(r);
    return this.i32v[(this.offset(r) + AREC.startIndex) >> 2]!;
  }

  /** Data words in use in record `r` (its last write's). */
  usedWords(r: number): number {
    this.ensure(r);
    return this.u32v[(this.offset(r) + AREC.usedWords) >> 2]!;
  }

  /** Slot of record `r`'s last write (of a directory: its last group). */
  slot(r: number): bigint {
    this.ensure(r);
    return this.u64v[(this.offset(r) + AREC.slot) >> 3]!;
  }

  /** A copy of record `r`'s account address. */
  address(r: number): Uint8Array {
    this.ensure(r);
    const o = this.offset(r) + AREC.address;
    return this.u8v.slice(o, o + 32);
  }

  /** True when `s` (from a begin) marks a write in flight. */
  static odd(s: number): boolean {
    return seqIsOdd(s);
  }
}
