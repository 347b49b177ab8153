/**
 * Exact bigint port of the DBC program's fee math (`state/config.rs` PoolFeesConfig, `base_fee/*`,
 * `math/fee_math.rs`, `state/fee.rs`): the base fee (linear / exponential fee scheduler, rate limiter), the
 * variable (dynamic) fee, fee-on-amount with the protocol split, and the partner / creator split. Numerators are
 * per 1e9. Failures are returned as the program's error name (see curve-math.ts).
 */
import { type DbcError, ONE_Q64, U128_MAX, U64_MAX, U256_MAX } from './curve-math.js';

/** Fee numerator denominator (`FEE_DENOMINATOR`). */
export const FEE_DENOMINATOR = 1_000_000_000n;
/** Cap of the total fee numerator (`MAX_FEE_NUMERATOR`, 99%). */
export const MAX_FEE_NUMERATOR = 990_000_000n;
/** Protocol share of the trading fee, percent. */
export const PROTOCOL_FEE_PERCENT = 20n;
/** Basis-point denominator. */
export const BASIS_POINT_MAX = 10_000n;

/** `base_fee_mode` values. */
export const BASE_FEE_SCHEDULER_LINEAR = 0;
/** Exponential fee scheduler. */
export const BASE_FEE_SCHEDULER_EXPONENTIAL = 1;
/** Rate limiter (fee grows with the input size while its window is open, quote-to-base only). */
export const BASE_FEE_RATE_LIMITER = 2;

/** `safe_mul_div_cast_u64`: x * y / d in u128 with rounding, cast to u64. */
export function mulDivU64(x: bigint, y: bigint, d: bigint, up: boolean): bigint | DbcError {
  if (d === 0n) return 'MathOverflow';
  const prod = x * y;
  if (prod > U128_MAX) return 'MathOverflow';
  // ceil as (prod + d - 1) / d (x, y >= 0, d > 0).
  const q = up ? (prod + d - 1n) / d : prod / d;
  return q > U64_MAX ? 'TypeCastFailed' : q;
}

/** `get_excluded_fee_amount`: [included - fee, fee] with fee = ceil(included * numerator / 1e9). */
export function excludedFeeAmount(numerator: bigint, included: bigint): [bigint, bigint] | DbcError {
  const fee = mulDivU64(included, numerator, FEE_DENOMINATOR, true);
  if (typeof fee === 'string') return fee;
  if (fee > included) return 'MathOverflow';
  return [included - fee, fee];
}

/** `get_included_fee_amount`: [ceil(excluded * 1e9 / (1e9 - numerator)), included - excluded]. */
export function includedFeeAmount(numerator: bigint, excluded: bigint): [bigint, bigint] | DbcError {
  if (numerator > FEE_DENOMINATOR) return 'MathOverflow';
  const included = mulDivU64(excluded, FEE_DENOMINATOR, FEE_DENOMINATOR - numerator, true);
  if (typeof included === 'string') return included;
  return [included, included - excluded];
}

/** Trading fee (partner + creator share) and protocol fee of a fee amount (`split_fees`, no referral). */
export function splitFees(fee: bigint): { tradingFee: bigint; protocolFee: bigint } {
  const protocolFee = (fee * PROTOCOL_FEE_PERCENT) / 100n;
  return { tradingFee: fee - protocolFee, protocolFee };
}

/** `split_partner_and_creator_fee`: creator = floor(fee * pct / 100), partner = the rest. */
export function splitPartnerCreator(tradingFee: bigint, creatorPercentage: number): { partnerFee: bigint; creatorFee: bigint } {
  const creatorFee = creatorPercentage === 0 ? 0n : (tradingFee * BigInt(creatorPercentage)) / 100n;
  return { partnerFee: tradingFee - creatorFee, creatorFee };
}

/** The program's Q64 `pow` (fee_math.rs): base^exp with the same squaring order; null where it fails. */
export function powQ64(base: bigint, exp: number): bigint | null {
  if (exp === 0) return ONE_Q64;
  if (exp >= 0x80000) return null;
  let squared = base;
  let result = ONE_Q64;
  let invert = false;
  if (squared >= result) {
    if (squared === 0n) return null;
    squared = U128_MAX / squared;
    invert = true;
  }
  for (let bit = 0; bit < 19; bit++) {
    if (bit > 0) {
      squared *= squared;
      if (squared > U128_MAX) return null;
      squared >>= 64n;
    }
    if (exp & (1 << bit)) {
      result *= squared;
      if (result > U128_MAX) return null;
      result >>= 64n;
    }
  }
  if (result === 0n) return null;
  return invert ? U128_MAX / result : result;
}

/** Fee scheduler parameters (`first_factor` = periods, `second_factor` = frequency, `third_factor` = reduction). */
export interface FeeSchedulerParams {
  readonly cliffFeeNumerator: bigint;
  readonly numberOfPeriod: number;
  readonly periodFrequency: bigint;
  readonly reductionFactor: bigint;
  readonly exponential: boolean;
}

/** Fee numerator of the scheduler after `period` periods (capped at the number of periods). */
export function schedulerFeeByPeriod(p: FeeSchedulerParams, period: bigint): bigint | DbcError {
  const n = period < BigInt(p.numberOfPeriod) ? period : BigInt(p.numberOfPeriod);
  if (!p.exponential) {
    const reduction = p.reductionFactor * n;
    if (reduction > U64_MAX) return 'MathOverflow';
    return reduction > p.cliffFeeNumerator ? 'MathOverflow' : p.cliffFeeNumerator - reduction;
  }
  const bps = (p.reductionFactor << 64n) / BASIS_POINT_MAX;
  if (bps > ONE_Q64) return 'MathOverflow';
  const r = powQ64(ONE_Q64 - bps, Number(n));
  if (r === null) return 'MathOverflow';
  const fee = (r * p.cliffFeeNumerator) >> 64n;
  return fee > U64_MAX ? 'TypeCastFailed' : fee;
}

/**
 * The scheduler's base fee numerator at `currentPoint` (`get_base_fee_numerator`); MathOverflow before the
 * activation point (the program's `current_point.safe_sub(activation_point)`).
 */
export function schedulerFeeAt(p: FeeSchedulerParams, currentPoint: bigint, activationPoint: bigint): bigint | DbcError {
  if (p.periodFrequency === 0n) return p.cliffFeeNumerator;
  if (currentPoint < activationPoint) return 'MathOverflow';
  return schedulerFeeByPeriod(p, (currentPoint - activationPoint) / p.periodFrequency);
}

/** True while the scheduler's fee still changes with the clock (`period < number_of_period`). */
export function schedulerMoving(p: FeeSchedulerParams, currentPoint: bigint, activationPoint: bigint): boolean {
  if (p.periodFrequency === 0n || p.numberOfPeriod === 0) return false;
  if (currentPoint < activationPoint) return true;
  return (currentPoint - activationPoint) / p.periodFrequency < BigInt(p.numberOfPeriod);
}

/** Rate limiter parameters (`first_factor` = fee increment bps, `third_factor` = reference amount). */
export interface RateLimiterParams {
  readonly cliffFeeNumerator: bigint;
  readonly feeIncrementBps: number;
  readonly referenceAmount: bigint;
}

/** `to_numerator`: bps * 1e9 / 1e4. */
function toNumerator(bps: number): bigint {
  return (BigInt(bps) * FEE_DENOMINATOR) / BASIS_POINT_MAX;
}

function maxIndex(p: RateLimiterParams): bigint | DbcError {
  if (p.cliffFeeNumerator > MAX_FEE_NUMERATOR) return 'MathOverflow';
  const inc = toNumerator(p.feeIncrementBps);
  if (inc === 0n) return 'MathOverflow';
  return (MAX_FEE_NUMERATOR - p.cliffFeeNumerator) / inc;
}

/** `get_fee_numerator_from_included_fee_amount` of the rate limiter. */
export function rateLimiterFeeFromIncluded(p: RateLimiterParams, input: bigint): bigint | DbcError {
  const x0 = p.referenceAmount;
  if (input <= x0) return p.cliffFeeNumerator;
  const c = p.cliffFeeNumerator;
  const a = (input - x0) / x0;
  const b = (input - x0) % x0;
  const mi = maxIndex(p);
  if (typeof mi === 'string') return mi;
  const i = toNumerator(p.feeIncrementBps);
  let num: bigint;
  if (a < mi) {
    num = x0 * (c + c * a + (i * a * (a + 1n)) / 2n) + b * (c + i * (a + 1n));
  } else {
    num = x0 * (c + c * mi + (i * mi * (mi + 1n)) / 2n) + ((a - mi) * x0 + b) * MAX_FEE_NUMERATOR;
  }
  const fee = (num + FEE_DENOMINATOR - 1n) / FEE_DENOMINATOR;
  if (fee > U64_MAX) return 'TypeCastFailed';
  return mulDivU64(fee, FEE_DENOMINATOR, input, true);
}

function rateLimiterExcluded(p: RateLimiterParams, included: bigint): bigint | DbcError {
  const num = rateLimiterFeeFromIncluded(p, included);
  if (typeof num === 'string') return num;
  const r = excludedFeeAmount(num, included);
  return typeof r === 'string' ? r : r[0];
}

/** floor(sqrt(n)) (`sqrt_u256`): a float first guess, then Newton steps from above. */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  // A guess at or above the root (Newton's integer iteration decreases monotonically from above).
  let x = BigInt(Math.ceil(Math.sqrt(Number(n)) * (1 + 1e-12))) + 1n;
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) break;
    x = y;
  }
  while (x * x > n) x--;
  return x;
}

/** `get_fee_numerator_from_excluded_fee_amount` of the rate limiter (the quadratic inverse). */
export function rateLimiterFeeFromExcluded(p: RateLimiterParams, ex: bigint): bigint | DbcError {
  const exRef = rateLimiterExcluded(p, p.referenceAmount);
  if (typeof exRef === 'string') return exRef;
  if (ex <= exRef) return p.cliffFeeNumerator;
  const mi = maxIndex(p);
  if (typeof mi === 'string') return mi;
  const x0 = p.referenceAmount;
  const maxIndexInput = (mi + 1n) * x0;
  const overflow = maxIndexInput > U64_MAX;
  const checkedIn = overflow ? U64_MAX : maxIndexInput;
  const checkedEx = rateLimiterExcluded(p, checkedIn);
  if (typeof checkedEx === 'string') return checkedEx;
  if (ex === checkedEx) return rateLimiterFeeFromIncluded(p, checkedIn);
  let included: bigint;
  if (ex < checkedEx) {
    const i = toNumerator(p.feeIncrementBps);
    const d = FEE_DENOMINATOR;
    const c = p.cliffFeeNumerator;
    // U256 arithmetic wraps in the program's ruint types; the values stay far below 2^256 for u64 inputs.
    const y = 2n * d * x0 + i * x0 - 2n * c * x0;
    const z = 2n * ex * d * x0;
    const disc = (y * y - 4n * i * z) & U256_MAX;
    let first = (y - isqrt(disc)) & U256_MAX;
    first /= 2n * i;
    const aPlusOne = first / x0;
    if (first > U64_MAX) return 'TypeCastFailed';
    const firstEx = rateLimiterExcluded(p, first);
    if (typeof firstEx === 'string') return firstEx;
    if (firstEx > ex) return 'MathOverflow';
    const remNum = c + i * aPlusOne;
    if (remNum > U64_MAX) return 'TypeCastFailed';
    const rem = includedFeeAmount(remNum, ex - firstEx);
    if (typeof rem === 'string') return rem;
    included = first + rem[0];
    if (included > U64_MAX) return 'TypeCastFailed';
  } else {
    if (overflow) return 'MathOverflow';
    const rem = includedFeeAmount(MAX_FEE_NUMERATOR, ex - checkedEx);
    if (typeof rem === 'string') return rem;
    included = rem[0] + checkedIn;
    if (included > U64_MAX) return 'MathOverflow';
  }
  if (included < ex) return 'MathOverflow';
  const num = mulDivU64(included - ex, FEE_DENOMINATOR, included, true);
  if (typeof num === 'string') return num;
  return num < p.cliffFeeNumerator ? 'UndeterminedError' : num;
}

/** Dynamic fee parameters as the variable fee reads them. */
export interface DynamicFeeParams {
  readonly initialized: boolean;
  readonly binStep: number;
  readonly variableFeeControl: number;
}

/**
 * `get_variable_fee_numerator`: ceil((volatility_accumulator * bin_step)^2 * variable_fee_control / 1e11), in
 * u128 (MathOverflow past it); 0 when the dynamic fee is off.
 */
export function variableFeeNumerator(p: DynamicFeeParams, volatilityAccumulator: bigint): bigint | DbcError {
  if (!p.initialized) return 0n;
  const v = volatilityAccumulator * BigInt(p.binStep);
  if (v > U128_MAX) return 'MathOverflow';
  const sq = v * v;
  if (sq > U128_MAX) return 'MathOverflow';
  const vfee = sq * BigInt(p.variableFeeControl);
  if (vfee > U128_MAX || vfee + 99_999_999_999n > U128_MAX) return 'MathOverflow';
  return (vfee + 99_999_999_999n) / 100_000_000_000n;
}

/** `get_total_fee_numerator`: min(base + variable, MAX_FEE_NUMERATOR). */
export function totalFeeNumerator(base: bigint, variable: bigint): bigint {
  const t = base + variable;
  return t > MAX_FEE_NUMERATOR ? MAX_FEE_NUMERATOR : t;
}
