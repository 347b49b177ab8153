/**
 * Test and bench support only: the DBC SDK's quote functions (`swapQuoteExactIn`, `swapQuoteExactOut`), loaded
 * lazily through `createRequire` (CommonJS build), fed with objects built from our decoded accounts and
 * returning bigint. Never imported by engine code.
 */
import { createRequire } from 'node:module';
import type { PoolConfigAccount, VirtualPoolFields } from '../layout.js';

/** The slice of bn.js the oracle uses. */
export interface BnLike {
  toString(): string;
}

type BnCtor = new (v: string) => BnLike;

/** The SDK's quote signature: (virtualPool, config, swapBaseForQuote, amount, slippageBps, hasReferral, currentPoint, eligibleForFirstSwapWithMinFee). */
export type SdkQuoteFn = (
  pool: unknown, config: unknown, swapBaseForQuote: boolean, amount: BnLike, slippageBps: number, hasReferral: boolean,
  currentPoint: BnLike, eligibleForFirstSwapWithMinFee: boolean,
) => Record<string, BnLike>;

/** The SDK exports the tests use. */
export interface SdkDbc {
  readonly BN: BnCtor;
  readonly swapQuoteExactIn: SdkQuoteFn;
  readonly swapQuoteExactOut: SdkQuoteFn;
  readonly DynamicBondingCurveIdl: unknown;
  readonly PoolService: new (connection: unknown, commitment: string) => unknown;
  readonly deriveDbcPoolAuthority: () => { toBase58(): string };
}

let cached: SdkDbc | undefined;

/** Loads the SDK once. */
export function loadSdk(): SdkDbc {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const sdk = require('@meteora-ag/dynamic-bonding-curve-sdk') as Omit<SdkDbc, 'BN'>;
  cached = { ...sdk, BN: require('bn.js') as BnCtor };
  return cached;
}

/** bigint -> BN. */
export function bn(v: bigint): BnLike {
  return new (loadSdk().BN)(v.toString());
}

/** BN -> bigint. */
export function big(v: BnLike): bigint {
  return BigInt(v.toString());
}

/** The SDK's `VirtualPool` shape ({ poolState }) with the fields its quote math reads (BN values). */
export function sdkPool(p: VirtualPoolFields): unknown {
  return {
    poolState: {
      volatilityTracker: { volatilityAccumulator: bn(p.volatilityAccumulator), volatilityReference: bn(p.volatilityReference), sqrtPriceReference: bn(p.sqrtPriceReference), lastUpdateTimestamp: bn(p.lastUpdateTimestamp) },
      baseReserve: bn(p.baseReserve), quoteReserve: bn(p.quoteReserve), sqrtPrice: bn(p.sqrtPrice), activationPoint: bn(p.activationPoint),
      isMigrated: p.isMigrated, hasSwap: p.hasSwap,
    },
  };
}

/** The SDK's `PoolConfig` shape with the fields its quote math reads (all 20 curve points). */
export function sdkConfig(c: PoolConfigAccount): unknown {
  const curve = [];
  for (let i = 0; i < 20; i++) {
    const p = c.curve[i] ?? { sqrtPrice: 0n, liquidity: 0n };
    curve.push({ sqrtPrice: bn(p.sqrtPrice), liquidity: bn(p.liquidity) });
  }
  return {
    poolFees: {
      baseFee: { cliffFeeNumerator: bn(c.cliffFeeNumerator), firstFactor: c.firstFactor, secondFactor: bn(c.secondFactor), thirdFactor: bn(c.thirdFactor), baseFeeMode: c.baseFeeMode },
      dynamicFee: { initialized: c.dynamicFeeInitialized, maxVolatilityAccumulator: c.maxVolatilityAccumulator, variableFeeControl: c.variableFeeControl, binStep: c.binStep, filterPeriod: c.filterPeriod, decayPeriod: c.decayPeriod, reductionFactor: c.reductionFactor, binStepU128: bn(c.binStepU128) },
    },
    collectFeeMode: c.collectFeeMode, activationType: c.activationType, creatorTradingFeePercentage: c.creatorTradingFeePercentage,
    migrationQuoteThreshold: bn(c.migrationQuoteThreshold), migrationSqrtPrice: bn(c.migrationSqrtPrice), sqrtStartPrice: bn(c.sqrtStartPrice),
    enableFirstSwapWithMinFee: c.enableFirstSwapWithMinFee, curve,
  };
}

/** An SDK quote with bigint fields (SwapQuote2Result). */
export interface SdkQuote {
  readonly includedFeeInputAmount: bigint;
  readonly excludedFeeInputAmount: bigint;
  readonly outputAmount: bigint;
  readonly nextSqrtPrice: bigint;
  readonly tradingFee: bigint;
  readonly protocolFee: bigint;
  readonly referralFee: bigint;
}

/** Runs swapQuoteExactIn / swapQuoteExactOut (no referral, not first swap); null when the SDK throws. */
export function sdkQuote(mode: 'in' | 'out', pool: unknown, config: unknown, baseToQuote: boolean, amount: bigint, point: bigint): SdkQuote | null {
  const sdk = loadSdk();
  const fn = mode === 'in' ? sdk.swapQuoteExactIn : sdk.swapQuoteExactOut;
  let r: Record<string, BnLike>;
  try {
    r = fn(pool, config, baseToQuote, bn(amount), 0, false, bn(point), false);
  } catch {
    return null;
  }
  return {
    includedFeeInputAmount: big(r.includedFeeInputAmount!), excludedFeeInputAmount: big(r.excludedFeeInputAmount!),
    outputAmount: big(r.outputAmount!), nextSqrtPrice: big(r.nextSqrtPrice!), tradingFee: big(r.tradingFee!),
    protocolFee: big(r.protocolFee!), referralFee: big(r.referralFee!),
  };
}
