/**
 * Test and bench support only: the pump SDK's curve math and decoders, loaded lazily through `createRequire`
 * (the SDK is CommonJS), with bigint and our decoded field shapes in and out. Never imported by engine code.
 */
import { createRequire } from 'node:module';
import type { FeeConfigFields, FeeSchedule } from '../fee-config.js';
import type { BondingCurveFields } from '../layout.js';

/** The slice of bn.js the oracle uses. */
export interface BnLike {
  toString(): string;
}

type BnCtor = new (v: string) => BnLike;
type PkCtor = new (v: string) => { toBase58(): string };

/** The SDK's math arguments (objects in the SDK's own shapes). */
export interface SdkArgs {
  readonly global: unknown;
  readonly feeConfig: unknown;
  readonly mintSupply: BnLike;
  readonly bondingCurve: unknown;
  readonly quoteMint: unknown;
}

type SdkMath = (a: SdkArgs & { amount: BnLike }) => BnLike;

/** The SDK exports the tests and the bench use. */
export interface PumpSdkModule {
  readonly getBuyTokenAmountFromSolAmount: SdkMath;
  readonly getBuySolAmountFromTokenAmount: SdkMath;
  readonly getSellSolAmountFromTokenAmount: SdkMath;
  readonly PUMP_SDK: {
    decodeBondingCurve(ai: unknown): Record<string, unknown>;
    decodeGlobal(ai: unknown): Record<string, unknown>;
    decodeFeeConfig(ai: unknown): Record<string, unknown>;
    getBuyInstructionRaw(a: Record<string, unknown>): Promise<SdkInstruction>;
    getSellInstructionRaw(a: Record<string, unknown>): Promise<SdkInstruction>;
  };
  readonly pumpIdl: unknown;
}

/** A web3.js TransactionInstruction as the SDK builds it. */
export interface SdkInstruction {
  readonly programId: { toBase58(): string };
  readonly keys: readonly { pubkey: { toBase58(): string }; isSigner: boolean; isWritable: boolean }[];
  readonly data: Uint8Array;
}

let cached: { sdk: PumpSdkModule; BN: BnCtor; PublicKey: PkCtor } | undefined;

/** Loads the SDK once. */
export function loadPumpSdk(): { sdk: PumpSdkModule; BN: BnCtor; PublicKey: PkCtor } {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  cached = {
    sdk: require('@pump-fun/pump-sdk') as PumpSdkModule,
    BN: require('bn.js') as BnCtor,
    PublicKey: (require('@solana/web3.js') as { PublicKey: PkCtor }).PublicKey,
  };
  return cached;
}

/** bigint -> BN. */
export function bn(v: bigint): BnLike {
  return new (loadPumpSdk().BN)(v.toString());
}

/** BN -> bigint. */
export function big(v: BnLike): bigint {
  return BigInt(v.toString());
}

/** base58 -> the SDK's PublicKey. */
export function pk(v: string): unknown {
  return new (loadPumpSdk().PublicKey)(v);
}

function fees(f: FeeSchedule): Record<string, BnLike> {
  return { lpFeeBps: bn(f.lpFeeBps), protocolFeeBps: bn(f.protocolFeeBps), creatorFeeBps: bn(f.creatorFeeBps) };
}

/** Our FeeConfig -> the SDK's `FeeConfig`. */
export function sdkFeeConfig(f: FeeConfigFields): unknown {
  const tiers = (ts: FeeConfigFields['feeTiers']) => ts.map((t) => ({ marketCapLamportsThreshold: bn(t.marketCapThreshold), fees: fees(t.fees) }));
  return { admin: pk(f.admin), flatFees: fees(f.flatFees), feeTiers: tiers(f.feeTiers), stableFeeTiers: tiers(f.stableFeeTiers), exoticFlatFees: fees(f.exoticFlatFees) };
}

/** Our BondingCurve -> the SDK's `BondingCurve`. */
export function sdkCurve(c: BondingCurveFields): unknown {
  return {
    virtualTokenReserves: bn(c.virtualTokenReserves), virtualQuoteReserves: bn(c.virtualQuoteReserves),
    realTokenReserves: bn(c.realTokenReserves), realQuoteReserves: bn(c.realQuoteReserves),
    tokenTotalSupply: bn(c.tokenTotalSupply), complete: c.complete, creator: pk(c.creator), isMayhemMode: c.isMayhemMode,
    isCashbackCoin: c.isCashbackCoin, quoteMint: pk(c.quoteMint), creatorFeeBps: bn(c.creatorFeeBps),
    canEditCreatorFee: c.canEditCreatorFee, isHolderReward: c.isHolderReward,
  };
}

/** The Global fields the SDK's math reads. */
export function sdkGlobal(g: { feeBasisPoints: bigint; creatorFeeBasisPoints: bigint; creatorFeeConfigurable: boolean }): unknown {
  return { feeBasisPoints: bn(g.feeBasisPoints), creatorFeeBasisPoints: bn(g.creatorFeeBasisPoints), creatorFeeConfigurable: g.creatorFeeConfigurable };
}

/** Which SDK function. */
export type SdkFn = 'buyTokensForSol' | 'buySolForTokens' | 'sellSolForTokens';

/** Runs one SDK math function; null when it throws. */
export function sdkQuote(fn: SdkFn, args: SdkArgs, amount: bigint): bigint | null {
  const { sdk } = loadPumpSdk();
  const f = fn === 'buyTokensForSol' ? sdk.getBuyTokenAmountFromSolAmount
    : fn === 'buySolForTokens' ? sdk.getBuySolAmountFromTokenAmount : sdk.getSellSolAmountFromTokenAmount;
  try {
    return big(f({ ...args, amount: bn(amount) }));
  } catch {
    return null;
  }
}
