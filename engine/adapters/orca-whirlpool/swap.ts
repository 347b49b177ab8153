/**
 * The exact swap of a Whirlpool over the tick arrays a {@link TickSource} holds: the program's `swap` loop
 * (bit for bit `@orca-so/whirlpools-core`'s `compute_swap`) over the tick-array window the program builds for the
 * swap, with the adaptive fee, and a distinct status when the walk reaches an array the source does not hold.
 *
 * The window: the program walks at most three tick arrays, starting with the one holding the current tick (A -> B:
 * it and the next two below; B -> A: it and the next two above, or the three above it when the current tick is
 * within one tick spacing of its end), and stops at the last one's edge (`SparseSwapTickSequenceBuilder`,
 * `SwapTickSequence`). The quote walks the held prefix of that window exactly as the SDK walks the arrays it is
 * given: a search that finds no initialized tick before the prefix's edge steps to the edge itself. That edge is
 * the program's too when the prefix is the whole window; when it is not (the next array is not held), reaching it
 * answers `DEPTH_UNKNOWN`, since past it the program would see ticks the source does not hold.
 */
import { FeeRateManager, type AdaptiveFeeInfo } from './adaptive-fee.js';
import type { QuoteStatus } from '../types.js';
import { MATH_ERROR, U64_MAX, computeSwapStep, type SwapStep } from './swap-math.js';
import {
  MAX_SQRT_PRICE_X64, MAX_TICK_INDEX, MIN_SQRT_PRICE_X64, MIN_TICK_INDEX, TICK_ARRAY_SIZE,
  isValidTickArrayStart, sqrtPriceToTickIndex, tickIndexToSqrtPrice,
} from './tick-math.js';
import { NO_TICK, type TickSource } from './tick-source.js';

/** The pool fields a swap reads. */
export interface WhirlpoolSwapParams {
  readonly sqrtPrice: bigint;
  readonly liquidity: bigint;
  readonly tickCurrentIndex: number;
  readonly tickSpacing: number;
  /** Static fee rate, per 1e6. */
  readonly feeRate: number;
  /** The Oracle's adaptive fee, or null for a pool without one. */
  readonly adaptiveFee: AdaptiveFeeInfo | null;
}

/** Outcome of a swap; `DEPTH_UNKNOWN`: the walk reached a tick array the source does not hold. */
export type WhirlpoolSwapStatus = QuoteStatus;

/** Result of {@link computeWhirlpoolSwap}; amounts are 0 unless the status is OK. */
export interface WhirlpoolSwap {
  readonly status: WhirlpoolSwapStatus;
  /** Input paid, fee included (exact-in: the amount given). */
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  /** Trade fee (LP + protocol), in the input token. */
  readonly feeAmount: bigint;
  /** Lowest and highest total fee rate (per 1e6) applied over the walk. */
  readonly feeRateMin: number;
  readonly feeRateMax: number;
  /** Square-root price and tick after the swap (the tick only when asked for: NaN otherwise). */
  readonly endSqrtPrice: bigint;
  readonly endTickIndex: number;
  /** Initialized ticks crossed. */
  readonly ticksCrossed: number;
}

/** Most tick arrays one swap instruction walks. */
export const SWAP_TICK_ARRAYS = 3;

function fail(status: WhirlpoolSwapStatus): WhirlpoolSwap {
  return { status, amountIn: 0n, amountOut: 0n, feeAmount: 0n, feeRateMin: 0, feeRateMax: 0, endSqrtPrice: 0n, endTickIndex: 0, ticksCrossed: 0 };
}

/**
 * Start tick indexes of the arrays the program's swap walks, in walk order (`get_start_tick_indexes`): up to
 * {@link SWAP_TICK_ARRAYS}, the invalid ones (past the tick bounds) left out.
 */
export function swapTickArrayStarts(tickCurrentIndex: number, tickSpacing: number, aToB: boolean): number[] {
  const span = TICK_ARRAY_SIZE * tickSpacing;
  const base = Math.floor(tickCurrentIndex / span) * span;
  let first = 0;
  let step = 1;
  if (aToB) step = -1;
  else if (tickCurrentIndex + tickSpacing >= base + span) first = 1;
  const out: number[] = [];
  for (let k = 0; k < SWAP_TICK_ARRAYS; k++) {
    const s = base + (first + k * step) * span;
    if (isValidTickArrayStart(s, tickSpacing)) out.push(s);
  }
  return out;
}

// Search results: the next tick index and what it is.
const REAL = 0;
const EDGE = 1;
const UNKNOWN_EDGE = 2;
const NO_SEQUENCE = 3;

/** The walk's view of the window: the held prefix and its edge. */
class Walk {
  nextTick = 0;
  kind = REAL;
  private readonly starts: number[];
  private readonly held: number;
  private readonly span: number;
  private readonly edgeKind: number;
  private readonly lowIndex: number;
  private readonly highIndex: number;

  constructor(private readonly src: TickSource, private readonly tickSpacing: number, starts: number[]) {
    this.starts = starts;
    let h = 0;
    while (h < starts.length && src.hasArray(starts[h]!)) h++;
    this.held = h;
    this.span = TICK_ARRAY_SIZE * tickSpacing;
    this.edgeKind = h < starts.length ? UNKNOWN_EDGE : EDGE;
    const last = h > 0 ? starts[h - 1]! : 0;
    const first = h > 0 ? starts[0]! : 0;
    // The SDK's sequence bounds, clamped to the tick bounds as the program's min / max arrays are.
    this.lowIndex = Math.max(Math.min(first, last), MIN_TICK_INDEX);
    this.highIndex = Math.min(Math.max(first, last) + this.span - 1, MAX_TICK_INDEX);
  }

  get heldCount(): number {
    return this.held;
  }

  /** True when the held prefix is shorter than the window (an array the program would walk is not held). */
  get partial(): boolean {
    return this.edgeKind === UNKNOWN_EDGE;
  }

  /** A -> B: the greatest initialized tick at or below `t` (`prev_initialized_tick`). */
  prev(t: number): void {
    if (t < this.lowIndex) {
      this.kind = NO_SEQUENCE;
      return;
    }
    let prev = Math.floor(t / this.tickSpacing) * this.tickSpacing;
    for (let k = 0; k < this.held && prev >= this.lowIndex; k++) {
      const s = this.starts[k]!;
      if (prev < s) continue;
      const found = this.src.initializedAtOrBelow(s, prev);
      if (found !== NO_TICK && found >= this.lowIndex) {
        this.nextTick = found;
        this.kind = REAL;
        return;
      }
      prev = s - 1;
    }
    this.nextTick = this.lowIndex;
    this.kind = this.edgeKind;
  }

  /** B -> A: the least initialized tick above `t` (`next_initialized_tick`). */
  next(t: number): void {
    if (t >= this.highIndex) {
      this.kind = NO_SEQUENCE;
      return;
    }
    const rem = ((t % this.tickSpacing) + this.tickSpacing) % this.tickSpacing;
    let next = t - rem + this.tickSpacing;
    for (let k = 0; k < this.held && next <= this.highIndex; k++) {
      const s = this.starts[k]!;
      if (next >= s + this.span) continue;
      const found = this.src.initializedAbove(s, next - 1);
      if (found !== NO_TICK) {
        if (found > this.highIndex) break;
        this.nextTick = found;
        this.kind = REAL;
        return;
      }
      next = s + this.span;
    }
    this.nextTick = this.highIndex;
    this.kind = this.edgeKind;
  }

  liquidityNet(tick: number): bigint {
    const start = Math.floor(tick / this.span) * this.span;
    // The left-edge array may start below the aligned multiple (isValidTickArrayStart): find the held one.
    for (let k = 0; k < this.held; k++) {
      const s = this.starts[k]!;
      if (tick >= s && tick < s + this.span) return this.src.liquidityNet(s, tick);
    }
    return this.src.liquidityNet(start, tick);
  }
}

/**
 * The exact swap: `amount` of the input (`specifiedInput`) or of the output, `aToB` or B -> A, at the chain clock's
 * `timestamp` (unix seconds of the state's slot; the adaptive fee decays with it), price limit at the tick bounds
 * (the program's "no explicit limit"). A swap the program would leave partly filled at the price bound is
 * INSUFFICIENT_LIQUIDITY, as is one that needs more than the window's three arrays (the program fails it).
 */
export function computeWhirlpoolSwap(
  pool: WhirlpoolSwapParams, ticks: TickSource, aToB: boolean, amount: bigint, specifiedInput: boolean, timestamp: bigint,
  endTick = true,
): WhirlpoolSwap {
  const ts = pool.tickSpacing;
  if (!Number.isInteger(ts) || ts < 1 || ts > 0xffff) return fail('INACTIVE');
  if (pool.adaptiveFee !== null && timestamp < pool.adaptiveFee.tradeEnableTimestamp) return fail('INACTIVE');
  const limit = aToB ? MIN_SQRT_PRICE_X64 : MAX_SQRT_PRICE_X64;
  if (aToB ? limit >= pool.sqrtPrice : limit <= pool.sqrtPrice) return fail('INSUFFICIENT_LIQUIDITY');
  if (amount <= 0n) return fail('ZERO_AMOUNT');
  if (amount > U64_MAX) return fail('INSUFFICIENT_LIQUIDITY');
  const walk = new Walk(ticks, ts, swapTickArrayStarts(pool.tickCurrentIndex, ts, aToB));
  if (walk.heldCount === 0) return fail('DEPTH_UNKNOWN');
  const fees = new FeeRateManager(aToB, pool.tickCurrentIndex, timestamp, pool.feeRate, pool.adaptiveFee);
  if (!fees.ok) return fail('INACTIVE');

  let remaining = amount;
  let calculated = 0n;
  let cur = pool.sqrtPrice;
  let curTick = pool.tickCurrentIndex;
  // A step that ends between ticks leaves the tick to be derived from the price (sqrt_price_to_tick_index). The walk
  // never reads it again (such a step ends the swap, or is followed by another step in the same range), so it is
  // derived once at the end, and only when asked for.
  let tickFromPrice = false;
  let liquidity = pool.liquidity;
  let tradeFee = 0n;
  let rateMin = -1;
  let rateMax = -1;
  let crossed = 0;
  const step: SwapStep = { amountIn: 0n, amountOut: 0n, nextSqrtPrice: 0n, feeAmount: 0n };

  while (remaining > 0n && cur !== limit) {
    if (aToB) walk.prev(curTick);
    else walk.next(curTick);
    const kind = walk.kind;
    // Past the held prefix: the program's window ends there (it fails the swap), or an array is not held.
    if (kind === NO_SEQUENCE) return fail(walk.partial ? 'DEPTH_UNKNOWN' : 'INSUFFICIENT_LIQUIDITY');
    const nextTick = walk.nextTick;
    const nextTickSqrt = tickIndexToSqrtPrice(nextTick);
    const target = aToB ? (nextTickSqrt > limit ? nextTickSqrt : limit) : (nextTickSqrt < limit ? nextTickSqrt : limit);
    for (;;) {
      fees.updateVolatilityAccumulator();
      const rate = fees.totalFeeRate();
      if (rateMin < 0 || rate < rateMin) rateMin = rate;
      if (rateMax < 0 || rate > rateMax) rateMax = rate;
      const bounded = fees.boundedTarget(target, liquidity);
      const skipped = fees.skipped;
      computeSwapStep(remaining, rate, liquidity, cur, bounded, aToB, specifiedInput, step);
      if (step.nextSqrtPrice === MATH_ERROR) return fail('INSUFFICIENT_LIQUIDITY');
      tradeFee += step.feeAmount;
      if (specifiedInput) {
        remaining -= step.amountIn + step.feeAmount;
        calculated += step.amountOut;
      } else {
        remaining -= step.amountOut;
        calculated += step.amountIn + step.feeAmount;
      }
      if (remaining < 0n || calculated > U64_MAX) return fail('INSUFFICIENT_LIQUIDITY');
      if (step.nextSqrtPrice === nextTickSqrt) {
        if (kind === REAL) {
          const net = walk.liquidityNet(nextTick);
          liquidity = aToB ? liquidity - net : liquidity + net;
          if (liquidity < 0n || liquidity >= 1n << 128n) return fail('INACTIVE');
          crossed++;
        }
        curTick = aToB ? nextTick - 1 : nextTick;
        tickFromPrice = false;
      } else if (step.nextSqrtPrice !== cur) {
        tickFromPrice = true;
      }
      cur = step.nextSqrtPrice;
      if (!skipped) fees.advanceTickGroup();
      else fees.advanceTickGroupAfterSkip(cur, nextTickSqrt, nextTick);
      if (remaining === 0n || cur === target) break;
    }
    if (kind === UNKNOWN_EDGE && cur === nextTickSqrt) return fail('DEPTH_UNKNOWN');
  }
  if (remaining > 0n) return fail('INSUFFICIENT_LIQUIDITY');
  return {
    status: 'OK',
    amountIn: specifiedInput ? amount : calculated,
    amountOut: specifiedInput ? calculated : amount,
    feeAmount: tradeFee,
    feeRateMin: rateMin < 0 ? pool.feeRate : rateMin,
    feeRateMax: rateMax < 0 ? pool.feeRate : rateMax,
    endSqrtPrice: cur,
    endTickIndex: !endTick ? NaN : tickFromPrice ? sqrtPriceToTickIndex(cur) : curTick,
    ticksCrossed: crossed,
  };
}
