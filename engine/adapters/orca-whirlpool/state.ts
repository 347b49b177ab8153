/**
 * The quotable state of a Whirlpool: the pool's price, liquidity, tick and fee fields, its adaptive fee (from the
 * Oracle), the chain clock of the state's slot and the tick arrays it holds (a {@link TickSource}).
 */
import type { ChainClock, PoolDescriptor } from '../types.js';
import type { AdaptiveFeeInfo } from './adaptive-fee.js';
import { decodeOracle, decodeTickArray, decodeWhirlpool, isOracleAccount, isTickArrayAccount, isWhirlpoolAccount } from './layout.js';
import type { WhirlpoolSwapParams } from './swap.js';
import { ArrayTickSource, type TickArrayTicks, type TickSource } from './tick-source.js';

/** Record status: tradable. */
export const WHIRLPOOL_STATUS_OK = 0;

/** A Whirlpool's quotable state. */
export interface WhirlpoolState extends WhirlpoolSwapParams {
  readonly status: number;
  readonly feeTierIndexSeed: number;
  /** Protocol share of the fee, basis points. */
  readonly protocolFeeRate: number;
  /** Unix time of the chain clock the state was built at (the adaptive fee's clock). */
  readonly timestamp: bigint;
  /** The tick arrays this state holds. */
  readonly ticks: TickSource;
}

/** True when the pool has the adaptive fee (`fee_tier_index_seed != tick_spacing`). */
export function hasAdaptiveFee(feeTierIndexSeed: number, tickSpacing: number): boolean {
  return feeTierIndexSeed !== tickSpacing;
}

/** The adaptive fee of an Oracle account. */
export function adaptiveFeeOf(oracleData: Uint8Array): AdaptiveFeeInfo {
  const o = decodeOracle(oracleData);
  return {
    tradeEnableTimestamp: o.tradeEnableTimestamp,
    constants: {
      filterPeriod: o.filterPeriod, decayPeriod: o.decayPeriod, reductionFactor: o.reductionFactor,
      adaptiveFeeControlFactor: o.adaptiveFeeControlFactor, maxVolatilityAccumulator: o.maxVolatilityAccumulator,
      tickGroupSize: o.tickGroupSize, majorSwapThresholdTicks: o.majorSwapThresholdTicks,
    },
    variables: {
      lastReferenceUpdateTimestamp: o.lastReferenceUpdateTimestamp, lastMajorSwapTimestamp: o.lastMajorSwapTimestamp,
      volatilityReference: o.volatilityReference, tickGroupIndexReference: o.tickGroupIndexReference,
      volatilityAccumulator: o.volatilityAccumulator,
    },
  };
}

/**
 * Builds the state from the pool account and its dependencies: the Oracle (required for an adaptive-fee pool:
 * null without it) and any tick arrays of this pool among them (the others are simply not held: a quote that needs
 * them answers DEPTH_UNKNOWN). `oracleAddress` names the pool's Oracle among `deps`.
 */
export function buildWhirlpoolState(
  pool: PoolDescriptor, poolData: Uint8Array, deps: ReadonlyMap<string, Uint8Array>, clock: ChainClock, oracleAddress: string,
): WhirlpoolState | null {
  if (!isWhirlpoolAccount(poolData)) return null;
  const w = decodeWhirlpool(poolData);
  let adaptiveFee: AdaptiveFeeInfo | null = null;
  if (hasAdaptiveFee(w.feeTierIndexSeed, w.tickSpacing)) {
    const o = deps.get(oracleAddress);
    if (o === undefined || !isOracleAccount(o)) return null;
    adaptiveFee = adaptiveFeeOf(o);
  }
  const arrays: TickArrayTicks[] = [];
  for (const [, data] of deps) {
    if (!isTickArrayAccount(data)) continue;
    const a = decodeTickArray(data);
    if (a.whirlpool === pool.address) arrays.push(a);
  }
  return {
    status: WHIRLPOOL_STATUS_OK,
    sqrtPrice: w.sqrtPrice, liquidity: w.liquidity, tickCurrentIndex: w.tickCurrentIndex, tickSpacing: w.tickSpacing,
    feeRate: w.feeRate, adaptiveFee, feeTierIndexSeed: w.feeTierIndexSeed, protocolFeeRate: w.protocolFeeRate,
    timestamp: clock.unixTimestamp, ticks: new ArrayTickSource(w.tickSpacing, arrays),
  };
}

/** `state` reading its ticks from `ticks` instead (a quote worker's in-place slab source). */
export function withTicks(state: WhirlpoolState, ticks: TickSource): WhirlpoolState {
  return { ...state, ticks };
}
