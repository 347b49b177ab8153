/**
 * Argument checks of the limiters. A bad cost or limit is a caller bug, not a backend failure: it throws
 * synchronously (`LIMITS_BAD_ARGUMENT`) in every implementation instead of being absorbed like an outage.
 */
import { EngineError } from '../errors.js';

/**
 * Throws `LIMITS_BAD_ARGUMENT` on a caller bug: a cost that is not a non-negative integer, a limit that is neither
 * a non-negative integer nor `Infinity`, a time that is not finite.
 */
export function checkConsumeArgs(bucket: string, cost: number, limit: number, nowMs: number): void {
  const ok =
    typeof bucket === 'string' &&
    Number.isInteger(cost) &&
    cost >= 0 &&
    (limit === Infinity || (Number.isInteger(limit) && limit >= 0)) &&
    Number.isFinite(nowMs);
  if (!ok) {
    throw new EngineError('LIMITS_BAD_ARGUMENT', `bad consume(${bucket}, ${cost}, ${limit}, ${nowMs})`, {
      bucket,
      cost,
      limit,
      nowMs,
    });
  }
}

/** Throws `LIMITS_BAD_ARGUMENT` unless `limit` is a non-negative integer or `Infinity`. */
export function checkSlotLimit(subject: string, limit: number): void {
  if (typeof subject !== 'string' || !(limit === Infinity || (Number.isInteger(limit) && limit >= 0))) {
    throw new EngineError('LIMITS_BAD_ARGUMENT', `bad acquire(${subject}, ${limit})`, { subject, limit });
  }
}
