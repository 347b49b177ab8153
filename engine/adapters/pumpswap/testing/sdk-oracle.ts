/**
 * Test and bench support only: `@pump-fun/pump-swap-sdk`'s decoders and swap math, loaded lazily through
 * `createRequire` (CommonJS), with bigint in and out. Never imported by engine code.
 */
import { createRequire } from 'node:module';

/** The slice of bn.js the oracle uses. */
export interface BnLike {
  toString(): string;
}
/** The slice of web3.js PublicKey the oracle uses. */
export interface KeyLike {
  toBase58(): string;
  equals(o: KeyLike): boolean;
}

type Fn = (args: Record<string, unknown>) => Record<string, BnLike>;

/** The SDK exports the oracle uses. */
export interface SdkPumpSwap {
  readonly PUMP_AMM_SDK: {
    decodePool(ai: { data: Buffer }): Record<string, unknown> & { coinCreator: KeyLike; creator: KeyLike; baseMint: KeyLike; quoteMint: KeyLike; isMayhemMode: boolean; virtualQuoteReserves: BnLike; creatorFeeBps: BnLike };
    decodeGlobalConfig(ai: { data: Buffer }): Record<string, unknown>;
    decodeFeeConfig(ai: { data: Buffer }): Record<string, unknown>;
  };
  readonly OFFLINE_PUMP_AMM_PROGRAM: { idl: unknown; coder: { instruction: { decode(d: Buffer): { name: string; data: Record<string, unknown> } | null } }; methods: Record<string, (...a: unknown[]) => { accounts(a: unknown): { remainingAccounts(r: unknown[]): { instruction(): Promise<SdkInstruction> } } }> };
  readonly sellBaseInput: Fn;
  readonly sellQuoteInput: Fn;
  readonly buyBaseInput: Fn;
  readonly buyQuoteInput: Fn;
  readonly pumpPoolAuthorityPda: (mint: KeyLike) => KeyLike;
}

/** A web3.js TransactionInstruction. */
export interface SdkInstruction {
  readonly programId: KeyLike;
  readonly keys: readonly { pubkey: KeyLike; isSigner: boolean; isWritable: boolean }[];
  readonly data: Buffer;
}

let cached: { sdk: SdkPumpSwap; BN: new (v: string) => BnLike; PublicKey: new (v: string | Uint8Array) => KeyLike } | undefined;

/** Loads the SDK once. */
export function loadSdk(): NonNullable<typeof cached> {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  cached = {
    sdk: require('@pump-fun/pump-swap-sdk') as SdkPumpSwap,
    BN: require('bn.js') as new (v: string) => BnLike,
    PublicKey: (require('@solana/web3.js') as { PublicKey: new (v: string | Uint8Array) => KeyLike }).PublicKey,
  };
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

const ai = (data: Uint8Array): { data: Buffer; executable: boolean; lamports: number; owner: unknown } => ({ data: Buffer.from(data), executable: false, lamports: 0, owner: null });

/** One pool as the SDK's math takes it, decoded by the SDK from our encoded accounts. */
export interface SdkPoolContext {
  readonly common: Record<string, unknown>;
}

/** Decodes the accounts with the SDK's versioned decoders and prepares the common arguments of its math. */
export function sdkContext(pool: Uint8Array, global: Uint8Array, feeConfig: Uint8Array, supply: bigint, baseVault: bigint, quoteVault: bigint): SdkPoolContext {
  const { sdk } = loadSdk();
  const p = sdk.PUMP_AMM_SDK.decodePool(ai(pool));
  return {
    common: {
      slippage: 0,
      baseReserve: bn(baseVault),
      quoteReserve: bn(quoteVault),
      virtualQuoteReserves: p.virtualQuoteReserves,
      globalConfig: sdk.PUMP_AMM_SDK.decodeGlobalConfig(ai(global)),
      baseMintAccount: { supply, decimals: 6 },
      baseMint: p.baseMint,
      coinCreator: p.coinCreator,
      creator: p.creator,
      feeConfig: sdk.PUMP_AMM_SDK.decodeFeeConfig(ai(feeConfig)),
      quoteMint: p.quoteMint,
      isMayhemMode: p.isMayhemMode,
      creatorFeeBps: p.creatorFeeBps,
    },
  };
}

/** Result of one SDK call: the fields as bigint, or null when it throws. */
export type SdkResult = Record<string, bigint> | null;

/** Runs one of the SDK's four swap functions; null when it throws. */
export function sdkCall(ctx: SdkPoolContext, fn: 'sellBaseInput' | 'sellQuoteInput' | 'buyBaseInput' | 'buyQuoteInput', amount: bigint): SdkResult {
  const { sdk } = loadSdk();
  const key = fn === 'sellBaseInput' || fn === 'buyBaseInput' ? 'base' : 'quote';
  try {
    const r = sdk[fn]({ ...ctx.common, [key]: bn(amount) });
    return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, big(v)]));
  } catch {
    return null;
  }
}
