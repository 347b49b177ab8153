/**
 * The pool slab: fixed-size pool records in one growable SharedArrayBuffer, written by the ingest thread only and
 * read concurrently by every other thread through a per-record seqlock. Layout in `layout.ts` and `README.md`.
 */
import { EngineError } from '../errors.js';
import { PARAM_F64_WORDS, PARAM_U64_WORDS } from './record-fields.js';
import type { ChainClock, RecordFields } from './record-fields.js';
import {
  FLAG_CONFIRMED,
  FLAG_TRADABLE,
  FLAG_WRITTEN,
  HEADER,
  HEADER_BYTES,
  POOL_SLAB_MAGIC,
  POOL_SLAB_VERSION,
  POOL_STRIDE_BYTES,
  REC,
  poolSlabBytes,
  recordOffset,
} from './layout.js';
import { ArraySlab } from './array-slab.js';
import { ExtSlab } from './ext-slab.js';
import type { PoolExactSnapshot, PoolF64Snapshot } from './pool-snapshot.js';
import { seqIsOdd, seqReadBegin, seqReadValid, seqWriteBegin, seqWriteEnd } from './seqlock.js';

/** View 0 of a pool: the latest state, as of the newest processed slot. */
export const VIEW_LATEST = 0;
/** View 1 of a pool: the latest state whose slot is confirmed. */
export const VIEW_CONFIRMED = 1;

const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;
const TWO_POW_32 = 4294967296;

// Element indices of the header fields in the typed-array view of matching width.
const H32_MAGIC = HEADER.magic >> 2;
const H32_VERSION = HEADER.layoutVersion >> 2;
const H32_CAPACITY = HEADER.capacity >> 2;
const H32_COUNT = HEADER.count >> 2;
const H32_GENERATION = HEADER.generation >> 2;
const H32_CLOCK_SEQ = HEADER.clockSeq >> 2;
const H64_CLOCK_SLOT = HEADER.clockSlot >> 3;
const H64_CLOCK_TS = HEADER.clockUnixTimestamp >> 3;
const H64_CLOCK_EPOCH = HEADER.clockEpoch >> 3;
const H64_PROCESSED = HEADER.processedSlot >> 3;
const H64_CONFIRMED = HEADER.confirmedSlot >> 3;

// Element indices of the record fields relative to the record's first element in each view.
const R32_SEQ = REC.seq >> 2;
const R16_DEX = REC.dex >> 1;
const R16_FLAGS = REC.flags >> 1;
const R32_MINT_A = REC.mintA >> 2;
const R32_MINT_B = REC.mintB >> 2;
const R32_STATUS = REC.status >> 2;
const R64_RESERVE_A = REC.reserveA >> 3;
const R64_RESERVE_B = REC.reserveB >> 3;
const R64_SLOT = REC.slot >> 3;
const R32_SLOT_LO = REC.slot >> 2;
const R64_UPDATED = REC.updatedAtMs >> 3;
const R64_RESERVE_A_F64 = REC.reserveAF64 >> 3;
const R64_RESERVE_B_F64 = REC.reserveBF64 >> 3;
const R64_PARAM_U64 = REC.paramU64 >> 3;
const R64_PARAM_F64 = REC.paramF64 >> 3;
const R32_EXT = REC.extOffset >> 2;
const R32_ARRAY_DIR = REC.arrayDir >> 2;

/** Extension region size: 64 KiB at first, growable to 64 MiB (8-byte words). */
const EXT_INITIAL_WORDS = 8192;
const EXT_MAX_WORDS = 8 * 1024 * 1024;

/**
 * Array region: records of 288 data words (2,368 bytes: a 70-bin array at 4 words a bin, an 88-tick array at 3),
 * 64 at first, growable to 262,144 (address space only until used).
 */
const ARRAY_DATA_WORDS = 288;
const ARRAY_INITIAL_RECORDS = 64;
const ARRAY_MAX_RECORDS = 262_144;

function isU32(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n <= 0xffffffff;
}

function isU64(v: unknown): v is bigint {
  return typeof v === 'bigint' && v >= 0n && v <= U64_MAX;
}

function badRecord(pool: number, why: string): never {
  throw new EngineError('SLAB_BAD_RECORD', `pool ${pool}: ${why}`, { pool });
}

/**
 * Checks every value `write` stores, before the seqlock is taken: a throw between write-begin and write-end would
 * leave the record odd and readers spinning forever.
 */
function checkFields(pool: number, f: RecordFields, slot: bigint, updatedAtMs: number): void {
  if (!isU32(f.status)) badRecord(pool, `status ${f.status} is not a u32`);
  if (!isU64(f.reserveA)) badRecord(pool, `reserveA ${String(f.reserveA)} is not a u64 bigint`);
  if (!isU64(f.reserveB)) badRecord(pool, `reserveB ${String(f.reserveB)} is not a u64 bigint`);
  if (!isU64(slot)) badRecord(pool, `slot ${String(slot)} is not a u64 bigint`);
  if (typeof updatedAtMs !== 'number') badRecord(pool, 'updatedAtMs is not a number');
  const u64 = f.u64;
  if (u64.length !== PARAM_U64_WORDS) badRecord(pool, `u64 has ${u64.length} words, expected ${PARAM_U64_WORDS}`);
  for (let i = 0; i < PARAM_U64_WORDS; i++) if (!isU64(u64[i])) badRecord(pool, `u64[${i}] is not a u64 bigint`);
  const f64 = f.f64;
  if (f64.length !== PARAM_F64_WORDS) badRecord(pool, `f64 has ${f64.length} words, expected ${PARAM_F64_WORDS}`);
  for (let i = 0; i < PARAM_F64_WORDS; i++) if (typeof f64[i] !== 'number') badRecord(pool, `f64[${i}] is not a number`);
}

/**
 * Shared pool records: two per pool (latest and confirmed), each guarded by its own seqlock. One writer (the
 * ingest thread) owns `addPool`, `write`, `setConfirmed` and the header setters; any thread may read.
 */
export class PoolSlab {
  /** The shared buffer; hand it to other threads (workerData, postMessage) and `attach` there. */
  readonly sab: SharedArrayBuffer;
  /** The extension region (variable-size adapter state); hand `ext.sab` to other threads with `sab`. */
  readonly ext: ExtSlab;
  /** The array region (tick arrays, bin arrays, book sides; `array-slab.ts`); hand `arrays.sab` over with `sab`. */
  readonly arrays: ArraySlab;
  // Fixed-length views over the whole buffer, re-made after it grows (see mapViews). Not length-tracking views: on
  // Node 20 every element access through a view that tracks a growable buffer costs ~3x more (bench/README.md).
  private i32!: Int32Array;
  private u32!: Uint32Array;
  private u16!: Uint16Array;
  private u8!: Uint8Array;
  private f64!: Float64Array;
  private u64!: BigUint64Array;
  private i64!: BigInt64Array;
  /** Pools the current views cover. */
  private mappedPools = 0;
  /** Pools this instance knows to be published; refreshed from the header only when a read goes past it. */
  private knownCount = 0;

  private constructor(sab: SharedArrayBuffer, ext: ExtSlab, arrays: ArraySlab) {
    this.sab = sab;
    this.ext = ext;
    this.arrays = arrays;
    this.mapViews();
  }

  /** (Re)builds the views over the buffer's current length. */
  private mapViews(): void {
    const sab = this.sab;
    const bytes = sab.byteLength;
    this.i32 = new Int32Array(sab, 0, bytes >> 2);
    this.u32 = new Uint32Array(sab, 0, bytes >> 2);
    this.u16 = new Uint16Array(sab, 0, bytes >> 1);
    this.u8 = new Uint8Array(sab, 0, bytes);
    this.f64 = new Float64Array(sab, 0, bytes >> 3);
    this.u64 = new BigUint64Array(sab, 0, bytes >> 3);
    this.i64 = new BigInt64Array(sab, 0, bytes >> 3);
    this.mappedPools = Math.floor((bytes - HEADER_BYTES) / POOL_STRIDE_BYTES);
  }

  /** Creates an empty slab with room for `initialPools`, growable in place up to `maxPools`. */
  static create(initialPools: number, maxPools: number): PoolSlab {
    if (!isU32(initialPools) || !isU32(maxPools) || maxPools < 1 || initialPools > maxPools) {
      throw new EngineError('SLAB_BAD_CONFIG', `pool slab: need 0 <= initialPools (${initialPools}) <= maxPools (${maxPools}), maxPools >= 1`, {
        initialPools,
        maxPools,
      });
    }
    const sab = new SharedArrayBuffer(poolSlabBytes(initialPools), { maxByteLength: poolSlabBytes(maxPools) });
    const slab = new PoolSlab(sab, ExtSlab.create(EXT_INITIAL_WORDS, EXT_MAX_WORDS), ArraySlab.create(ARRAY_DATA_WORDS, ARRAY_INITIAL_RECORDS, ARRAY_MAX_RECORDS));
    // Plain stores: nobody else holds the buffer yet; handing it to a thread (postMessage) publishes them.
    slab.u32[H32_MAGIC] = POOL_SLAB_MAGIC;
    slab.u32[H32_VERSION] = POOL_SLAB_VERSION;
    slab.u32[H32_CAPACITY] = initialPools;
    return slab;
  }

  /**
   * Opens a slab created by another thread (or this one). Throws `SLAB_MAGIC_MISMATCH` when the buffer is not a
   * pool slab and `SLAB_VERSION_MISMATCH` when it was built with another layout version: a worker must refuse it.
   * `extSab` is the creator's `ext.sab`; without it, records that point into the extension region cannot be read.
   * `arraySab` is the creator's `arrays.sab`; without it, the pools' array directories cannot be read.
   */
  static attach(sab: SharedArrayBuffer, extSab?: SharedArrayBuffer, arraySab?: SharedArrayBuffer): PoolSlab {
    if (!(sab instanceof SharedArrayBuffer) || sab.byteLength < HEADER_BYTES) {
      throw new EngineError('SLAB_MAGIC_MISMATCH', 'pool slab: not a SharedArrayBuffer holding a slab header');
    }
    const head = new Uint32Array(sab, 0, HEADER_BYTES >> 2);
    const magic = head[H32_MAGIC]!;
    if (magic !== POOL_SLAB_MAGIC) {
      throw new EngineError('SLAB_MAGIC_MISMATCH', `pool slab: magic 0x${magic.toString(16)}, expected 0x${POOL_SLAB_MAGIC.toString(16)}`, {
        found: magic,
        expected: POOL_SLAB_MAGIC,
      });
    }
    const version = head[H32_VERSION]!;
    if (version !== POOL_SLAB_VERSION) {
      throw new EngineError(
        'SLAB_VERSION_MISMATCH',
        `pool slab: layout version ${version}, this build reads version ${POOL_SLAB_VERSION}; restart every thread from one build`,
        { found: version, expected: POOL_SLAB_VERSION },
      );
    }
    return new PoolSlab(sab, extSab ? ExtSlab.attach(extSab) : ExtSlab.create(2, 2), arraySab ? ArraySlab.attach(arraySab) : ArraySlab.create(8, 0, 1));
  }

  // ---- header -------------------------------------------------------------------------------------------------

  /** Number of pools allocated (published) so far. */
  count(): number {
    // Why Atomics.load: pairs with the writer's Atomics.store in addPool; every record below the count it returns is
    // fully initialised and inside the grown buffer as seen by this thread.
    const n = Atomics.load(this.u32, H32_COUNT);
    // The count was published after the writer grew the buffer, so this thread's byteLength already covers it.
    if (n > this.mappedPools) this.mapViews();
    this.knownCount = n;
    return n;
  }

  /** Pools the buffer currently has room for without growing. */
  capacity(): number {
    // Why Atomics.load: the writer updates it right after growing; a plain read could be stale or cached.
    return Atomics.load(this.u32, H32_CAPACITY);
  }

  /** The most pools the buffer can ever hold (fixed at creation by its `maxByteLength`). */
  maxPools(): number {
    return Math.floor((this.sab.maxByteLength - HEADER_BYTES) / POOL_STRIDE_BYTES);
  }

  /** Topology version: bumped after each pool is added, so readers know when to rebuild their indices. */
  generation(): number {
    // Why Atomics.load: pairs with the Atomics.add in addPool; seeing generation g implies seeing the pools it counts.
    return Atomics.load(this.u32, H32_GENERATION);
  }

  /** The chain clock last published by the writer (zeros before the first `setClock`). */
  clock(): ChainClock {
    const i32 = this.i32;
    for (;;) {
      const s = seqReadBegin(i32, H32_CLOCK_SEQ);
      if (seqIsOdd(s)) continue;
      const slot = this.u64[H64_CLOCK_SLOT]!;
      const unixTimestamp = this.i64[H64_CLOCK_TS]!;
      const epoch = this.u64[H64_CLOCK_EPOCH]!;
      if (seqReadValid(i32, H32_CLOCK_SEQ, s)) return { slot, unixTimestamp, epoch };
    }
  }

  /** Publishes the chain clock (writer only); the three fields change together under the header seqlock. */
  setClock(c: ChainClock): void {
    if (!isU64(c.slot) || !isU64(c.epoch) || typeof c.unixTimestamp !== 'bigint' || c.unixTimestamp < I64_MIN || c.unixTimestamp > I64_MAX) {
      throw new EngineError('SLAB_BAD_CLOCK', 'pool slab: clock fields must be u64 slot/epoch and i64 unixTimestamp bigints');
    }
    const s = seqWriteBegin(this.i32, H32_CLOCK_SEQ);
    this.u64[H64_CLOCK_SLOT] = c.slot;
    this.i64[H64_CLOCK_TS] = c.unixTimestamp;
    this.u64[H64_CLOCK_EPOCH] = c.epoch;
    seqWriteEnd(this.i32, H32_CLOCK_SEQ, s);
  }

  /** Newest slot whose updates have been applied to the latest view. */
  processedSlot(): bigint {
    // Why Atomics.load: a single 64-bit word; the atomic load is guaranteed not to tear, no seqlock needed.
    return Atomics.load(this.u64, H64_PROCESSED);
  }

  /** Newest slot reported confirmed on the slot stream. */
  confirmedSlot(): bigint {
    // Why Atomics.load: as for processedSlot, one 64-bit word read without tearing.
    return Atomics.load(this.u64, H64_CONFIRMED);
  }

  /** Sets the processed slot (writer only). */
  setProcessedSlot(slot: bigint): void {
    if (!isU64(slot)) throw new EngineError('SLAB_BAD_CLOCK', `processed slot ${String(slot)} is not a u64 bigint`);
    // Why Atomics.store: a whole 64-bit word published at once, ordered after the record writes made before it.
    Atomics.store(this.u64, H64_PROCESSED, slot);
  }

  /** Sets the confirmed slot (writer only). */
  setConfirmedSlot(slot: bigint): void {
    if (!isU64(slot)) throw new EngineError('SLAB_BAD_CLOCK', `confirmed slot ${String(slot)} is not a u64 bigint`);
    // Why Atomics.store: as for setProcessedSlot.
    Atomics.store(this.u64, H64_CONFIRMED, slot);
  }

  // ---- writer -------------------------------------------------------------------------------------------------

  /**
   * Allocates a pool (writer only) and returns its index. Its identity (address, DEX, mints) is fixed from here on;
   * both views stay unwritten until `write`. Grows the buffer when full; throws `SLAB_FULL` at `maxPools`.
   */
  addPool(address: Uint8Array, dex: number, mintA: number, mintB: number): number {
    if (!(address instanceof Uint8Array) || address.length !== 32) {
      throw new EngineError('SLAB_BAD_RECORD', 'addPool: address must be 32 bytes');
    }
    if (!Number.isInteger(dex) || dex < 0 || dex > 0xffff || !isU32(mintA) || !isU32(mintB)) {
      throw new EngineError('SLAB_BAD_RECORD', `addPool: dex ${dex} must be a u16, mints ${mintA}/${mintB} u32`, { dex, mintA, mintB });
    }
    // Plain read: the writer thread is the only one that changes the count.
    const n = this.u32[H32_COUNT]!;
    if (n >= this.u32[H32_CAPACITY]!) this.grow(n + 1);
    for (let view = 0; view < 2; view++) {
      const b = recordOffset(n, view);
      this.u16[(b >> 1) + R16_DEX] = dex;
      this.u32[(b >> 2) + R32_MINT_A] = mintA;
      this.u32[(b >> 2) + R32_MINT_B] = mintB;
      this.u8.set(address, b + REC.address);
    }
    // Why Atomics.store: publishes the new record; a reader that loads the new count (Atomics.load) is guaranteed to
    // see the identity fields above and the grown buffer length.
    Atomics.store(this.u32, H32_COUNT, n + 1);
    this.knownCount = n + 1;
    // Why Atomics.add after the count store: the topology version moves only once the pool is visible, so a reader
    // that rebuilds on the new generation finds the pool.
    Atomics.add(this.u32, H32_GENERATION, 1);
    return n;
  }

  /**
   * Writes one view of a pool under its seqlock (writer only): the record fields, their f64 mirrors, the slot, the
   * time the update was applied and the flags (tradable = `status === 0`). Throws `SLAB_BAD_RECORD` before touching
   * memory when a value does not fit its field.
   */
  write(pool: number, view: number, fields: RecordFields, slot: bigint, updatedAtMs: number, confirmed: boolean): void {
    this.checkPool(pool, view);
    checkFields(pool, fields, slot, updatedAtMs);
    // The blob is interned (appended and published) before the record that points at it is written.
    const extOffset = fields.ext ? this.ext.intern(fields.ext) : 0;
    const b = recordOffset(pool, view);
    const w = b >> 2;
    const q = b >> 3;
    const i32 = this.i32;
    const u64 = this.u64;
    const f64 = this.f64;
    const s = seqWriteBegin(i32, w + R32_SEQ);
    this.u32[w + R32_STATUS] = fields.status;
    u64[q + R64_RESERVE_A] = fields.reserveA;
    u64[q + R64_RESERVE_B] = fields.reserveB;
    u64[q + R64_SLOT] = slot;
    f64[q + R64_UPDATED] = updatedAtMs;
    f64[q + R64_RESERVE_A_F64] = Number(fields.reserveA);
    f64[q + R64_RESERVE_B_F64] = Number(fields.reserveB);
    const pu = fields.u64;
    for (let i = 0; i < PARAM_U64_WORDS; i++) u64[q + R64_PARAM_U64 + i] = pu[i]!;
    const pf = fields.f64;
    for (let i = 0; i < PARAM_F64_WORDS; i++) f64[q + R64_PARAM_F64 + i] = pf[i]!;
    this.u32[w + R32_EXT] = extOffset;
    this.u16[(b >> 1) + R16_FLAGS] = FLAG_WRITTEN | (confirmed ? FLAG_CONFIRMED : 0) | (fields.status === 0 ? FLAG_TRADABLE : 0);
    seqWriteEnd(i32, w + R32_SEQ, s);
  }

  /** Sets or clears the confirmed flag of one view (writer only), under the record's seqlock. */
  setConfirmed(pool: number, view: number, confirmed: boolean): void {
    this.checkPool(pool, view);
    const b = recordOffset(pool, view);
    const h = (b >> 1) + R16_FLAGS;
    const s = seqWriteBegin(this.i32, (b >> 2) + R32_SEQ);
    const flags = this.u16[h]!;
    this.u16[h] = confirmed ? flags | FLAG_CONFIRMED : flags & ~FLAG_CONFIRMED;
    seqWriteEnd(this.i32, (b >> 2) + R32_SEQ, s);
  }

  /**
   * Points one view of `pool` at its directory in the array region (writer only; -1 = none). Stored atomically,
   * outside the record's seqlock: the directory's own group lock covers what it lists, and a reader that loads the
   * pointer then begins on the directory sees a whole list.
   */
  setArrayDir(pool: number, view: number, dir: number): void {
    this.checkPool(pool, view);
    if (!Number.isInteger(dir) || dir < -1 || dir >= 0xffffffff) throw new EngineError('SLAB_BAD_RECORD', `array directory ${dir} is not a record index`);
    // Why Atomics.store: publishes the pointer after the directory record exists (allocated before this call).
    Atomics.store(this.u32, (recordOffset(pool, view) >> 2) + R32_ARRAY_DIR, dir + 1);
  }

  /** The directory of one view of `pool` in {@link arrays}, or -1 when the pool has none. */
  arrayDir(pool: number, view: number): number {
    if (!this.has(pool, view)) return -1;
    // Why Atomics.load: pairs with setArrayDir's store.
    return Atomics.load(this.u32, (recordOffset(pool, view) >> 2) + R32_ARRAY_DIR) - 1;
  }

  // ---- readers ------------------------------------------------------------------------------------------------

  /**
   * Fills `out` with a consistent float snapshot of one view, allocating nothing. Returns false (and leaves `out`
   * unspecified) when the pool does not exist or the view was never written.
   */
  readF64(pool: number, view: number, out: PoolF64Snapshot): boolean {
    if (!this.has(pool, view)) return false;
    const b = recordOffset(pool, view);
    const w = b >> 2;
    const q = b >> 3;
    const i32 = this.i32;
    const u32 = this.u32;
    const f64 = this.f64;
    const outF64 = out.f64;
    // Identity fields are immutable once the pool is published (see poolDex): read them outside the seqlock.
    out.dex = this.u16[(b >> 1) + R16_DEX]!;
    out.mintA = u32[w + R32_MINT_A]!;
    out.mintB = u32[w + R32_MINT_B]!;
    let flags: number;
    let ext: number;
    for (;;) {
      const s = seqReadBegin(i32, w + R32_SEQ);
      if (seqIsOdd(s)) continue;
      flags = this.u16[(b >> 1) + R16_FLAGS]!;
      ext = u32[w + R32_EXT]!;
      out.status = u32[w + R32_STATUS]!;
      out.reserveA = f64[q + R64_RESERVE_A_F64]!;
      out.reserveB = f64[q + R64_RESERVE_B_F64]!;
      out.slot = u32[w + R32_SLOT_LO]! + u32[w + R32_SLOT_LO + 1]! * TWO_POW_32;
      out.updatedAtMs = f64[q + R64_UPDATED]!;
      for (let i = 0; i < PARAM_F64_WORDS; i++) outF64[i] = f64[q + R64_PARAM_F64 + i]!;
      if (seqReadValid(i32, w + R32_SEQ, s)) break;
    }
    out.flags = flags;
    out.confirmed = (flags & FLAG_CONFIRMED) !== 0;
    out.ext = ext === 0 ? null : this.ext.floats(ext);
    return (flags & FLAG_WRITTEN) !== 0;
  }

  /**
   * Fills `out` with a consistent exact snapshot of one view: BigInt reserves, slot and u64 parameters, plus every
   * field of {@link readF64}. Returns false when the pool does not exist or the view was never written.
   *
   * Why a loop of its own and not one shared with readF64: the seqlock protocol is shared (`seqlock.ts`), the copies
   * differ, and one loop over both snapshot shapes measured 66 ns per readF64 against 41 (bench/slab.bench.ts,
   * 2026-11-25): the price path reads every pool through readF64.
   */
  readExact(pool: number, view: number, out: PoolExactSnapshot): boolean {
    if (!this.has(pool, view)) return false;
    const b = recordOffset(pool, view);
    const w = b >> 2;
    const q = b >> 3;
    const i32 = this.i32;
    const u64 = this.u64;
    const f64 = this.f64;
    const outU64 = out.u64;
    const outF64 = out.f64;
    out.dex = this.u16[(b >> 1) + R16_DEX]!;
    out.mintA = this.u32[w + R32_MINT_A]!;
    out.mintB = this.u32[w + R32_MINT_B]!;
    let flags: number;
    let ext: number;
    for (;;) {
      const s = seqReadBegin(i32, w + R32_SEQ);
      if (seqIsOdd(s)) continue;
      flags = this.u16[(b >> 1) + R16_FLAGS]!;
      ext = this.u32[w + R32_EXT]!;
      out.status = this.u32[w + R32_STATUS]!;
      out.reserveA = u64[q + R64_RESERVE_A]!;
      out.reserveB = u64[q + R64_RESERVE_B]!;
      out.reserveAF64 = f64[q + R64_RESERVE_A_F64]!;
      out.reserveBF64 = f64[q + R64_RESERVE_B_F64]!;
      out.slot = u64[q + R64_SLOT]!;
      out.updatedAtMs = f64[q + R64_UPDATED]!;
      for (let i = 0; i < PARAM_U64_WORDS; i++) outU64[i] = u64[q + R64_PARAM_U64 + i]!;
      for (let i = 0; i < PARAM_F64_WORDS; i++) outF64[i] = f64[q + R64_PARAM_F64 + i]!;
      if (seqReadValid(i32, w + R32_SEQ, s)) break;
    }
    out.flags = flags;
    out.confirmed = (flags & FLAG_CONFIRMED) !== 0;
    out.ext = ext === 0 ? null : this.ext.read(ext);
    return (flags & FLAG_WRITTEN) !== 0;
  }

  /**
   * The write sequence of one view's record: it moves on every `write` and `setConfirmed` of that view (odd while a
   * write is in flight), so a reader that kept the value it saw can tell, with one atomic load and no message,
   * whether the record was written since (the quote stream's idle check). Throws `SLAB_NO_SUCH_POOL` for a pool not
   * allocated.
   */
  writeSeq(pool: number, view: number = VIEW_LATEST): number {
    this.checkPool(pool, view);
    // Why Atomics.load: the writer publishes the word with Atomics.store (seqlock.ts); a plain load could be stale.
    return Atomics.load(this.i32, (recordOffset(pool, view) >> 2) + R32_SEQ);
  }

  /** DEX index of a pool (`DEX_IDS` order). */
  poolDex(pool: number): number {
    // No seqlock: the identity fields are written once, before addPool publishes the pool with an Atomics.store of
    // the count, and never again. Any thread that learnt the index (count, topology, a message) sees them complete.
    this.checkPool(pool, 0);
    return this.u16[(recordOffset(pool, 0) >> 1) + R16_DEX]!;
  }

  /** Mint table ids of a pool's token A and token B. */
  poolMints(pool: number): { readonly mintA: number; readonly mintB: number } {
    // No seqlock: immutable after addPool published the pool (see poolDex).
    this.checkPool(pool, 0);
    const w = recordOffset(pool, 0) >> 2;
    return { mintA: this.u32[w + R32_MINT_A]!, mintB: this.u32[w + R32_MINT_B]! };
  }

  /** A copy of the pool's 32-byte account address. */
  address(pool: number): Uint8Array {
    // No seqlock: immutable after addPool published the pool (see poolDex).
    this.checkPool(pool, 0);
    const at = recordOffset(pool, 0) + REC.address;
    return this.u8.slice(at, at + 32);
  }

  // ---- internals ----------------------------------------------------------------------------------------------

  /** Hot-path existence check: a plain compare, and one atomic load only when `pool` is past the cached count. */
  private has(pool: number, view: number): boolean {
    if (view !== 0 && view !== 1) throw new EngineError('SLAB_BAD_VIEW', `view ${view} is neither VIEW_LATEST nor VIEW_CONFIRMED`);
    if ((pool >>> 0) !== pool) return false;
    return pool < this.knownCount || pool < this.count();
  }

  private checkPool(pool: number, view: number): void {
    if (!this.has(pool, view)) throw new EngineError('SLAB_NO_SUCH_POOL', `pool ${pool} is not allocated`, { pool });
  }

  /** Grows the buffer (writer only) to hold at least `minPools`, doubling to amortise. */
  private grow(minPools: number): void {
    const max = this.maxPools();
    if (minPools > max) throw new EngineError('SLAB_FULL', `pool slab is full at ${max} pools (maxPools)`, { maxPools: max });
    const cap = this.u32[H32_CAPACITY]!;
    const next = Math.min(max, Math.max(minPools, cap * 2, 16));
    this.sab.grow(poolSlabBytes(next));
    this.mapViews();
    // Why Atomics.store: informational for readers (capacity()); the count store in addPool is what publishes.
    Atomics.store(this.u32, H32_CAPACITY, next);
  }
}
