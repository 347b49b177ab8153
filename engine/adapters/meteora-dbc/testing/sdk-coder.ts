/**
 * Test support only: the SDK's Anchor coder for the DBC accounts (IDL 0.2.1), and the mapping between its nested
 * camelCase objects and our flat field tables, so that tests can encode and decode with either side.
 */
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import type { PoolConfigAccount, VirtualPoolFields } from '../layout.js';

interface BnStatic {
  new (v: string): { toString(): string };
  isBN(v: unknown): boolean;
}

interface AccountLayout {
  encode(obj: unknown, buf: Buffer): number;
  decode(buf: Buffer): unknown;
}

/** The SDK-side codec: decode with Anchor, encode with Anchor's layout into a right-sized buffer. */
export interface SdkCoder {
  decode(name: 'virtualPool' | 'poolConfig', data: Uint8Array): Record<string, unknown>;
  encode(name: 'virtualPool' | 'poolConfig', obj: unknown): Buffer;
  readonly BN: BnStatic;
  readonly PublicKey: new (k: string) => { toBase58(): string };
}

let coder: SdkCoder | undefined;

/** Loads the SDK's IDL into an offline Anchor Program and returns its account codec. */
export function loadSdkCoder(): SdkCoder {
  if (coder) return coder;
  const require = createRequire(import.meta.url);
  const anchor = require('@coral-xyz/anchor') as { Program: new (idl: unknown, provider: unknown) => { coder: { accounts: { decode(n: string, b: Buffer): unknown; accountLayouts: Map<string, { discriminator?: number[]; layout?: AccountLayout } | AccountLayout> } } }; AnchorProvider: new (c: unknown, w: unknown, o: unknown) => unknown };
  const web3 = require('@solana/web3.js') as { Connection: new (u: string) => unknown; PublicKey: SdkCoder['PublicKey'] };
  const sdk = require('@meteora-ag/dynamic-bonding-curve-sdk') as { DynamicBondingCurveIdl: unknown };
  const program = new anchor.Program(sdk.DynamicBondingCurveIdl, new anchor.AnchorProvider(new web3.Connection('http://127.0.0.1:1'), {}, {}));
  const accounts = program.coder.accounts;
  coder = {
    decode: (name, data) => accounts.decode(name, Buffer.from(data)) as Record<string, unknown>,
    encode: (name, obj) => {
      // Anchor's encode() allocates 1000 bytes (too small for PoolConfig): use the layout directly.
      const entry = accounts.accountLayouts.get(name)!;
      const layout = ('layout' in entry && entry.layout ? entry.layout : entry) as AccountLayout;
      const disc = 'discriminator' in entry && entry.discriminator
        ? Buffer.from(entry.discriminator)
        : createHash('sha256').update(`account:${name[0]!.toUpperCase()}${name.slice(1)}`).digest().subarray(0, 8);
      const buf = Buffer.alloc(4096);
      const len = layout.encode(obj, buf);
      return Buffer.concat([disc, buf.subarray(0, len)]);
    },
    BN: require('bn.js') as BnStatic,
    PublicKey: web3.PublicKey,
  };
  return coder;
}

type Obj = Record<string, unknown>;

/** SDK value -> ours (PublicKey -> base58, BN -> bigint). */
export function fromSdkValue(v: unknown): unknown {
  const c = loadSdkCoder();
  if (v && typeof v === 'object' && 'toBase58' in v) return (v as { toBase58(): string }).toBase58();
  if (c.BN.isBN(v)) return BigInt((v as { toString(): string }).toString());
  return v;
}

/** Our VirtualPool fields -> the SDK's nested object (`{ poolState: { ... } }`). */
export function poolToSdk(p: VirtualPoolFields): Obj {
  const { BN, PublicKey } = loadSdkCoder();
  const b = (v: bigint): unknown => new BN(v.toString());
  const k = (v: string): unknown => new PublicKey(v);
  const z = (n: number): number[] => new Array<number>(n).fill(0);
  return {
    poolState: {
      volatilityTracker: { lastUpdateTimestamp: b(p.lastUpdateTimestamp), padding: z(8), sqrtPriceReference: b(p.sqrtPriceReference), volatilityAccumulator: b(p.volatilityAccumulator), volatilityReference: b(p.volatilityReference) },
      config: k(p.config), creator: k(p.creator), baseMint: k(p.baseMint), baseVault: k(p.baseVault), quoteVault: k(p.quoteVault),
      baseReserve: b(p.baseReserve), quoteReserve: b(p.quoteReserve), protocolBaseFee: b(p.protocolBaseFee), protocolQuoteFee: b(p.protocolQuoteFee),
      partnerBaseFee: b(p.partnerBaseFee), partnerQuoteFee: b(p.partnerQuoteFee), sqrtPrice: b(p.sqrtPrice), activationPoint: b(p.activationPoint),
      poolType: p.poolType, isMigrated: p.isMigrated, isPartnerWithdrawSurplus: p.isPartnerWithdrawSurplus, isProtocolWithdrawSurplus: p.isProtocolWithdrawSurplus,
      migrationProgress: p.migrationProgress, isWithdrawLeftover: p.isWithdrawLeftover, isCreatorWithdrawSurplus: p.isCreatorWithdrawSurplus,
      migrationFeeWithdrawStatus: p.migrationFeeWithdrawStatus,
      metrics: { totalProtocolBaseFee: b(p.totalProtocolBaseFee), totalProtocolQuoteFee: b(p.totalProtocolQuoteFee), totalTradingBaseFee: b(p.totalTradingBaseFee), totalTradingQuoteFee: b(p.totalTradingQuoteFee) },
      finishCurveTimestamp: b(p.finishCurveTimestamp), creatorBaseFee: b(p.creatorBaseFee), creatorQuoteFee: b(p.creatorQuoteFee),
      legacyCreationFeeBits: p.legacyCreationFeeBits, creationFeeBits: p.creationFeeBits, hasSwap: p.hasSwap, padding0: z(5),
      protocolLiquidityMigrationFeeBps: p.protocolLiquidityMigrationFeeBps, padding1: z(6),
      protocolMigrationBaseFeeAmount: b(p.protocolMigrationBaseFeeAmount), protocolMigrationQuoteFeeAmount: b(p.protocolMigrationQuoteFeeAmount),
      padding2: [b(0n), b(0n), b(0n)],
    },
  };
}

/** The SDK's decoded VirtualPool -> our flat fields. */
export function poolFromSdk(o: Obj): VirtualPoolFields {
  const s = o.poolState as Obj;
  const vt = s.volatilityTracker as Obj;
  const m = s.metrics as Obj;
  const flat: Obj = { ...s, ...vt, ...m };
  const out: Obj = {};
  for (const key of Object.keys(flat)) if (!['volatilityTracker', 'metrics', 'padding', 'padding0', 'padding1', 'padding2'].includes(key)) out[key] = fromSdkValue(flat[key]);
  return out as unknown as VirtualPoolFields;
}

const VESTING_KEYS = ['IsInitialized', 'Percentage', 'BpsPerPeriod', 'NumberOfPeriods', 'Frequency', 'CliffDuration'] as const;
const VESTING_SDK = ['isInitialized', 'vestingPercentage', 'bpsPerPeriod', 'numberOfPeriods', 'frequency', 'cliffDurationFromMigrationTime'] as const;
const LOCKED = [['lockedAmountPerPeriod', 'amountPerPeriod'], ['lockedCliffDurationFromMigrationTime', 'cliffDurationFromMigrationTime'], ['lockedFrequency', 'frequency'], ['lockedNumberOfPeriod', 'numberOfPeriod'], ['lockedCliffUnlockAmount', 'cliffUnlockAmount']] as const;
const CONFIG_FLAT = ['quoteMint', 'feeClaimer', 'leftoverReceiver', 'collectFeeMode', 'migrationOption', 'activationType', 'tokenDecimal', 'version', 'tokenType', 'quoteTokenFlag',
  'partnerPermanentLockedLiquidityPercentage', 'partnerLiquidityPercentage', 'creatorPermanentLockedLiquidityPercentage', 'creatorLiquidityPercentage', 'migrationFeeOption',
  'fixedTokenSupplyFlag', 'creatorTradingFeePercentage', 'tokenUpdateAuthority', 'migrationFeePercentage', 'creatorMigrationFeePercentage', 'swapBaseAmount', 'migrationQuoteThreshold',
  'migrationBaseThreshold', 'migrationSqrtPrice', 'preMigrationTokenSupply', 'postMigrationTokenSupply', 'migratedCollectFeeMode', 'migratedDynamicFee', 'migratedPoolFeeBps',
  'migratedPoolBaseFeeMode', 'enableFirstSwapWithMinFee', 'migratedCompoundingFeeBps', 'poolCreationFee', 'sqrtStartPrice'] as const;

/** Our PoolConfig -> the SDK's nested object. */
export function configToSdk(c: PoolConfigAccount): Obj {
  const { BN, PublicKey } = loadSdkCoder();
  const conv = (v: unknown): unknown => (typeof v === 'bigint' ? new BN(v.toString()) : typeof v === 'string' ? new PublicKey(v) : v);
  const z = (n: number): number[] => new Array<number>(n).fill(0);
  const src = c as unknown as Obj;
  const out: Obj = {};
  for (const k of CONFIG_FLAT) out[k] = conv(src[k]);
  out.poolFees = {
    baseFee: { cliffFeeNumerator: conv(c.cliffFeeNumerator), secondFactor: conv(c.secondFactor), thirdFactor: conv(c.thirdFactor), firstFactor: c.firstFactor, baseFeeMode: c.baseFeeMode, padding0: z(5) },
    dynamicFee: { initialized: c.dynamicFeeInitialized, padding: z(7), maxVolatilityAccumulator: c.maxVolatilityAccumulator, variableFeeControl: c.variableFeeControl, binStep: c.binStep,
      filterPeriod: c.filterPeriod, decayPeriod: c.decayPeriod, reductionFactor: c.reductionFactor, padding2: z(8), binStepU128: conv(c.binStepU128) },
  };
  for (const who of ['partner', 'creator'] as const) {
    const v: Obj = { padding: z(2) };
    VESTING_KEYS.forEach((k, i) => { v[VESTING_SDK[i]] = src[`${who}Vesting${k}`]; });
    out[`${who}LiquidityVestingInfo`] = v;
  }
  const locked: Obj = { padding: conv(0n) };
  for (const [ours, theirs] of LOCKED) locked[theirs] = conv(src[ours]);
  out.lockedVestingConfig = locked;
  out.padding0 = z(14);
  out.padding1 = 0;
  out.padding2 = z(7);
  out.migratedPoolBaseFeeBytes = z(16);
  const curve = [];
  for (let i = 0; i < 20; i++) {
    const p = c.curve[i] ?? { sqrtPrice: 0n, liquidity: 0n };
    curve.push({ sqrtPrice: conv(p.sqrtPrice), liquidity: conv(p.liquidity) });
  }
  out.curve = curve;
  return out;
}

/** The SDK's decoded PoolConfig -> our fields (curve included, all 20 points). */
export function configFromSdk(o: Obj): PoolConfigAccount {
  const out: Obj = {};
  for (const k of CONFIG_FLAT) out[k] = fromSdkValue(o[k]);
  const fees = o.poolFees as Obj;
  const bf = fees.baseFee as Obj;
  const df = fees.dynamicFee as Obj;
  for (const k of ['cliffFeeNumerator', 'secondFactor', 'thirdFactor', 'firstFactor', 'baseFeeMode']) out[k] = fromSdkValue(bf[k]);
  out.dynamicFeeInitialized = df.initialized;
  for (const k of ['maxVolatilityAccumulator', 'variableFeeControl', 'binStep', 'filterPeriod', 'decayPeriod', 'reductionFactor', 'binStepU128']) out[k] = fromSdkValue(df[k]);
  for (const who of ['partner', 'creator'] as const) {
    const v = o[`${who}LiquidityVestingInfo`] as Obj;
    VESTING_KEYS.forEach((k, i) => { out[`${who}Vesting${k}`] = v[VESTING_SDK[i]]; });
  }
  const locked = o.lockedVestingConfig as Obj;
  for (const [ours, theirs] of LOCKED) out[ours] = fromSdkValue(locked[theirs]);
  out.curve = (o.curve as Obj[]).map((p) => ({ sqrtPrice: fromSdkValue(p.sqrtPrice), liquidity: fromSdkValue(p.liquidity) }));
  return out as unknown as PoolConfigAccount;
}
