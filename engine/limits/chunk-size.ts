/**
 * How many units of a quota one instance reserves from Redis at a time (the chunked window limiter). A chunk is
 * quota that one instance holds and the others cannot use, so the rule keeps it a small fraction of the quota:
 * `chunk = clamp(floor(limit / divisor), 1, max)`. A chunk of 1 is the per-call behaviour (one Redis call per
 * request, exact counts).
 */
import { EngineError } from '../errors.js';

/** The two knobs of the chunk rule. */
export interface ChunkRule {
  /**
   * The quota is divided by this: with k instances serving one bucket, at most `(k - 1) * limit / divisor` units
   * can be held by the others when one refuses (README, early refusal). 100 = at most 1% per other instance.
   */
  readonly divisor: number;
  /** Ceiling of a chunk, whatever the quota (bounds what a crashed instance strands until its window ends). */
  readonly max: number;
}

/**
 * The default rule: 1% of the quota, at most 1000 units. The table's quotas give 1 (per call) up to 199 a minute
 * (anonymous 30, free 60, ...), 3 for 300, 6 for 600, 10 for 1000, 20 for 2000.
 */
export const DEFAULT_CHUNK_RULE: ChunkRule = Object.freeze({ divisor: 100, max: 1000 });

/** Throws `LIMITS_BAD_ARGUMENT` unless both knobs are integers >= 1. */
export function checkChunkRule(rule: ChunkRule): void {
  if (!Number.isInteger(rule.divisor) || rule.divisor < 1 || !Number.isInteger(rule.max) || rule.max < 1) {
    throw new EngineError('LIMITS_BAD_ARGUMENT', `bad chunk rule divisor ${rule.divisor}, max ${rule.max}`, {
      divisor: rule.divisor,
      max: rule.max,
    });
  }
}

/**
 * Units reserved per Redis call for a quota of `limit` per window. An unlimited quota gets 1: it is counted per
 * call, exactly as before (nothing is ever refused, so there is nothing to save but the count's precision).
 */
export function chunkSizeOf(limit: number, rule: ChunkRule = DEFAULT_CHUNK_RULE): number {
  if (limit === Infinity) return 1;
  return Math.max(1, Math.min(rule.max, Math.floor(limit / rule.divisor)));
}

/** Refill threshold: when an instance holds this many units or fewer, it tops its holding up to a chunk in the background. */
export function lowWaterOf(chunk: number): number {
  return chunk >> 1;
}
