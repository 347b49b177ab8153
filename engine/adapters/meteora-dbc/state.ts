/**
 * The quotable state of a DBC pool, built from the VirtualPool and its PoolConfig as of one clock: reserves and
 * price from the pool, curve and fee parameters from the config, and the fee as of the clock (the scheduler's
 * current period, whether the rate limiter's window is open, the variable fee from the stored accumulator).
 */
import type { ChainClock, PoolDescriptor } from '../types.js';
import { type DbcError, U64_MAX } from './curve-math.js';
import {
  BASE_FEE_RATE_LIMITER,
  BASE_FEE_SCHEDULER_EXPONENTIAL,
  MAX_FEE_NUMERATOR,
  type FeeSchedulerParams,
  schedulerFeeAt,
  schedulerMoving,
  variableFeeNumerator,
} from './fee-math.js';
import { type CurvePoint, type PoolConfigAccount, type VirtualPoolFields, decodePoolConfig, decodeVirtualPool, isPoolConfigAccount, isVirtualPoolAccount } from './layout.js';
import type { DbcCurveState } from './swap-math.js';

/** Record status: the pool can trade. */
export const DBC_STATUS_OK = 0;
/** Record status: the pool has migrated (`is_migrated`): swaps are refused. */
export const DBC_STATUS_MIGRATED = 1;
/** Record status: quote reserve reached `migration_quote_threshold` (PoolIsCompleted): waiting for migration. */
export const DBC_STATUS_CURVE_COMPLETE = 2;
/** Record status: the clock is before the pool's activation point (time-dependent). */
export const DBC_STATUS_NOT_ACTIVATED = 3;
/** Record status: a config the program fails on (collect fee / base fee mode / activation type, fee math). */
export const DBC_STATUS_BAD_CONFIG = 4;

/** Decoded, quotable state of one DBC pool (A = base, B = quote). */
export interface DbcState extends DbcCurveState {
  /** One of the `DBC_STATUS_*` values; nonzero means quotes return INACTIVE. */
  readonly status: number;
  /** `migration_quote_threshold`: the curve completes when the quote reserve reaches it. */
  readonly migrationQuoteThreshold: bigint;
  /** `creator_trading_fee_percentage`: the creator's share (percent) of the trading fee, the partner has the rest. */
  readonly creatorTradingFeePercentage: number;
  /** True while the quote depends on the clock (scheduler moving, rate-limiter window open, not activated). */
  readonly clockSensitive: boolean;
  /**
   * The base and quote vaults' amounts as the pool account accounts for them: the reserve plus the unclaimed
   * protocol, partner and creator trading fees of that token (plus the protocol migration fee, 0 until migration),
   * capped at u64. A swap's whole input goes into its input vault, which must stay within u64 (token Overflow).
   */
  readonly baseVault: bigint;
  readonly quoteVault: bigint;
}

/** {@link DbcState.baseVault} / {@link DbcState.quoteVault} of a pool: what the program leaves in each vault. */
export function vaultAmounts(pool: VirtualPoolFields): { baseVault: bigint; quoteVault: bigint } {
  const cap = (v: bigint): bigint => (v > U64_MAX ? U64_MAX : v);
  return {
    baseVault: cap(pool.baseReserve + pool.protocolBaseFee + pool.partnerBaseFee + pool.creatorBaseFee + pool.protocolMigrationBaseFeeAmount),
    quoteVault: cap(pool.quoteReserve + pool.protocolQuoteFee + pool.partnerQuoteFee + pool.creatorQuoteFee + pool.protocolMigrationQuoteFeeAmount),
  };
}

/** The current point of a pool: the slot (activation_type 0) or the unix timestamp (1). */
export function currentPoint(activationType: number, clock: ChainClock): bigint {
  return activationType === 0 ? clock.slot : clock.unixTimestamp < 0n ? 0n : clock.unixTimestamp;
}

/** Curve points up to the last non-zero one (the program skips or stops at zero points; a zero tail is implied). */
/** Trimmed curves per config curve (configs are decoded once per account buffer): one array per config, so the
 * record's extension is built and interned once per config rather than per rebuild. */
const trimmedCache = new WeakMap<readonly CurvePoint[], CurvePoint[]>();

function trimmedCurveOf(curve: readonly CurvePoint[]): CurvePoint[] {
  let v = trimmedCache.get(curve);
  if (v === undefined) {
    v = trimCurve(curve);
    trimmedCache.set(curve, v);
  }
  return v;
}

export function trimCurve(curve: readonly CurvePoint[]): CurvePoint[] {
  let n = curve.length;
  while (n > 0 && curve[n - 1]!.sqrtPrice === 0n && curve[n - 1]!.liquidity === 0n) n--;
  return curve.slice(0, n);
}

interface FeeAtClock {
  readonly status: number;
  readonly baseFeeNumerator: bigint;
  readonly variableFeeNumerator: bigint;
  readonly rateLimiter: DbcCurveState['rateLimiter'];
  readonly clockSensitive: boolean;
}

/** The fee part of the state as of `point` (slot or timestamp per activation type). */
export function feeAtClock(cfg: PoolConfigAccount, volatilityAccumulator: bigint, activationPoint: bigint, point: bigint): FeeAtClock {
  const bad = (): FeeAtClock => ({ status: DBC_STATUS_BAD_CONFIG, baseFeeNumerator: 0n, variableFeeNumerator: 0n, rateLimiter: null, clockSensitive: false });
  let variable: bigint | DbcError = variableFeeNumerator(
    { initialized: cfg.dynamicFeeInitialized !== 0, binStep: cfg.binStep, variableFeeControl: cfg.variableFeeControl },
    volatilityAccumulator,
  );
  if (typeof variable === 'string') return bad();
  // min(base + variable, MAX) is unchanged by capping the variable part at MAX first.
  if (variable > MAX_FEE_NUMERATOR) variable = MAX_FEE_NUMERATOR;
  const notActivated = point < activationPoint;
  if (cfg.baseFeeMode === BASE_FEE_RATE_LIMITER) {
    const zero = cfg.thirdFactor === 0n && cfg.secondFactor === 0n && cfg.firstFactor === 0;
    const open = !zero && point <= activationPoint + cfg.secondFactor;
    // A partial rate limiter (a zero reference amount) divides by zero in the program.
    if (open && cfg.thirdFactor === 0n) return bad();
    return {
      status: notActivated ? DBC_STATUS_NOT_ACTIVATED : DBC_STATUS_OK,
      baseFeeNumerator: cfg.cliffFeeNumerator,
      variableFeeNumerator: variable,
      rateLimiter: open ? { cliffFeeNumerator: cfg.cliffFeeNumerator, feeIncrementBps: cfg.firstFactor, referenceAmount: cfg.thirdFactor } : null,
      clockSensitive: open || notActivated,
    };
  }
  if (cfg.baseFeeMode > BASE_FEE_RATE_LIMITER) return bad();
  const sched: FeeSchedulerParams = {
    cliffFeeNumerator: cfg.cliffFeeNumerator,
    numberOfPeriod: cfg.firstFactor,
    periodFrequency: cfg.secondFactor,
    reductionFactor: cfg.thirdFactor,
    exponential: cfg.baseFeeMode === BASE_FEE_SCHEDULER_EXPONENTIAL,
  };
  if (notActivated) {
    return { status: DBC_STATUS_NOT_ACTIVATED, baseFeeNumerator: cfg.cliffFeeNumerator, variableFeeNumerator: variable, rateLimiter: null, clockSensitive: true };
  }
  const base = schedulerFeeAt(sched, point, activationPoint);
  if (typeof base === 'string') return bad();
  return {
    status: DBC_STATUS_OK,
    baseFeeNumerator: base,
    variableFeeNumerator: variable,
    rateLimiter: null,
    clockSensitive: schedulerMoving(sched, point, activationPoint),
  };
}

/** The state from decoded accounts (used by buildState, execute and the tests). */
export function dbcStateFrom(pool: VirtualPoolFields, cfg: PoolConfigAccount, clock: ChainClock): DbcState {
  const fee = feeAtClock(cfg, pool.volatilityAccumulator, pool.activationPoint, currentPoint(cfg.activationType, clock));
  let status = fee.status;
  if (cfg.collectFeeMode > 1 || cfg.activationType > 1) status = DBC_STATUS_BAD_CONFIG;
  if (pool.quoteReserve >= cfg.migrationQuoteThreshold) status = DBC_STATUS_CURVE_COMPLETE;
  if (pool.isMigrated !== 0) status = DBC_STATUS_MIGRATED;
  return {
    status,
    sqrtPrice: pool.sqrtPrice,
    sqrtStartPrice: cfg.sqrtStartPrice,
    migrationSqrtPrice: cfg.migrationSqrtPrice,
    migrationQuoteThreshold: cfg.migrationQuoteThreshold,
    baseReserve: pool.baseReserve,
    quoteReserve: pool.quoteReserve,
    curve: trimmedCurveOf(cfg.curve),
    collectFeeMode: cfg.collectFeeMode,
    baseFeeNumerator: fee.baseFeeNumerator > U64_MAX ? U64_MAX : fee.baseFeeNumerator,
    variableFeeNumerator: fee.variableFeeNumerator,
    rateLimiter: fee.rateLimiter,
    creatorTradingFeePercentage: cfg.creatorTradingFeePercentage,
    // A pool that cannot trade for a clock-independent reason does not need clock rebuilds.
    clockSensitive: status === DBC_STATUS_OK || status === DBC_STATUS_NOT_ACTIVATED ? fee.clockSensitive : false,
    ...vaultAmounts(pool),
  };
}

/** Decoded PoolConfig per account buffer (ingest hands the same buffer until the account changes; configs are
 * all but immutable). Decoding the 1 KB config with its 20 curve points was most of a rebuild's cost. */
const configCache = new WeakMap<Uint8Array, PoolConfigAccount>();

function configOf(data: Uint8Array): PoolConfigAccount {
  let v = configCache.get(data);
  if (v === undefined) {
    v = decodePoolConfig(data);
    configCache.set(data, v);
  }
  return v;
}

/**
 * Builds the state from the pool account and its PoolConfig (`pool.dependencies[0]`). Null while the config is
 * missing or is not a PoolConfig, or when the pool account is not a VirtualPool.
 */
export function buildDbcState(
  pool: PoolDescriptor,
  poolData: Uint8Array,
  deps: ReadonlyMap<string, Uint8Array>,
  clock: ChainClock,
): DbcState | null {
  const configKey = pool.dependencies[0];
  const config = configKey === undefined ? undefined : deps.get(configKey);
  if (!config || !isPoolConfigAccount(config) || !isVirtualPoolAccount(poolData)) return null;
  return dbcStateFrom(decodeVirtualPool(poolData), configOf(config), clock);
}
