/**
 * The quote stream's arithmetic: the spec's tickHz clamp, the recompute period it gives, the minMoveBps threshold
 * (integer BigInt arithmetic, no float on the amounts), and which amount of a quote the threshold watches.
 */
import type { QuoteBody } from './quote-service.js';

/** The spec's tickHz bounds (Limits: "tickHz clamped to [1, 5]"). */
export const TICK_HZ_RANGE = [1, 5] as const;
/** The spec's default tickHz. */
export const DEFAULT_TICK_HZ = 2;
/** The spec's default minMoveBps. */
export const DEFAULT_MIN_MOVE_BPS = 1;
/** Largest minMoveBps accepted: a move of 100 %. */
export const MAX_MIN_MOVE_BPS = 10_000;

/** `tickHz` clamped to [1, 5] (any finite number is accepted; the caller refuses the rest). */
export function clampTickHz(tickHz: number): number {
  return Math.min(TICK_HZ_RANGE[1], Math.max(TICK_HZ_RANGE[0], tickHz));
}

/** Milliseconds between two recompute checks of a stream at `tickHz` (clamped first): 200 to 1000. */
export function tickPeriodMs(tickHz: number): number {
  return Math.round(1000 / clampTickHz(tickHz));
}

/**
 * `minMoveBps` in hundredths of a bps, as a bigint: the threshold is compared in integers, and a fractional
 * `minMoveBps` (0.5) is honoured to 1/100 bps.
 */
export function minMoveCentiBps(minMoveBps: number): bigint {
  return BigInt(Math.round(minMoveBps * 100));
}

/**
 * True when `next` moved from `last` (the last emitted amount) by at least the threshold:
 * |next - last| x 1e6 >= minMoveCentiBps x last, i.e. |next - last| x 10000 >= minMoveBps x last. With a
 * threshold of 0 every recompute qualifies.
 */
export function movedEnough(last: bigint, next: bigint, centiBps: bigint): boolean {
  const diff = next >= last ? next - last : last - next;
  return diff * 1_000_000n >= centiBps * last;
}

/**
 * The amount of a quote the threshold watches: `bestRoute.outputAmount` (the spec's) for ExactIn; for ExactOut,
 * where the output is the fixed amount asked, the input the best route needs (`bestRoute.inAmount`).
 */
export function watchedAmount(body: QuoteBody): bigint {
  return BigInt(body.swapMode === 'ExactOut' ? body.bestRoute.inAmount : body.bestRoute.outputAmount);
}
