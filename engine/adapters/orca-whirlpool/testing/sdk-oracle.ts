/**
 * Test and bench support only: Orca's official SDK, loaded lazily through `createRequire` (devDependencies):
 * `@orca-so/whirlpools-core` (the program's Rust math compiled to WebAssembly: the quote oracle) and
 * `@orca-so/whirlpools-client` (the account codecs: the layout oracle). Never imported by engine code.
 */
import { createRequire } from 'node:module';
import type * as Core from '@orca-so/whirlpools-core';
import type * as Client from '@orca-so/whirlpools-client';
import type { AdaptiveFeeInfo } from '../adaptive-fee.js';
import type { WhirlpoolSwapParams } from '../swap.js';
import { TICK_ARRAY_SIZE } from '../tick-math.js';
import type { TickArrayTicks } from '../tick-source.js';

let core: typeof Core | undefined;
let client: typeof Client | undefined;

/** `@orca-so/whirlpools-core`, loaded once. */
export function sdkCore(): typeof Core {
  core ??= createRequire(import.meta.url)('@orca-so/whirlpools-core') as typeof Core;
  return core;
}

/** `@orca-so/whirlpools-client`, loaded once. */
export function sdkClient(): typeof Client {
  client ??= createRequire(import.meta.url)('@orca-so/whirlpools-client') as typeof Client;
  return client;
}

/** The SDK's WhirlpoolFacade for a pool: the fields the quote reads, the rest zero. */
export function whirlpoolFacade(pool: WhirlpoolSwapParams, feeTierIndexSeed: number): Core.WhirlpoolFacade {
  const seed = new Uint8Array(2);
  new DataView(seed.buffer).setUint16(0, feeTierIndexSeed, true);
  const reward = { emissionsPerSecondX64: 0n, growthGlobalX64: 0n };
  return {
    feeTierIndexSeed: seed, tickSpacing: pool.tickSpacing, feeRate: pool.feeRate, protocolFeeRate: 0,
    liquidity: pool.liquidity, sqrtPrice: pool.sqrtPrice, tickCurrentIndex: pool.tickCurrentIndex,
    feeGrowthGlobalA: 0n, feeGrowthGlobalB: 0n, rewardLastUpdatedTimestamp: 0n, rewardInfos: [reward, reward, reward],
  };
}

/** The SDK's OracleFacade for an adaptive fee. */
export function oracleFacade(info: AdaptiveFeeInfo): Core.OracleFacade {
  return { tradeEnableTimestamp: info.tradeEnableTimestamp, adaptiveFeeConstants: { ...info.constants }, adaptiveFeeVariables: { ...info.variables } };
}

/** The SDK's TickArrayFacade of a tick array. */
export function tickArrayFacade(a: TickArrayTicks): Core.TickArrayFacade {
  const ticks: Core.TickFacade[] = [];
  for (let i = 0; i < TICK_ARRAY_SIZE; i++) {
    const init = ((a.bitmap[i >> 5]! >>> (i & 31)) & 1) === 1;
    const net = a.liquidityNet[i]!;
    ticks.push({
      initialized: init, liquidityNet: init ? net : 0n, liquidityGross: init ? (net < 0n ? -net : net) : 0n,
      feeGrowthOutsideA: 0n, feeGrowthOutsideB: 0n, rewardGrowthsOutside: [0n, 0n, 0n],
    });
  }
  return { startTickIndex: a.startTickIndex, ticks };
}

/** The SDK's quote in our terms, or null when the SDK throws. `full`: the whole amount was swapped. */
export interface SdkQuote {
  readonly full: boolean;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly fee: bigint;
  readonly feeRateMin: number;
  readonly feeRateMax: number;
}

/**
 * `swapQuoteByInputToken` (exact-in) or `swapQuoteByOutputToken` (exact-out) with no slippage and no transfer fee,
 * in our direction terms; null when the SDK throws.
 */
export function sdkQuote(
  pool: WhirlpoolSwapParams, feeTierIndexSeed: number, arrays: readonly Core.TickArrayFacade[],
  aToB: boolean, amount: bigint, exactIn: boolean, timestamp: bigint,
): SdkQuote | null {
  const c = sdkCore();
  const wp = whirlpoolFacade(pool, feeTierIndexSeed);
  const oracle = pool.adaptiveFee === null ? null : oracleFacade(pool.adaptiveFee);
  try {
    if (exactIn) {
      const q = c.swapQuoteByInputToken(amount, aToB, 0, wp, oracle, arrays as Core.TickArrayFacade[], timestamp, null, null);
      return { full: q.tokenIn === amount, amountIn: q.tokenIn, amountOut: q.tokenEstOut, fee: q.tradeFee, feeRateMin: q.tradeFeeRateMin, feeRateMax: q.tradeFeeRateMax };
    }
    const q = c.swapQuoteByOutputToken(amount, !aToB, 0, wp, oracle, arrays as Core.TickArrayFacade[], timestamp, null, null);
    return { full: q.tokenOut === amount, amountIn: q.tokenEstIn, amountOut: q.tokenOut, fee: q.tradeFee, feeRateMin: q.tradeFeeRateMin, feeRateMax: q.tradeFeeRateMax };
  } catch {
    return null;
  }
}
