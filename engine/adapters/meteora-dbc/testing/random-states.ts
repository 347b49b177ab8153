/**
 * Test and bench support: a seeded generator of DBC pools (config + virtual pool as decoded accounts) covering
 * the corners: 1..20 curve segments, sqrt prices across magnitudes, every base fee mode at different elapsed
 * points, dynamic fee on/off with volatility, both collect fee modes, pools near the migration threshold, and
 * amounts from one atom to beyond the curve end. Deterministic: a failing case replays from its index.
 */
import { SeededRandom } from '../../testing/seeded-random.js';

export { SeededRandom };
import bs58 from 'bs58';
import { createHash } from 'node:crypto';
import type { ChainClock } from '../../types.js';
import { deltaBase, deltaQuote } from '../curve-math.js';
import type { CurvePoint, PoolConfigAccount, VirtualPoolFields } from '../layout.js';


/** A deterministic base58 key from a label. */
export function labelKey(label: string): string {
  return bs58.encode(createHash('sha256').update(`dbc-test:${label}`).digest());
}

/** One randomized DBC pool and the amounts to try on it. */
export interface RandomDbcCase {
  readonly pool: VirtualPoolFields;
  readonly config: PoolConfigAccount;
  readonly clock: ChainClock;
  /** The current point (slot or timestamp per the config's activation type). */
  readonly point: bigint;
  /** Human label of the fee setup, for per-mode counts. */
  readonly feeLabel: string;
  readonly amountIn: { readonly aToB: bigint; readonly bToA: bigint };
  readonly amountOut: { readonly aToB: bigint; readonly bToA: bigint };
}

const U64_MAX = 0xffff_ffff_ffff_ffffn;
const U128_MAX = (1n << 128n) - 1n;

/** A zeroed VirtualPool with realistic keys; tests override fields. */
export function baseVirtualPool(label: string): VirtualPoolFields {
  return {
    lastUpdateTimestamp: 0n, sqrtPriceReference: 0n, volatilityAccumulator: 0n, volatilityReference: 0n,
    config: labelKey(`${label}:config`), creator: labelKey(`${label}:creator`), baseMint: labelKey(`${label}:base`),
    baseVault: labelKey(`${label}:baseVault`), quoteVault: labelKey(`${label}:quoteVault`), baseReserve: 0n, quoteReserve: 0n,
    protocolBaseFee: 0n, protocolQuoteFee: 0n, partnerBaseFee: 0n, partnerQuoteFee: 0n, sqrtPrice: 0n, activationPoint: 0n,
    poolType: 0, isMigrated: 0, isPartnerWithdrawSurplus: 0, isProtocolWithdrawSurplus: 0, migrationProgress: 0,
    isWithdrawLeftover: 0, isCreatorWithdrawSurplus: 0, migrationFeeWithdrawStatus: 0, totalProtocolBaseFee: 0n,
    totalProtocolQuoteFee: 0n, totalTradingBaseFee: 0n, totalTradingQuoteFee: 0n, finishCurveTimestamp: 0n,
    creatorBaseFee: 0n, creatorQuoteFee: 0n, legacyCreationFeeBits: 0, creationFeeBits: 0, hasSwap: 1,
    protocolLiquidityMigrationFeeBps: 0, protocolMigrationBaseFeeAmount: 0n, protocolMigrationQuoteFeeAmount: 0n,
  };
}

/** A zeroed PoolConfig with realistic keys and no curve; tests override fields. */
export function basePoolConfig(label: string): PoolConfigAccount {
  return {
    quoteMint: 'So11111111111111111111111111111111111111112', feeClaimer: labelKey(`${label}:feeClaimer`),
    leftoverReceiver: labelKey(`${label}:leftover`), cliffFeeNumerator: 10_000_000n, secondFactor: 0n, thirdFactor: 0n,
    firstFactor: 0, baseFeeMode: 0, dynamicFeeInitialized: 0, maxVolatilityAccumulator: 0, variableFeeControl: 0,
    binStep: 0, filterPeriod: 0, decayPeriod: 0, reductionFactor: 0, binStepU128: 0n, partnerVestingIsInitialized: 0,
    partnerVestingPercentage: 0, partnerVestingBpsPerPeriod: 0, partnerVestingNumberOfPeriods: 0, partnerVestingFrequency: 0,
    partnerVestingCliffDuration: 0, creatorVestingIsInitialized: 0, creatorVestingPercentage: 0, creatorVestingBpsPerPeriod: 0,
    creatorVestingNumberOfPeriods: 0, creatorVestingFrequency: 0, creatorVestingCliffDuration: 0, collectFeeMode: 0,
    migrationOption: 1, activationType: 0, tokenDecimal: 6, version: 1, tokenType: 0, quoteTokenFlag: 0,
    partnerPermanentLockedLiquidityPercentage: 0, partnerLiquidityPercentage: 100, creatorPermanentLockedLiquidityPercentage: 0,
    creatorLiquidityPercentage: 0, migrationFeeOption: 0, fixedTokenSupplyFlag: 0, creatorTradingFeePercentage: 0,
    tokenUpdateAuthority: 0, migrationFeePercentage: 0, creatorMigrationFeePercentage: 0, swapBaseAmount: 0n,
    migrationQuoteThreshold: 0n, migrationBaseThreshold: 0n, migrationSqrtPrice: 0n, lockedAmountPerPeriod: 0n,
    lockedCliffDurationFromMigrationTime: 0n, lockedFrequency: 0n, lockedNumberOfPeriod: 0n, lockedCliffUnlockAmount: 0n,
    preMigrationTokenSupply: 0n, postMigrationTokenSupply: 0n, migratedCollectFeeMode: 0, migratedDynamicFee: 0,
    migratedPoolFeeBps: 0, migratedPoolBaseFeeMode: 0, enableFirstSwapWithMinFee: 0, migratedCompoundingFeeBps: 0,
    poolCreationFee: 0n, sqrtStartPrice: 0n, curve: [],
  };
}

/** Quote and base held by the curve between two sqrt prices (Σ over segments; rounded as the program rounds up). */
export function curveAmounts(curve: readonly CurvePoint[], start: bigint, from: bigint, to: bigint): { quote: bigint; base: bigint } {
  let quote = 0n;
  let base = 0n;
  let lower = start;
  for (const p of curve) {
    const a = lower > from ? lower : from;
    const b = p.sqrtPrice < to ? p.sqrtPrice : to;
    if (b > a) {
      const q = deltaQuote(a, b, p.liquidity, true);
      const x = deltaBase(a, b, p.liquidity, true);
      quote += typeof q === 'string' ? U64_MAX : q;
      base += typeof x === 'string' ? U64_MAX : x;
    }
    lower = p.sqrtPrice;
  }
  return { quote, base };
}

/** A random curve: `n` points above `start`, each segment holding a quote amount across magnitudes. */
function randomCurve(rng: SeededRandom, start: bigint, n: number): CurvePoint[] {
  const curve: CurvePoint[] = [];
  let lower = start;
  const bigMul = rng.int(4) === 0;
  for (let i = 0; i < n; i++) {
    const factorPpm = bigMul ? 1_200_000n + rng.range(0n, 3_000_000n) : 1_001_000n + rng.range(0n, 500_000n);
    let upper = (lower * factorPpm) / 1_000_000n;
    if (upper <= lower) upper = lower + 1n;
    if (upper > (1n << 100n)) upper = lower + (lower >> 4n) + 1n;
    const quoteTarget = 10n ** BigInt(2 + rng.int(14)) * rng.range(1n, 9n);
    let liquidity = (quoteTarget << 128n) / (upper - lower);
    if (liquidity > U128_MAX >> 2n) liquidity = U128_MAX >> 2n;
    if (liquidity === 0n) liquidity = 1n;
    curve.push({ sqrtPrice: upper, liquidity });
    lower = upper;
  }
  return curve;
}

/** Largest exponential reduction (bps) that keeps the scheduler's last fee >= 0.25% (the program's config rule). */
function expReductionCap(cliff: bigint, periods: number): bigint {
  const ratio = 2_500_000 / Number(cliff);
  const bps = Math.floor(10_000 * (1 - ratio ** (1 / periods)));
  return BigInt(Math.max(1, Math.min(5_000, bps)));
}

function amountAround(rng: SeededRandom, ref: bigint): bigint {
  switch (rng.int(10)) {
    case 0: return 1n;
    case 1: return ref + 1n + rng.range(0n, ref);
    case 2: return ref > 0n ? ref : 1n;
    case 3: return rng.int(4) === 0 ? rng.range(1n, 1n << BigInt(1 + rng.int(64))) : ref * 2n + 1n;
    default: {
      const v = ref >> BigInt(rng.int(24));
      return v > 0n ? rng.range(1n, v) : 1n;
    }
  }
}

/** `count` cases from the stream of `seed` (same seed, same cases). */
export function randomDbcCases(seed: number, count: number): RandomDbcCase[] {
  const rng = new SeededRandom(seed);
  const out: RandomDbcCase[] = [];
  for (let k = 0; k < count; k++) {
    const label = `case-${seed}-${k}`;
    const cfg = basePoolConfig(label);
    const pool = baseVirtualPool(label);
    // Sqrt start price: real sqrt price 2^e with e in [-30, 28] (prices from 1e-18 to 1e17 quote atoms per base
    // atom); curves whose base supply would not fit a u64 (a config the program cannot create) are drawn again.
    let start = 0n;
    let curve: CurvePoint[] = [];
    let full = { quote: 0n, base: 0n };
    for (let attempt = 0; attempt < 100; attempt++) {
      const e = rng.int(10) < 7 ? -20 + rng.int(26) : -30 + rng.int(59);
      start = (1n << BigInt(64 + e)) + rng.range(0n, 1n << BigInt(63 + e));
      curve = randomCurve(rng, start, 1 + rng.int(20));
      cfg.migrationSqrtPrice = curve[curve.length - 1]!.sqrtPrice;
      if (rng.int(3) === 0) {
        const below = curve.length > 1 ? curve[curve.length - 2]!.sqrtPrice : start;
        cfg.migrationSqrtPrice -= rng.range(0n, (cfg.migrationSqrtPrice - below) / 2n);
      }
      full = curveAmounts(curve, start, start, cfg.migrationSqrtPrice);
      if (full.base < 1n << 62n && full.quote < 1n << 62n) break;
    }
    cfg.sqrtStartPrice = start;
    cfg.curve = curve;
    cfg.migrationQuoteThreshold = full.quote > 0n ? full.quote : 1n;
    cfg.collectFeeMode = rng.int(2);
    cfg.activationType = rng.int(2);
    cfg.creatorTradingFeePercentage = rng.pick([0, 0, 50, rng.int(101)]);
    // Base fee mode.
    const feeKind = rng.int(3);
    cfg.baseFeeMode = feeKind;
    const activation = rng.range(1_000n, 1_000_000_000n);
    pool.activationPoint = activation;
    let point = activation + rng.range(0n, 10_000n);
    let feeLabel: string;
    if (feeKind === 2) {
      cfg.collectFeeMode = 0;
      cfg.cliffFeeNumerator = rng.pick([2_500_000n, 10_000_000n, rng.range(2_500_000n, 500_000_000n)]);
      cfg.firstFactor = 1 + rng.int(rng.pick([10, 1000]));
      cfg.secondFactor = rng.range(1n, 100_000n);
      cfg.thirdFactor = 10n ** BigInt(3 + rng.int(10)) * rng.range(1n, 9n);
      const inWindow = rng.int(3) !== 0;
      point = inWindow ? activation + rng.range(0n, cfg.secondFactor) : activation + cfg.secondFactor + 1n + rng.range(0n, 1000n);
      feeLabel = inWindow ? 'rate-limiter (window open)' : 'rate-limiter (window closed)';
    } else {
      cfg.cliffFeeNumerator = rng.pick([2_500_000n, 10_000_000n, 500_000_000n, rng.range(2_500_000n, 990_000_000n)]);
      const scheduled = rng.int(4) !== 0;
      if (scheduled) {
        cfg.firstFactor = 1 + rng.int(rng.pick([10, 200, 2000]));
        cfg.secondFactor = rng.range(1n, 600n);
        cfg.thirdFactor = feeKind === 0
          ? rng.range(1n, (cfg.cliffFeeNumerator - 2_500_000n) / BigInt(cfg.firstFactor) + 1n)
          : rng.range(1n, expReductionCap(cfg.cliffFeeNumerator, cfg.firstFactor));
        const span = BigInt(cfg.firstFactor) * cfg.secondFactor;
        point = activation + rng.pick([0n, rng.range(0n, span), span + rng.range(0n, span)]);
      }
      feeLabel = `${feeKind === 0 ? 'scheduler linear' : 'scheduler exponential'}${scheduled ? '' : ' (flat)'}`;
    }
    if (rng.int(2) === 0) {
      cfg.dynamicFeeInitialized = 1;
      cfg.binStep = 1 + rng.int(100);
      cfg.binStepU128 = (BigInt(cfg.binStep) << 64n) / 10_000n;
      cfg.variableFeeControl = rng.int(2_000_000);
      cfg.maxVolatilityAccumulator = rng.int(400_000);
      cfg.filterPeriod = 10;
      cfg.decayPeriod = 120;
      cfg.reductionFactor = 5000;
      pool.volatilityAccumulator = BigInt(rng.int(cfg.maxVolatilityAccumulator + 1));
      feeLabel += ' + dynamic';
    }
    // Current price: somewhere on the curve, at its ends, or just below the migration price.
    const where = rng.int(10);
    let sqrt: bigint;
    if (where === 0) sqrt = start;
    else if (where === 1) sqrt = cfg.migrationSqrtPrice - rng.range(0n, (cfg.migrationSqrtPrice - start) / 100_000n);
    else sqrt = start + ((cfg.migrationSqrtPrice - start) * BigInt(Math.floor(rng.float() * 1e9))) / 1_000_000_000n;
    pool.sqrtPrice = sqrt;
    const held = curveAmounts(curve, start, start, sqrt);
    // Now and then a reserve an atom or two short of the curve (rounding drift), to exercise the reserve checks.
    pool.quoteReserve = held.quote > 10n && rng.int(10) === 0 ? held.quote - rng.range(1n, 2n) : held.quote;
    const remaining = curveAmounts(curve, start, sqrt, cfg.migrationSqrtPrice);
    pool.baseReserve = remaining.base + rng.range(0n, remaining.base / 2n + 1n);
    if (pool.baseReserve > U64_MAX) pool.baseReserve = U64_MAX;
    if (pool.quoteReserve > U64_MAX) pool.quoteReserve = U64_MAX;
    // A completed curve (quote reserve at the threshold), migrated or waiting for migration.
    if (rng.int(25) === 0) {
      pool.quoteReserve = cfg.migrationQuoteThreshold;
      pool.isMigrated = rng.int(2);
    }
    const clock: ChainClock = cfg.activationType === 0
      ? { slot: point, unixTimestamp: 1_700_000_000n, epoch: 700n }
      : { slot: 300_000_000n, unixTimestamp: point, epoch: 700n };
    const baseHeld = curveAmounts(curve, start, start, sqrt).base;
    out.push({
      pool, config: cfg, clock, point, feeLabel,
      amountIn: { aToB: amountAround(rng, baseHeld), bToA: amountAround(rng, remaining.quote) },
      amountOut: { aToB: amountAround(rng, pool.quoteReserve), bToA: amountAround(rng, remaining.base) },
    });
  }
  return out;
}
