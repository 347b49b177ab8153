/**
 * How the quote reads ticks: a small interface over whatever holds a pool's tick arrays (decoded accounts in
 * tests and ingest, the slab's array region in the quote workers, read in place). The quote asks which arrays are
 * held, the next initialized tick within one array, and an initialized tick's `liquidity_net`; it never walks past
 * an array the source does not hold.
 *
 * An array's initialized ticks are a bitmap of 88 bits, kept as three u32 words (ticks 0-31, 32-63, 64-87) so
 * that the search is integer bit arithmetic on numbers, without BigInt.
 */
import { TICK_ARRAY_SIZE } from './tick-math.js';

/** What {@link TickSource} searches answer when no initialized tick is left in the array. */
export const NO_TICK = 0x7fff_ffff;

/** The tick arrays of one pool view, as the quote reads them. */
export interface TickSource {
  /**
   * True when the array starting at `startTickIndex` is held: its ticks are known (an array whose account does
   * not exist on chain is held as all-uninitialized once ingest knows it is absent).
   */
  hasArray(startTickIndex: number): boolean;
  /** In the held array at `startTickIndex`: the greatest initialized tick index <= `tick`, or {@link NO_TICK}. */
  initializedAtOrBelow(startTickIndex: number, tick: number): number;
  /** In the held array at `startTickIndex`: the least initialized tick index > `tick`, or {@link NO_TICK}. */
  initializedAbove(startTickIndex: number, tick: number): number;
  /** `liquidity_net` of the initialized tick `tick` of the held array at `startTickIndex`. */
  liquidityNet(startTickIndex: number, tick: number): bigint;
}

/**
 * Offset (0..87) of the highest set bit at or below offset `i` of a bitmap in three u32 words, or -1. `i` may be
 * above 87 (clamped) or negative (none).
 */
export function bitAtOrBelow(w0: number, w1: number, w2: number, i: number): number {
  if (i < 0) return -1;
  if (i > TICK_ARRAY_SIZE - 1) i = TICK_ARRAY_SIZE - 1;
  if (i >= 64) {
    const m = (i - 64) === 31 ? w2 : w2 & ((2 ** (i - 64 + 1)) - 1);
    if (m !== 0) return 64 + 31 - Math.clz32(m);
    i = 63;
  }
  if (i >= 32) {
    const m = (i - 32) === 31 ? w1 : w1 & ((2 ** (i - 32 + 1)) - 1);
    if (m !== 0) return 32 + 31 - Math.clz32(m);
    i = 31;
  }
  const m = i === 31 ? w0 : w0 & ((2 ** (i + 1)) - 1);
  return m !== 0 ? 31 - Math.clz32(m) : -1;
}

function lowestBit(m: number): number {
  // m & -m isolates the lowest set bit (as a signed 32-bit value); clz32 of it gives its position.
  return 31 - Math.clz32(m & -m);
}

/** Offset (0..87) of the lowest set bit strictly above offset `i` (may be negative: from 0), or -1. */
export function bitAbove(w0: number, w1: number, w2: number, i: number): number {
  let from = i + 1;
  if (from < 0) from = 0;
  if (from < 32) {
    const m = from === 0 ? w0 : w0 & ~((2 ** from) - 1);
    if (m !== 0) return lowestBit(m);
    from = 32;
  }
  if (from < 64) {
    const k = from - 32;
    const m = k === 0 ? w1 : w1 & ~((2 ** k) - 1);
    if (m !== 0) return 32 + lowestBit(m);
    from = 64;
  }
  if (from < TICK_ARRAY_SIZE) {
    const k = from - 64;
    const m = k === 0 ? w2 : w2 & ~((2 ** k) - 1);
    if (m !== 0) return 64 + lowestBit(m);
  }
  return -1;
}

/** One decoded tick array (fixed or dynamic account): what the quote needs of it. */
export interface TickArrayTicks {
  readonly startTickIndex: number;
  /** Initialized ticks: bits 0-31, 32-63, 64-87 of the 88-bit bitmap, as u32 numbers. */
  readonly bitmap: Uint32Array;
  /** `liquidity_net` per tick (0 for an uninitialized tick), length 88. */
  readonly liquidityNet: readonly bigint[];
}

/** A {@link TickSource} over decoded tick arrays (tests, ingest, the localnet). */
export class ArrayTickSource implements TickSource {
  private readonly byStart = new Map<number, TickArrayTicks>();
  private readonly tickSpacing: number;

  /** Holds `arrays` of a pool of `tickSpacing`; an array start not among them reads as not held. */
  constructor(tickSpacing: number, arrays: readonly TickArrayTicks[]) {
    this.tickSpacing = tickSpacing;
    for (const a of arrays) this.byStart.set(a.startTickIndex, a);
  }

  hasArray(startTickIndex: number): boolean {
    return this.byStart.has(startTickIndex);
  }

  initializedAtOrBelow(startTickIndex: number, tick: number): number {
    const a = this.byStart.get(startTickIndex);
    if (a === undefined) return NO_TICK;
    const i = Math.floor((tick - startTickIndex) / this.tickSpacing);
    const b = bitAtOrBelow(a.bitmap[0]!, a.bitmap[1]!, a.bitmap[2]!, i);
    return b < 0 ? NO_TICK : startTickIndex + b * this.tickSpacing;
  }

  initializedAbove(startTickIndex: number, tick: number): number {
    const a = this.byStart.get(startTickIndex);
    if (a === undefined) return NO_TICK;
    const i = Math.floor((tick - startTickIndex) / this.tickSpacing);
    const b = bitAbove(a.bitmap[0]!, a.bitmap[1]!, a.bitmap[2]!, i);
    return b < 0 ? NO_TICK : startTickIndex + b * this.tickSpacing;
  }

  liquidityNet(startTickIndex: number, tick: number): bigint {
    const a = this.byStart.get(startTickIndex);
    if (a === undefined) return 0n;
    return a.liquidityNet[(tick - startTickIndex) / this.tickSpacing] ?? 0n;
  }
}
