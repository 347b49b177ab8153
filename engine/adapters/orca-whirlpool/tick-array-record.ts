/**
 * A Whirlpool tick array in the slab's array region (`engine/slab/array-slab.ts`): the record packing, its writer
 * (decoded array -> record words, for ingest) and a {@link TickSource} that reads one pool view's arrays in place,
 * through the view's directory, with no copy per quote.
 *
 * Record data words (8 bytes each), {@link TICK_ARRAY_RECORD_WORDS} of them:
 * | word | content |
 * |---|---|
 * | 0 | initialized bitmap, ticks 0-63 (bit i = tick i) |
 * | 1 | initialized bitmap, ticks 64-87 (bits 0-23; the rest 0) |
 * | 2 + 2i, 3 + 2i | tick i's `liquidity_net` (i128): low u64, then high word as i64 (0 for an uninitialized tick) |
 * The record header carries the array's start tick (`startIndex`), its account address and the slot it was
 * written at; the kind is {@link WHIRLPOOL_TICK_ARRAY_KIND}.
 */
import type { ArraySlab } from '../../slab/array-slab.js';
import { TICK_ARRAY_SIZE } from './tick-math.js';
import { NO_TICK, bitAbove, bitAtOrBelow, type TickArrayTicks, type TickSource } from './tick-source.js';

/** Array-region `kind` of a Whirlpool tick array record (unique among the adapters' kinds). */
export const WHIRLPOOL_TICK_ARRAY_KIND = 1;
/** Data words one tick array uses: 2 bitmap words and 2 words per tick (178 of the service's 288). */
export const TICK_ARRAY_RECORD_WORDS = 2 + 2 * TICK_ARRAY_SIZE;

const U64_MASK = 0xffff_ffff_ffff_ffffn;

/**
 * Writes `ticks` into record `r` of `slab` (writer only, inside the pool view's group): opens the record's
 * seqlock, stores the words, closes it stamped with `slot`. Validates first, so nothing between the record's
 * begin and end can throw (a throw there would leave readers retrying forever).
 */
export function writeTickArrayRecord(slab: ArraySlab, r: number, ticks: TickArrayTicks, slot: bigint): void {
  if (slab.dataWords < TICK_ARRAY_RECORD_WORDS) throw new RangeError(`array records hold ${slab.dataWords} words, a tick array needs ${TICK_ARRAY_RECORD_WORDS}`);
  if (ticks.liquidityNet.length !== TICK_ARRAY_SIZE || ticks.bitmap.length !== 3) throw new RangeError('a tick array has 88 ticks');
  if ((ticks.bitmap[2]! >>> 24) !== 0) throw new RangeError('bitmap bits above tick 87');
  if (slab.startIndex(r) !== ticks.startTickIndex) throw new RangeError(`record ${r} holds the array at ${slab.startIndex(r)}, not ${ticks.startTickIndex}`);
  const seq = slab.beginWrite(r);
  const u = slab.u64;
  const i64 = slab.i64;
  const d = slab.dataWord(r);
  u[d] = BigInt(ticks.bitmap[0]!) | (BigInt(ticks.bitmap[1]!) << 32n);
  u[d + 1] = BigInt(ticks.bitmap[2]!);
  for (let i = 0; i < TICK_ARRAY_SIZE; i++) {
    const net = ticks.liquidityNet[i]!;
    u[d + 2 + 2 * i] = net & U64_MASK;
    i64[d + 3 + 2 * i] = BigInt.asIntN(64, net >> 64n);
  }
  slab.endWrite(r, seq, slot, TICK_ARRAY_RECORD_WORDS);
}

/**
 * The tick arrays of one pool view read in place from the array region: begin the read with `begin()` (the
 * directory's group sequence; odd: a write is in flight, retry), quote, then keep the quote only if `valid()`.
 * Loads between the two may be torn; the quote's walk is bounded by its three-array window whatever they are.
 */
export class SlabTickSource implements TickSource {
  private seq = 0;
  private lastStart = NO_TICK;
  private lastRecord = -1;

  /** Reads the arrays listed by directory record `dir` of `slab`, for a pool of `tickSpacing`. */
  constructor(private readonly slab: ArraySlab, private readonly dir: number, private readonly tickSpacing: number) {}

  /** Starts a read of the view (`dirBegin`); returns false while a group write is in flight. */
  begin(): boolean {
    this.seq = this.slab.dirBegin(this.dir);
    this.lastStart = NO_TICK;
    this.lastRecord = -1;
    return (this.seq & 1) === 0;
  }

  /** True when no group write overlapped the reads since {@link begin} (`dirValid`): the quote may be used. */
  valid(): boolean {
    return this.slab.dirValid(this.dir, this.seq);
  }

  /** Record index of the listed tick array starting at `start`, or -1 (binary search of the sorted directory). */
  private record(start: number): number {
    if (start === this.lastStart) return this.lastRecord;
    const slab = this.slab;
    const e = slab.dirFloor(this.dir, start);
    let r = -1;
    if (e >= 0 && slab.dirStartIndex(this.dir, e) === start && slab.dirKind(this.dir, e) === WHIRLPOOL_TICK_ARRAY_KIND) {
      r = slab.dirRecord(this.dir, e);
      // A torn directory could name any index: never read past what the region maps.
      if (r < 0 || r >= slab.count()) r = -1;
    }
    this.lastStart = start;
    this.lastRecord = r;
    return r;
  }

  hasArray(startTickIndex: number): boolean {
    return this.record(startTickIndex) >= 0;
  }

  private search(startTickIndex: number, tick: number, above: boolean): number {
    const r = this.record(startTickIndex);
    if (r < 0) return NO_TICK;
    const w = this.slab.dataI32(r);
    const i32 = this.slab.i32;
    const i = Math.floor((tick - startTickIndex) / this.tickSpacing);
    // The bitmap as three u32 words, read through the i32 view: no BigInt on the search.
    const w0 = i32[w]! >>> 0;
    const w1 = i32[w + 1]! >>> 0;
    const w2 = (i32[w + 2]! >>> 0) & 0xff_ffff;
    const b = above ? bitAbove(w0, w1, w2, i) : bitAtOrBelow(w0, w1, w2, i);
    return b < 0 ? NO_TICK : startTickIndex + b * this.tickSpacing;
  }

  initializedAtOrBelow(startTickIndex: number, tick: number): number {
    return this.search(startTickIndex, tick, false);
  }

  initializedAbove(startTickIndex: number, tick: number): number {
    return this.search(startTickIndex, tick, true);
  }

  liquidityNet(startTickIndex: number, tick: number): bigint {
    const r = this.record(startTickIndex);
    if (r < 0) return 0n;
    const i = (tick - startTickIndex) / this.tickSpacing;
    if (!Number.isInteger(i) || i < 0 || i >= TICK_ARRAY_SIZE) return 0n;
    const d = this.slab.dataWord(r) + 2 + 2 * i;
    return (this.slab.i64[d + 1]! << 64n) | this.slab.u64[d]!;
  }
}
