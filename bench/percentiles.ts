/**
 * Percentiles of a latency sample (nearest rank on the sorted copy): what every bench reports instead of means.
 */

/** p50 / p99 / max (and the sample size) of `xs`, in the unit of `xs`. */
export interface Percentiles {
  readonly n: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** The percentiles of `xs` (NaN when empty). */
export function percentiles(xs: readonly number[]): Percentiles {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number): number => (s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!);
  return { n: s.length, p50: at(0.5), p99: at(0.99), max: s.length === 0 ? NaN : s[s.length - 1]! };
}
