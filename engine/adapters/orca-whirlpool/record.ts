/**
 * The slab-record image of a Whirlpool state (the table is in this folder's README and must stay in step with
 * these constants). The tick arrays are not in the record: they live in the slab's array region
 * (`tick-array-record.ts`), listed by the pool record's directory; a state read back from a record holds no
 * arrays until a quote worker attaches its in-place source (`withTicks`).
 */
import { PARAM_F64_WORDS, PARAM_U64_WORDS, type RecordFields } from '../types.js';
import { FeeRateManager } from './adaptive-fee.js';
import type { WhirlpoolState } from './state.js';
import { ArrayTickSource } from './tick-source.js';

/** u64 words: sqrt_price (Q64.64) low and high 64 bits; liquidity low and high. */
export const U64_SQRT_PRICE_LO = 0;
export const U64_SQRT_PRICE_HI = 1;
export const U64_LIQUIDITY_LO = 2;
export const U64_LIQUIDITY_HI = 3;
/** u64 word: tick_current_index (low 32 bits, two's complement) | tick_spacing << 32 | fee_tier_index_seed << 48. */
export const U64_TICK = 4;
/** u64 word: fee_rate | protocol_fee_rate << 16 | 1 << 32 when the pool has the adaptive fee. */
export const U64_FEES = 5;
/** u64 word: the chain clock's unix time the state was built at. */
export const U64_TIMESTAMP = 6;
/** u64 word: the Oracle's trade_enable_timestamp. */
export const U64_TRADE_ENABLE = 7;
/** u64 word: filter_period | decay_period << 16 | reduction_factor << 32 | tick_group_size << 48. */
export const U64_AF_PERIODS = 8;
/** u64 word: adaptive_fee_control_factor | max_volatility_accumulator << 32. */
export const U64_AF_CONTROL = 9;
/** u64 word: major_swap_threshold_ticks. */
export const U64_AF_MAJOR = 10;
/** u64 words: last_reference_update_timestamp, last_major_swap_timestamp. */
export const U64_AF_LAST_REFERENCE = 11;
export const U64_AF_LAST_MAJOR = 12;
/** u64 word: volatility_reference | tick_group_index_reference (low 32 bits, two's complement) << 32. */
export const U64_AF_REFERENCE = 13;
/** u64 word: volatility_accumulator. */
export const U64_AF_ACCUMULATOR = 14;

/** f64 word: the square-root price as a real number (sqrt_price / 2^64). */
export const F64_SQRT_PRICE = 0;
/** f64 word: liquidity. */
export const F64_LIQUIDITY = 1;
/** f64 word: the fee rate (per 1e6) a swap starting now pays in the current tick group (static + adaptive). */
export const F64_FEE_RATE = 2;

const M16 = 0xffffn;
const M32 = 0xffff_ffffn;
const M64 = 0xffff_ffff_ffff_ffffn;

/** The total fee rate of a swap's first step at the state's clock (the static rate when the clock is refused). */
export function currentFeeRate(state: WhirlpoolState): number {
  const m = new FeeRateManager(true, state.tickCurrentIndex, state.timestamp, state.feeRate, state.adaptiveFee);
  if (!m.ok) return state.feeRate;
  m.updateVolatilityAccumulator();
  return m.totalFeeRate();
}

/** Writes a Whirlpool state into a slab record image: reserves are the virtual reserves at the current price. */
export function whirlpoolToRecord(state: WhirlpoolState, out: RecordFields): void {
  out.status = state.status;
  const sp = state.sqrtPrice;
  const l = state.liquidity;
  // Virtual reserves of the constant-product pool with this price and depth: L / sqrtP of A, L * sqrtP of B.
  const ra = sp > 0n ? (l << 64n) / sp : 0n;
  const rb = (l * sp) >> 64n;
  out.reserveA = ra > M64 ? M64 : ra;
  out.reserveB = rb > M64 ? M64 : rb;
  const u = out.u64;
  u.fill(0n, 0, PARAM_U64_WORDS);
  u[U64_SQRT_PRICE_LO] = sp & M64;
  u[U64_SQRT_PRICE_HI] = sp >> 64n;
  u[U64_LIQUIDITY_LO] = l & M64;
  u[U64_LIQUIDITY_HI] = l >> 64n;
  u[U64_TICK] = (BigInt(state.tickCurrentIndex) & M32) | (BigInt(state.tickSpacing) << 32n) | (BigInt(state.feeTierIndexSeed) << 48n);
  u[U64_FEES] = BigInt(state.feeRate) | (BigInt(state.protocolFeeRate) << 16n) | (state.adaptiveFee !== null ? 1n << 32n : 0n);
  u[U64_TIMESTAMP] = state.timestamp;
  const af = state.adaptiveFee;
  if (af !== null) {
    const c = af.constants;
    const v = af.variables;
    u[U64_TRADE_ENABLE] = af.tradeEnableTimestamp;
    u[U64_AF_PERIODS] = BigInt(c.filterPeriod) | (BigInt(c.decayPeriod) << 16n) | (BigInt(c.reductionFactor) << 32n) | (BigInt(c.tickGroupSize) << 48n);
    u[U64_AF_CONTROL] = BigInt(c.adaptiveFeeControlFactor) | (BigInt(c.maxVolatilityAccumulator) << 32n);
    u[U64_AF_MAJOR] = BigInt(c.majorSwapThresholdTicks);
    u[U64_AF_LAST_REFERENCE] = v.lastReferenceUpdateTimestamp;
    u[U64_AF_LAST_MAJOR] = v.lastMajorSwapTimestamp;
    u[U64_AF_REFERENCE] = BigInt(v.volatilityReference) | ((BigInt(v.tickGroupIndexReference) & M32) << 32n);
    u[U64_AF_ACCUMULATOR] = BigInt(v.volatilityAccumulator);
  }
  const f = out.f64;
  f.fill(0, 0, PARAM_F64_WORDS);
  f[F64_SQRT_PRICE] = Number(sp) / 2 ** 64;
  f[F64_LIQUIDITY] = Number(l);
  f[F64_FEE_RATE] = currentFeeRate(state);
}

const EMPTY_TICKS = new ArrayTickSource(1, []);

/** Reads a Whirlpool state back from a record image (no tick arrays held: see the file header). */
export function whirlpoolFromRecord(rec: Readonly<RecordFields>): WhirlpoolState {
  const u = rec.u64;
  const tickWord = u[U64_TICK]!;
  const fees = u[U64_FEES]!;
  const tickSpacing = Number((tickWord >> 32n) & M16);
  const adaptive = ((fees >> 32n) & 1n) === 1n;
  return {
    status: rec.status,
    sqrtPrice: u[U64_SQRT_PRICE_LO]! | (u[U64_SQRT_PRICE_HI]! << 64n),
    liquidity: u[U64_LIQUIDITY_LO]! | (u[U64_LIQUIDITY_HI]! << 64n),
    tickCurrentIndex: Number(BigInt.asIntN(32, tickWord & M32)),
    tickSpacing,
    feeTierIndexSeed: Number((tickWord >> 48n) & M16),
    feeRate: Number(fees & M16),
    protocolFeeRate: Number((fees >> 16n) & M16),
    timestamp: u[U64_TIMESTAMP]!,
    adaptiveFee: !adaptive ? null : {
      tradeEnableTimestamp: u[U64_TRADE_ENABLE]!,
      constants: {
        filterPeriod: Number(u[U64_AF_PERIODS]! & M16),
        decayPeriod: Number((u[U64_AF_PERIODS]! >> 16n) & M16),
        reductionFactor: Number((u[U64_AF_PERIODS]! >> 32n) & M16),
        tickGroupSize: Number((u[U64_AF_PERIODS]! >> 48n) & M16),
        adaptiveFeeControlFactor: Number(u[U64_AF_CONTROL]! & M32),
        maxVolatilityAccumulator: Number((u[U64_AF_CONTROL]! >> 32n) & M32),
        majorSwapThresholdTicks: Number(u[U64_AF_MAJOR]! & M16),
      },
      variables: {
        lastReferenceUpdateTimestamp: u[U64_AF_LAST_REFERENCE]!,
        lastMajorSwapTimestamp: u[U64_AF_LAST_MAJOR]!,
        volatilityReference: Number(u[U64_AF_REFERENCE]! & M32),
        tickGroupIndexReference: Number(BigInt.asIntN(32, (u[U64_AF_REFERENCE]! >> 32n) & M32)),
        volatilityAccumulator: Number(u[U64_AF_ACCUMULATOR]! & M32),
      },
    },
    ticks: tickSpacing > 0 ? new ArrayTickSource(tickSpacing, []) : EMPTY_TICKS,
  };
}
