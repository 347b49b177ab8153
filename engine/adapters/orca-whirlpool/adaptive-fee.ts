/**
 * The adaptive fee of a Whirlpool (a pool whose `fee_tier_index_seed` differs from its tick spacing): a
 * volatility accumulator per tick group, decayed by the chain clock, added to the static fee rate. A port of the
 * program's `FeeRateManager` (as `@orca-so/whirlpools-core` compiles it, u32 wrapping included) for quoting: the
 * manager's variables are updated in a private copy, never in the state.
 */
import { MAX_TICK_INDEX, MIN_TICK_INDEX, sqrtPriceToTickIndex, tickIndexToSqrtPrice } from './tick-math.js';

/** Oracle constants (set by the pool's fee tier). */
export interface AdaptiveFeeConstants {
  readonly filterPeriod: number;
  readonly decayPeriod: number;
  readonly reductionFactor: number;
  readonly adaptiveFeeControlFactor: number;
  readonly maxVolatilityAccumulator: number;
  readonly tickGroupSize: number;
  readonly majorSwapThresholdTicks: number;
}

/** Oracle variables (moved by every swap). Timestamps are unix seconds. */
export interface AdaptiveFeeVariables {
  readonly lastReferenceUpdateTimestamp: bigint;
  readonly lastMajorSwapTimestamp: bigint;
  readonly volatilityReference: number;
  readonly tickGroupIndexReference: number;
  readonly volatilityAccumulator: number;
}

/** What a quote needs of the Oracle account. */
export interface AdaptiveFeeInfo {
  readonly tradeEnableTimestamp: bigint;
  readonly constants: AdaptiveFeeConstants;
  readonly variables: AdaptiveFeeVariables;
}

/** Scale of the volatility accumulator per tick group crossed. */
export const VOLATILITY_ACCUMULATOR_SCALE_FACTOR = 10_000;
/** Denominator of `reduction_factor`. */
export const REDUCTION_FACTOR_DENOMINATOR = 10_000;
/** Denominator of `adaptive_fee_control_factor`. */
export const ADAPTIVE_FEE_CONTROL_FACTOR_DENOMINATOR = 100_000;
/** Reference older than this (seconds) is reset. */
export const MAX_REFERENCE_AGE = 3_600n;
/** Total fee rate cap (10%, per 1e6). */
export const FEE_RATE_HARD_LIMIT = 100_000;

const FEE_DENOM = BigInt(ADAPTIVE_FEE_CONTROL_FACTOR_DENOMINATOR) * BigInt(VOLATILITY_ACCUMULATOR_SCALE_FACTOR) * BigInt(VOLATILITY_ACCUMULATOR_SCALE_FACTOR);

/** Floor division of i32 by a positive divisor (the program's `floor_division`). */
function floorDivision(a: number, b: number): number {
  return Math.floor(a / b);
}

/** The adaptive fee rate (per 1e6, capped) for an accumulator value. */
export function adaptiveFeeRate(c: AdaptiveFeeConstants, volatilityAccumulator: number): number {
  // `volatility_accumulator * tick_group_size as u32`: a u32 product (wraps in the release build).
  const crossed = BigInt(Math.imul(volatilityAccumulator, c.tickGroupSize) >>> 0);
  const n = BigInt(c.adaptiveFeeControlFactor) * crossed * crossed;
  let q = n / FEE_DENOM;
  if (q * FEE_DENOM !== n) q += 1n;
  return q > BigInt(FEE_RATE_HARD_LIMIT) ? FEE_RATE_HARD_LIMIT : Number(q);
}

/**
 * Fee rate manager of one quote: static, or adaptive with its own copy of the oracle variables. `ok` is false when
 * the program refuses the clock (a timestamp before the oracle's last update).
 */
export class FeeRateManager {
  ok = true;
  private readonly adaptive: boolean;
  private readonly aToB: boolean;
  private readonly staticFeeRate: number;
  private readonly c: AdaptiveFeeConstants | null;
  private tickGroupIndex = 0;
  private volatilityReference = 0;
  private tickGroupIndexReference = 0;
  private volatilityAccumulator = 0;
  private lowerIndex = 0;
  private lowerSqrt = -1n;
  private upperIndex = 0;
  private upperSqrt = -1n;

  /** Starts the manager at the pool's tick (`FeeRateManager::new`). */
  constructor(aToB: boolean, currentTickIndex: number, timestamp: bigint, staticFeeRate: number, info: AdaptiveFeeInfo | null) {
    this.aToB = aToB;
    this.staticFeeRate = staticFeeRate;
    this.adaptive = info !== null;
    this.c = info?.constants ?? null;
    if (info === null) return;
    const c = info.constants;
    const v = info.variables;
    this.tickGroupIndex = floorDivision(currentTickIndex, c.tickGroupSize);
    this.volatilityReference = v.volatilityReference;
    this.tickGroupIndexReference = v.tickGroupIndexReference;
    this.volatilityAccumulator = v.volatilityAccumulator;
    // update_reference
    const maxTs = v.lastReferenceUpdateTimestamp > v.lastMajorSwapTimestamp ? v.lastReferenceUpdateTimestamp : v.lastMajorSwapTimestamp;
    if (timestamp < maxTs) {
      this.ok = false;
      return;
    }
    if (timestamp - v.lastReferenceUpdateTimestamp > MAX_REFERENCE_AGE) {
      this.tickGroupIndexReference = this.tickGroupIndex;
      this.volatilityReference = 0;
    } else {
      const elapsed = timestamp - maxTs;
      if (elapsed < BigInt(c.filterPeriod)) {
        // the reference stands
      } else if (elapsed < BigInt(c.decayPeriod)) {
        this.tickGroupIndexReference = this.tickGroupIndex;
        this.volatilityReference = Number((BigInt(this.volatilityAccumulator) * BigInt(c.reductionFactor)) / BigInt(REDUCTION_FACTOR_DENOMINATOR)) >>> 0;
      } else {
        this.tickGroupIndexReference = this.tickGroupIndex;
        this.volatilityReference = 0;
      }
    }
    // The core range: tick groups beyond it all sit at the accumulator's maximum.
    const span = (c.maxVolatilityAccumulator - this.volatilityReference) >>> 0;
    const delta = Math.ceil(span / VOLATILITY_ACCUMULATOR_SCALE_FACTOR);
    this.lowerIndex = (this.tickGroupIndexReference - delta) | 0;
    this.upperIndex = (this.tickGroupIndexReference + delta) | 0;
    const lowerTick = this.lowerIndex * c.tickGroupSize;
    const upperTick = this.upperIndex * c.tickGroupSize + c.tickGroupSize;
    this.lowerSqrt = lowerTick > MIN_TICK_INDEX ? tickIndexToSqrtPrice(lowerTick) : -1n;
    this.upperSqrt = upperTick < MAX_TICK_INDEX ? tickIndexToSqrtPrice(upperTick) : -1n;
  }

  /** `update_volatility_accumulator` at the current tick group. */
  updateVolatilityAccumulator(): void {
    if (!this.adaptive) return;
    this.updateAt(this.tickGroupIndex);
  }

  private updateAt(group: number): void {
    const delta = Math.abs(this.tickGroupIndexReference - group);
    const acc = this.volatilityReference + delta * VOLATILITY_ACCUMULATOR_SCALE_FACTOR;
    const max = this.c!.maxVolatilityAccumulator;
    this.volatilityAccumulator = acc < max ? acc : max;
  }

  /** Static plus adaptive rate, capped at {@link FEE_RATE_HARD_LIMIT} (`get_total_fee_rate`). */
  totalFeeRate(): number {
    if (!this.adaptive) return this.staticFeeRate;
    const total = this.staticFeeRate + adaptiveFeeRate(this.c!, this.volatilityAccumulator);
    return total > FEE_RATE_HARD_LIMIT ? FEE_RATE_HARD_LIMIT : total;
  }

  /** Whether the last {@link boundedTarget} skipped the per-group update (read right after calling it). */
  skipped = false;

  /** The step target bounded by the current tick group's edge (`get_bounded_sqrt_price_target`). */
  boundedTarget(target: bigint, liquidity: bigint): bigint {
    this.skipped = false;
    if (!this.adaptive) return target;
    const c = this.c!;
    this.skipped = true;
    if (c.adaptiveFeeControlFactor === 0 || liquidity === 0n) return target;
    if (this.lowerSqrt >= 0n && this.tickGroupIndex < this.lowerIndex) {
      return this.aToB ? target : (target < this.lowerSqrt ? target : this.lowerSqrt);
    }
    if (this.upperSqrt >= 0n && this.tickGroupIndex > this.upperIndex) {
      return this.aToB ? (target > this.upperSqrt ? target : this.upperSqrt) : target;
    }
    this.skipped = false;
    let boundary = this.aToB ? this.tickGroupIndex * c.tickGroupSize : this.tickGroupIndex * c.tickGroupSize + c.tickGroupSize;
    boundary = boundary < MIN_TICK_INDEX ? MIN_TICK_INDEX : boundary > MAX_TICK_INDEX ? MAX_TICK_INDEX : boundary;
    const b = tickIndexToSqrtPrice(boundary);
    return this.aToB ? (target > b ? target : b) : (target < b ? target : b);
  }

  /** `advance_tick_group`: the next group in the swap's direction. */
  advanceTickGroup(): void {
    if (!this.adaptive) return;
    this.tickGroupIndex += this.aToB ? -1 : 1;
  }

  /** `advance_tick_group_after_skip`: jumps to the group the price reached after a skipped (unbounded) step. */
  advanceTickGroupAfterSkip(sqrtPrice: bigint, nextTickSqrtPrice: bigint, nextTickIndex: number): void {
    if (!this.adaptive) return;
    const size = this.c!.tickGroupSize;
    let tick: number;
    let onBoundary: boolean;
    if (sqrtPrice === nextTickSqrtPrice) {
      tick = nextTickIndex;
      onBoundary = tick % size === 0;
    } else {
      tick = sqrtPriceToTickIndex(sqrtPrice);
      onBoundary = tick % size === 0 && sqrtPrice === tickIndexToSqrtPrice(tick);
    }
    // Rust `/` truncates toward zero, as `Math.trunc`.
    const last = onBoundary && !this.aToB ? Math.trunc(tick / size) - 1 : floorDivision(tick, size);
    if ((this.aToB && last < this.tickGroupIndex) || (!this.aToB && last > this.tickGroupIndex)) {
      this.tickGroupIndex = last;
      this.updateAt(last);
    }
    this.tickGroupIndex += this.aToB ? -1 : 1;
  }
}
