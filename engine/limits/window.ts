/**
 * Fixed-window arithmetic shared by the memory and Redis window counters, so both cut time the same way.
 */
import { EngineError } from '../errors.js';

/** The quota window of the spec: one minute. */
export const MINUTE_MS = 60_000;

/** Start (epoch ms) of the window holding `nowMs`; windows are aligned to the epoch, not to the first call. */
export function windowStartOf(nowMs: number, windowMs: number): number {
  return Math.floor(nowMs / windowMs) * windowMs;
}

/** Throws `LIMITS_BAD_WINDOW` unless `windowMs` is a positive integer. */
export function checkWindowMs(windowMs: number): void {
  if (!Number.isInteger(windowMs) || windowMs <= 0) {
    throw new EngineError('LIMITS_BAD_WINDOW', `windowMs must be a positive integer, got ${windowMs}`, { windowMs });
  }
}
