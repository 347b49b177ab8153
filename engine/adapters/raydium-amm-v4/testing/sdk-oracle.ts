/**
 * Test and bench support only: the Raydium SDK's AMM v4 pieces (liquidityStateV4Layout, the LiquidityModule's
 * computeAmountOut / computeAmountIn, the swap instruction builders), loaded lazily through `createRequire` (the
 * SDK is a devDependency and CommonJS), with bigint in and out. Never imported by engine code.
 *
 * The SDK's AMM v4 math hardcodes the fee as 25/10000 (`LIQUIDITY_FEES_NUMERATOR/DENOMINATOR`) and ignores the
 * pool's `swap_fee_numerator/denominator`; it can be an oracle only for pools whose fee is exactly that.
 */
import { createRequire } from 'node:module';

/** The slice of bn.js the oracle uses. */
export interface BnLike {
  toString(): string;
  isZero(): boolean;
}

type BnCtor = new (v: string) => BnLike;

/** A web3.js TransactionInstruction as the SDK builds it. */
export interface SdkInstruction {
  readonly programId: { toBase58(): string };
  readonly keys: readonly { pubkey: { toBase58(): string }; isSigner: boolean; isWritable: boolean }[];
  readonly data: Uint8Array;
}

/** The buffer-layout Structure of the SDK. */
export interface SdkLayout {
  readonly span: number;
  readonly fields: readonly { property?: string; span: number }[];
  decode(b: Buffer): Record<string, unknown>;
  encode(v: Record<string, unknown>, b: Buffer): number;
  offsetOf(property: string): number;
}

interface PoolInfoArg {
  mintA: { address: string; decimals: number };
  mintB: { address: string; decimals: number };
  baseReserve: BnLike;
  quoteReserve: BnLike;
  version: 4;
}

interface LiquidityProto {
  computeAmountOut(this: unknown, a: { poolInfo: PoolInfoArg; amountIn: BnLike; mintIn: string; mintOut: string; slippage: number }): { amountOut: BnLike; fee: BnLike };
  computeAmountIn(this: unknown, a: { poolInfo: PoolInfoArg; amountOut: BnLike; mintIn: string; mintOut: string; slippage: number }): { amountIn: BnLike };
}

/** The SDK exports the oracle uses. */
export interface SdkAmmV4 {
  readonly BN: BnCtor;
  readonly liquidityStateV4Layout: SdkLayout;
  readonly proto: LiquidityProto;
  readonly swapBaseInV2Instruction: (...args: unknown[]) => SdkInstruction;
  readonly swapBaseOutV2Instruction: (...args: unknown[]) => SdkInstruction;
  readonly makeAMMSwapV2Instruction: (params: unknown) => SdkInstruction;
  readonly makeSwapFixedInInstruction: (params: unknown, version: number) => SdkInstruction;
  readonly makeSwapFixedOutInstruction: (params: unknown, version: number) => SdkInstruction;
}

let cached: SdkAmmV4 | undefined;

/** Loads the SDK once (about a second: the SDK pulls in many modules). */
export function loadAmmV4Sdk(): SdkAmmV4 {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const sdk = require('@raydium-io/raydium-sdk-v2') as Omit<SdkAmmV4, 'BN' | 'proto'>;
  const mod = require('@raydium-io/raydium-sdk-v2/lib/raydium/liquidity/liquidity.js') as { default: { prototype: LiquidityProto } };
  cached = { ...sdk, proto: mod.default.prototype, BN: require('bn.js') as BnCtor };
  return cached;
}

/** bigint -> BN. */
export function bn(v: bigint): BnLike {
  return new (loadAmmV4Sdk().BN)(v.toString());
}

/** BN -> bigint. */
export function big(v: BnLike): bigint {
  return BigInt(v.toString());
}

// Two placeholder mints: computeAmountOut only compares them to pick the direction.
const MINT_COIN = 'coin';
const MINT_PC = 'pc';

/** The poolInfo argument of computeAmountOut/In for quotable reserves (coin = base = mintA). */
export function sdkPoolInfo(reserveCoin: bigint, reservePc: bigint): PoolInfoArg {
  return {
    mintA: { address: MINT_COIN, decimals: 9 },
    mintB: { address: MINT_PC, decimals: 6 },
    baseReserve: bn(reserveCoin),
    quoteReserve: bn(reservePc),
    version: 4,
  };
}

// computeAmountIn logs through `this`; a silent stand-in that throws where the SDK would throw.
const THIS = {
  logDebug: (): void => undefined,
  logAndCreateError: (...a: unknown[]): never => { throw new Error(a.join(' ')); },
};

/** The SDK's exact-in output (25/10000 fee); null when it throws. */
export function sdkAmountOut(poolInfo: PoolInfoArg, coinToPc: boolean, amountIn: BnLike): bigint | null {
  try {
    const r = loadAmmV4Sdk().proto.computeAmountOut.call(THIS, {
      poolInfo, amountIn, mintIn: coinToPc ? MINT_COIN : MINT_PC, mintOut: coinToPc ? MINT_PC : MINT_COIN, slippage: 0,
    });
    return big(r.amountOut);
  } catch {
    return null;
  }
}

/** The SDK's exact-out input (25/10000 fee); null when it throws. */
export function sdkAmountIn(poolInfo: PoolInfoArg, coinToPc: boolean, amountOut: BnLike): bigint | null {
  try {
    const r = loadAmmV4Sdk().proto.computeAmountIn.call(THIS, {
      poolInfo, amountOut, mintIn: coinToPc ? MINT_COIN : MINT_PC, mintOut: coinToPc ? MINT_PC : MINT_COIN, slippage: 0,
    });
    return big(r.amountIn);
  } catch {
    return null;
  }
}
