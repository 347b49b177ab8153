/**
 * Test and bench support only: the Raydium SDK's LaunchLab math (`Curve`), loaded lazily through `createRequire`
 * (the SDK is a devDependency and CommonJS), with bigint in and out. Never imported by engine code.
 */
import { createRequire } from 'node:module';
import type { LaunchlabCurveState, LaunchlabRates } from '../math.js';

/** The slice of bn.js the oracle uses. */
export interface BnLike {
  toString(): string;
}

type BnCtor = new (v: string) => BnLike;

/** What the SDK's `Curve.*` functions return (bn.js fields). */
interface SdkSwapInfo {
  amountA: { amount: BnLike; fee?: BnLike };
  amountB: BnLike;
  splitFee: { platformFee: BnLike; shareFee: BnLike; protocolFee: BnLike; creatorFee: BnLike };
}

/** The argument object of the SDK's `Curve.*` functions (pool amounts and rates as bn.js values). */
export interface SdkCurveArgs {
  poolInfo: Record<string, BnLike>;
  protocolFeeRate: BnLike;
  platformFeeRate: BnLike;
  creatorFeeRate: BnLike;
  shareFeeRate: BnLike;
  curveType: number;
  transferFeeConfigA: undefined;
  transferFeeConfigB: undefined;
  slot: number;
  amountA?: BnLike;
  amountB?: BnLike;
}

type SdkFn = (args: SdkCurveArgs) => SdkSwapInfo;

/** The SDK exports the oracle, the tests and the bench use. */
export interface SdkLaunchlab {
  readonly BN: BnCtor;
  readonly Decimal: new (v: string) => { sqrt(): { toFixed(d: number): string } };
  readonly Curve: { buyExactIn: SdkFn; buyExactOut: SdkFn; sellExactIn: SdkFn; sellExactOut: SdkFn };
  readonly buyExactInInstruction: (...args: unknown[]) => SdkInstruction;
  readonly buyExactOutInstruction: (...args: unknown[]) => SdkInstruction;
  readonly sellExactInInstruction: (...args: unknown[]) => SdkInstruction;
  readonly sellExactOut: (...args: unknown[]) => SdkInstruction;
}

/** A web3.js TransactionInstruction as the SDK builds it. */
export interface SdkInstruction {
  readonly programId: { toBase58(): string };
  readonly keys: readonly { pubkey: { toBase58(): string }; isSigner: boolean; isWritable: boolean }[];
  readonly data: Uint8Array;
}

let cached: SdkLaunchlab | undefined;

/** Loads the SDK once (about a second: it pulls in many modules). */
export function loadSdk(): SdkLaunchlab {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const sdk = require('@raydium-io/raydium-sdk-v2') as Omit<SdkLaunchlab, 'BN' | 'Decimal'>;
  cached = { ...sdk, BN: require('bn.js') as BnCtor, Decimal: require('decimal.js') as SdkLaunchlab['Decimal'] };
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

/** Which SDK function: buy/sell x exact-in/exact-out. */
export type SdkMode = 'buyExactIn' | 'buyExactOut' | 'sellExactIn' | 'sellExactOut';

/** The SDK's result with bigint fields. */
export interface SdkLaunchSwap {
  readonly amountA: bigint;
  readonly amountB: bigint;
  readonly protocolFee: bigint;
  readonly platformFee: bigint;
  readonly creatorFee: bigint;
  readonly shareFee: bigint;
}

/** The SDK's argument object for a state (built once; the bench reuses it). */
export function sdkArgs(s: LaunchlabCurveState, rates: LaunchlabRates, curveType: number): SdkCurveArgs {
  return {
    poolInfo: {
      virtualA: bn(s.virtualA), virtualB: bn(s.virtualB), realA: bn(s.realA), realB: bn(s.realB),
      totalSellA: bn(s.totalSellA), totalFundRaisingB: bn(0n),
    },
    protocolFeeRate: bn(rates.tradeFeeRate),
    platformFeeRate: bn(rates.platformFeeRate),
    creatorFeeRate: bn(rates.creatorFeeRate),
    shareFeeRate: bn(0n),
    curveType,
    transferFeeConfigA: undefined,
    transferFeeConfigB: undefined,
    slot: 0,
  };
}

/** Runs one SDK function; null when it throws. */
export function sdkLaunch(mode: SdkMode, args: SdkCurveArgs, amount: bigint): SdkLaunchSwap | null {
  const fn = loadSdk().Curve[mode];
  const call: SdkCurveArgs = mode === 'buyExactIn' || mode === 'sellExactOut' ? { ...args, amountB: bn(amount) } : { ...args, amountA: bn(amount) };
  let r: SdkSwapInfo;
  try {
    r = fn.call(loadSdk().Curve, call);
  } catch {
    return null;
  }
  return {
    amountA: big(r.amountA.amount),
    amountB: big(r.amountB),
    protocolFee: big(r.splitFee.protocolFee),
    platformFee: big(r.splitFee.platformFee),
    creatorFee: big(r.splitFee.creatorFee),
    shareFee: big(r.splitFee.shareFee),
  };
}
