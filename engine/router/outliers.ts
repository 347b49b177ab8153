/**
 * The outlier rule of price derivation (documented in the README):
 * 1. dust: a pool whose quote-side reserve is worth less than `minLiquidityUsd` is excluded;
 * 2. deviation: among the rest, a pool whose reserve ratio deviates from the depth-weighted median by more than
 *    `maxDeviation` (relative) is excluded. With two pools that disagree, the deeper one is the median and wins.
 */
import type { PoolSide } from './pool-side.js';

/** Knobs of the outlier rule. */
export interface OutlierRule {
  readonly minLiquidityUsd: number;
  readonly maxDeviation: number;
}

/** The default rule: $100 of depth, 10% from the weighted median. */
export const DEFAULT_OUTLIER_RULE: OutlierRule = { minLiquidityUsd: 100, maxDeviation: 0.1 };

/** Keeps the valid pools; `quoteUsd` is the USD value of one quote token. */
export function excludeOutliers(sides: readonly PoolSide[], quoteUsd: number, rule: OutlierRule): PoolSide[] {
  const deep = sides.filter((s) => s.quoteReserve * quoteUsd >= rule.minLiquidityUsd);
  if (deep.length <= 1) return deep;
  const median = weightedMedian(deep);
  return deep.filter((s) => Math.abs(s.spot / median - 1) <= rule.maxDeviation);
}

/** Depth-weighted median of the pools' reserve ratios. */
export function weightedMedian(sides: readonly PoolSide[]): number {
  const sorted = [...sides].sort((a, b) => a.spot - b.spot);
  const total = sorted.reduce((s, p) => s + p.quoteReserve, 0);
  let acc = 0;
  for (const s of sorted) {
    acc += s.quoteReserve;
    if (acc >= total / 2) return s.spot;
  }
  return sorted[sorted.length - 1]!.spot;
}
