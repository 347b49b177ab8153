/**
 * Test and bench support only: the Raydium SDK's CPMM math, loaded lazily through `createRequire` (the SDK
 * is a devDependency and CommonJS), with bigint in and out. Never imported by engine code.
 */
import { createRequire } from 'node:module';

/** The slice of bn.js the oracle uses. */
export interface BnLike {
  toString(): string;
}

type BnCtor = new (v: string) => BnLike;

/** Result of the SDK's `CurveCalculator.swapBaseInput/swapBaseOutput` with bigint fields. */
export interface SdkSwap {
  readonly newInputVaultAmount: bigint;
  readonly newOutputVaultAmount: bigint;
  readonly inputAmount: bigint;
  readonly outputAmount: bigint;
  readonly tradeFee: bigint;
  readonly protocolFee: bigint;
  readonly fundFee: bigint;
  readonly creatorFee: bigint;
}

type SdkCalc = (
  amount: BnLike, inputVault: BnLike, outputVault: BnLike, trade: BnLike, creator: BnLike,
  protocol: BnLike, fund: BnLike, creatorOnInput: boolean,
) => Record<keyof SdkSwap, BnLike>;

/** The SDK exports the oracle uses. */
export interface SdkCpmm {
  readonly BN: BnCtor;
  readonly CurveCalculator: { swapBaseInput: SdkCalc; swapBaseOutput: SdkCalc };
  readonly CpmmFee: {
    tradingFee(a: BnLike, r: BnLike): BnLike;
    protocolFee(a: BnLike, r: BnLike): BnLike;
    fundFee(a: BnLike, r: BnLike): BnLike;
    splitCreatorFee(total: BnLike, trade: BnLike, creator: BnLike): BnLike;
  };
  readonly ConstantProductCurve: { swapBaseInputWithoutFees(a: BnLike, rin: BnLike, rout: BnLike): BnLike };
  readonly makeSwapCpmmBaseInInstruction: (...args: unknown[]) => SdkInstruction;
  readonly makeSwapCpmmBaseOutInstruction: (...args: unknown[]) => SdkInstruction;
}

/** A web3.js TransactionInstruction as the SDK builds it. */
export interface SdkInstruction {
  readonly programId: { toBase58(): string };
  readonly keys: readonly { pubkey: { toBase58(): string }; isSigner: boolean; isWritable: boolean }[];
  readonly data: Uint8Array;
}

let cached: SdkCpmm | undefined;

/** Loads the SDK once (about a second: the SDK pulls in many modules). */
export function loadSdk(): SdkCpmm {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const sdk = require('@raydium-io/raydium-sdk-v2') as Omit<SdkCpmm, 'BN'>;
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

/** Runs the SDK's calculator; null when it throws. Inputs and outputs are bigint. */
export function sdkSwap(
  mode: 'in' | 'out',
  amount: bigint,
  reserveIn: bigint,
  reserveOut: bigint,
  rates: { tradeFeeRate: bigint; creatorFeeRate: bigint; protocolFeeRate: bigint; fundFeeRate: bigint },
  creatorFeeOnInput: boolean,
): SdkSwap | null {
  const calc = loadSdk().CurveCalculator;
  const fn = mode === 'in' ? calc.swapBaseInput : calc.swapBaseOutput;
  let r: Record<keyof SdkSwap, BnLike>;
  try {
    r = fn(bn(amount), bn(reserveIn), bn(reserveOut), bn(rates.tradeFeeRate), bn(rates.creatorFeeRate),
      bn(rates.protocolFeeRate), bn(rates.fundFeeRate), creatorFeeOnInput);
  } catch {
    return null;
  }
  return {
    newInputVaultAmount: big(r.newInputVaultAmount),
    newOutputVaultAmount: big(r.newOutputVaultAmount),
    inputAmount: big(r.inputAmount),
    outputAmount: big(r.outputAmount),
    tradeFee: big(r.tradeFee),
    protocolFee: big(r.protocolFee),
    fundFee: big(r.fundFee),
    creatorFee: big(r.creatorFee),
  };
}
