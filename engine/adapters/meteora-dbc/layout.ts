/**
 * Meteora DBC account layouts: VirtualPool (424 B) and PoolConfig (1048 B), zero-copy (bytemuck), as ordered
 * field tables with constant offsets, plus the curve array of the config. Source of truth:
 * MeteoraAg/dynamic-bonding-curve `programs/dynamic-bonding-curve/src/state/{virtual_pool,config,fee}.rs`;
 * cross-checked against the SDK's Anchor coder (IDL 0.2.1) in `layout.test.ts`.
 */
import { PublicKey } from '@solana/web3.js';
import { EngineError } from '../../errors.js';
import { type FieldOffsets, type FieldSpec, type FieldsOf, fieldOffsets, readFields, readU128, writeFields, writeU128, hasDiscriminator } from '../common/field-table.js';

/** The DBC program id (mainnet). */
export const DBC_PROGRAM_ID = 'dbcij3LWUppWqq96dh6gJWwBifmcGfLSB5D4DuSMaqN';

/** Anchor account discriminator of VirtualPool: sha256("account:VirtualPool")[0..8]. */
export const VIRTUAL_POOL_DISCRIMINATOR: Uint8Array = Uint8Array.of(213, 224, 5, 209, 98, 69, 119, 92);
/** Anchor account discriminator of PoolConfig: sha256("account:PoolConfig")[0..8]. */
export const POOL_CONFIG_DISCRIMINATOR: Uint8Array = Uint8Array.of(26, 108, 14, 123, 116, 230, 129, 43);

/** Account size of VirtualPool (8 + 416). */
export const VIRTUAL_POOL_SIZE = 424;
/** Account size of PoolConfig (8 + 1040). */
export const POOL_CONFIG_SIZE = 1048;
/** Number of curve points in a PoolConfig (`MAX_CURVE_POINT_CONFIG`). */
export const CURVE_POINTS = 20;
/** Offset of the curve array (`[LiquidityDistributionConfig; 20]`, 32 bytes each) in a PoolConfig. */
export const CURVE_OFFSET = 408;

/**
 * VirtualPool fields in account order (padding not decoded, written as zeros): volatility tracker padding
 * 16..24, `_padding_0` 371..376, `_padding_1` 378..384, `_padding_2` 400..424.
 */
export const VIRTUAL_POOL_FIELDS = [
  { name: 'lastUpdateTimestamp', kind: 'u64', offset: 8 },
  { name: 'sqrtPriceReference', kind: 'u128', offset: 24 },
  { name: 'volatilityAccumulator', kind: 'u128', offset: 40 },
  { name: 'volatilityReference', kind: 'u128', offset: 56 },
  { name: 'config', kind: 'pubkey', offset: 72 },
  { name: 'creator', kind: 'pubkey', offset: 104 },
  { name: 'baseMint', kind: 'pubkey', offset: 136 },
  { name: 'baseVault', kind: 'pubkey', offset: 168 },
  { name: 'quoteVault', kind: 'pubkey', offset: 200 },
  { name: 'baseReserve', kind: 'u64', offset: 232 },
  { name: 'quoteReserve', kind: 'u64', offset: 240 },
  { name: 'protocolBaseFee', kind: 'u64', offset: 248 },
  { name: 'protocolQuoteFee', kind: 'u64', offset: 256 },
  { name: 'partnerBaseFee', kind: 'u64', offset: 264 },
  { name: 'partnerQuoteFee', kind: 'u64', offset: 272 },
  { name: 'sqrtPrice', kind: 'u128', offset: 280 },
  { name: 'activationPoint', kind: 'u64', offset: 296 },
  { name: 'poolType', kind: 'u8', offset: 304 },
  { name: 'isMigrated', kind: 'u8', offset: 305 },
  { name: 'isPartnerWithdrawSurplus', kind: 'u8', offset: 306 },
  { name: 'isProtocolWithdrawSurplus', kind: 'u8', offset: 307 },
  { name: 'migrationProgress', kind: 'u8', offset: 308 },
  { name: 'isWithdrawLeftover', kind: 'u8', offset: 309 },
  { name: 'isCreatorWithdrawSurplus', kind: 'u8', offset: 310 },
  { name: 'migrationFeeWithdrawStatus', kind: 'u8', offset: 311 },
  { name: 'totalProtocolBaseFee', kind: 'u64', offset: 312 },
  { name: 'totalProtocolQuoteFee', kind: 'u64', offset: 320 },
  { name: 'totalTradingBaseFee', kind: 'u64', offset: 328 },
  { name: 'totalTradingQuoteFee', kind: 'u64', offset: 336 },
  { name: 'finishCurveTimestamp', kind: 'u64', offset: 344 },
  { name: 'creatorBaseFee', kind: 'u64', offset: 352 },
  { name: 'creatorQuoteFee', kind: 'u64', offset: 360 },
  { name: 'legacyCreationFeeBits', kind: 'u8', offset: 368 },
  { name: 'creationFeeBits', kind: 'u8', offset: 369 },
  { name: 'hasSwap', kind: 'u8', offset: 370 },
  { name: 'protocolLiquidityMigrationFeeBps', kind: 'u16', offset: 376 },
  { name: 'protocolMigrationBaseFeeAmount', kind: 'u64', offset: 384 },
  { name: 'protocolMigrationQuoteFeeAmount', kind: 'u64', offset: 392 },
] as const satisfies readonly FieldSpec[];

/**
 * PoolConfig fields in account order, the curve excepted (see {@link decodeCurve}). Not decoded (zeros on
 * encode): base fee padding 131..136, dynamic fee padding 137..144 and 160..168, vesting-info padding,
 * `padding_0`/`padding_1` 216..232, `padding_2` 249..256, locked vesting padding 336..344.
 */
export const POOL_CONFIG_FIELDS = [
  { name: 'quoteMint', kind: 'pubkey', offset: 8 },
  { name: 'feeClaimer', kind: 'pubkey', offset: 40 },
  { name: 'leftoverReceiver', kind: 'pubkey', offset: 72 },
  { name: 'cliffFeeNumerator', kind: 'u64', offset: 104 },
  { name: 'secondFactor', kind: 'u64', offset: 112 },
  { name: 'thirdFactor', kind: 'u64', offset: 120 },
  { name: 'firstFactor', kind: 'u16', offset: 128 },
  { name: 'baseFeeMode', kind: 'u8', offset: 130 },
  { name: 'dynamicFeeInitialized', kind: 'u8', offset: 136 },
  { name: 'maxVolatilityAccumulator', kind: 'u32', offset: 144 },
  { name: 'variableFeeControl', kind: 'u32', offset: 148 },
  { name: 'binStep', kind: 'u16', offset: 152 },
  { name: 'filterPeriod', kind: 'u16', offset: 154 },
  { name: 'decayPeriod', kind: 'u16', offset: 156 },
  { name: 'reductionFactor', kind: 'u16', offset: 158 },
  { name: 'binStepU128', kind: 'u128', offset: 168 },
  { name: 'partnerVestingIsInitialized', kind: 'u8', offset: 184 },
  { name: 'partnerVestingPercentage', kind: 'u8', offset: 185 },
  { name: 'partnerVestingBpsPerPeriod', kind: 'u16', offset: 188 },
  { name: 'partnerVestingNumberOfPeriods', kind: 'u16', offset: 190 },
  { name: 'partnerVestingFrequency', kind: 'u32', offset: 192 },
  { name: 'partnerVestingCliffDuration', kind: 'u32', offset: 196 },
  { name: 'creatorVestingIsInitialized', kind: 'u8', offset: 200 },
  { name: 'creatorVestingPercentage', kind: 'u8', offset: 201 },
  { name: 'creatorVestingBpsPerPeriod', kind: 'u16', offset: 204 },
  { name: 'creatorVestingNumberOfPeriods', kind: 'u16', offset: 206 },
  { name: 'creatorVestingFrequency', kind: 'u32', offset: 208 },
  { name: 'creatorVestingCliffDuration', kind: 'u32', offset: 212 },
  { name: 'collectFeeMode', kind: 'u8', offset: 232 },
  { name: 'migrationOption', kind: 'u8', offset: 233 },
  { name: 'activationType', kind: 'u8', offset: 234 },
  { name: 'tokenDecimal', kind: 'u8', offset: 235 },
  { name: 'version', kind: 'u8', offset: 236 },
  { name: 'tokenType', kind: 'u8', offset: 237 },
  { name: 'quoteTokenFlag', kind: 'u8', offset: 238 },
  { name: 'partnerPermanentLockedLiquidityPercentage', kind: 'u8', offset: 239 },
  { name: 'partnerLiquidityPercentage', kind: 'u8', offset: 240 },
  { name: 'creatorPermanentLockedLiquidityPercentage', kind: 'u8', offset: 241 },
  { name: 'creatorLiquidityPercentage', kind: 'u8', offset: 242 },
  { name: 'migrationFeeOption', kind: 'u8', offset: 243 },
  { name: 'fixedTokenSupplyFlag', kind: 'u8', offset: 244 },
  { name: 'creatorTradingFeePercentage', kind: 'u8', offset: 245 },
  { name: 'tokenUpdateAuthority', kind: 'u8', offset: 246 },
  { name: 'migrationFeePercentage', kind: 'u8', offset: 247 },
  { name: 'creatorMigrationFeePercentage', kind: 'u8', offset: 248 },
  { name: 'swapBaseAmount', kind: 'u64', offset: 256 },
  { name: 'migrationQuoteThreshold', kind: 'u64', offset: 264 },
  { name: 'migrationBaseThreshold', kind: 'u64', offset: 272 },
  { name: 'migrationSqrtPrice', kind: 'u128', offset: 280 },
  { name: 'lockedAmountPerPeriod', kind: 'u64', offset: 296 },
  { name: 'lockedCliffDurationFromMigrationTime', kind: 'u64', offset: 304 },
  { name: 'lockedFrequency', kind: 'u64', offset: 312 },
  { name: 'lockedNumberOfPeriod', kind: 'u64', offset: 320 },
  { name: 'lockedCliffUnlockAmount', kind: 'u64', offset: 328 },
  { name: 'preMigrationTokenSupply', kind: 'u64', offset: 344 },
  { name: 'postMigrationTokenSupply', kind: 'u64', offset: 352 },
  { name: 'migratedCollectFeeMode', kind: 'u8', offset: 360 },
  { name: 'migratedDynamicFee', kind: 'u8', offset: 361 },
  { name: 'migratedPoolFeeBps', kind: 'u16', offset: 362 },
  { name: 'migratedPoolBaseFeeMode', kind: 'u8', offset: 364 },
  { name: 'enableFirstSwapWithMinFee', kind: 'u8', offset: 365 },
  { name: 'migratedCompoundingFeeBps', kind: 'u16', offset: 366 },
  { name: 'poolCreationFee', kind: 'u64', offset: 368 },
  { name: 'sqrtStartPrice', kind: 'u128', offset: 392 },
] as const satisfies readonly FieldSpec[];

/** Decoded VirtualPool: pubkeys as base58, u64/u128 as bigint, u8/u16 as number. */
export type VirtualPoolFields = FieldsOf<typeof VIRTUAL_POOL_FIELDS>;
/** Decoded PoolConfig without the curve. Fee numerators are per 1e9. */
export type PoolConfigFields = FieldsOf<typeof POOL_CONFIG_FIELDS>;

/** One curve point: the segment below `sqrtPrice` (Q64.64) has constant liquidity `liquidity`. */
export interface CurvePoint {
  readonly sqrtPrice: bigint;
  readonly liquidity: bigint;
}

/** A decoded PoolConfig with its curve points (all 20, zeros included: the program walks all of them). */
export interface PoolConfigAccount extends PoolConfigFields {
  curve: CurvePoint[];
}

/** Byte offset of each VirtualPool field by name, for hot-path reads that skip a full decode. */
export const POOL_OFFSET: FieldOffsets<typeof VIRTUAL_POOL_FIELDS> = fieldOffsets(VIRTUAL_POOL_FIELDS);
/** Byte offset of each PoolConfig field by name. */
export const CONFIG_OFFSET: FieldOffsets<typeof POOL_CONFIG_FIELDS> = fieldOffsets(POOL_CONFIG_FIELDS);


/** True when `data` is a DBC VirtualPool account (size and discriminator). */
export function isVirtualPoolAccount(data: Uint8Array): boolean {
  return data.length === VIRTUAL_POOL_SIZE && hasDiscriminator(data, VIRTUAL_POOL_DISCRIMINATOR);
}

/** True when `data` is a DBC PoolConfig account (size and discriminator). */
export function isPoolConfigAccount(data: Uint8Array): boolean {
  return data.length === POOL_CONFIG_SIZE && hasDiscriminator(data, POOL_CONFIG_DISCRIMINATOR);
}

/** Decodes a VirtualPool. Throws EngineError `DBC_BAD_ACCOUNT` if it is not one. */
export function decodeVirtualPool(data: Uint8Array): VirtualPoolFields {
  if (!isVirtualPoolAccount(data)) throw new EngineError('DBC_BAD_ACCOUNT', 'not a Meteora DBC VirtualPool account', { length: data.length });
  return readFields(data, VIRTUAL_POOL_FIELDS);
}

/** Encodes a VirtualPool (424 bytes, discriminator included, padding zeroed). */
export function encodeVirtualPool(fields: VirtualPoolFields): Uint8Array {
  const out = new Uint8Array(VIRTUAL_POOL_SIZE);
  out.set(VIRTUAL_POOL_DISCRIMINATOR, 0);
  writeFields(out, VIRTUAL_POOL_FIELDS, fields);
  return out;
}

/** The 20 curve points of a PoolConfig account, in order (trailing zero points included). */
export function decodeCurve(data: Uint8Array): CurvePoint[] {
  const out: CurvePoint[] = [];
  for (let i = 0; i < CURVE_POINTS; i++) {
    const o = CURVE_OFFSET + 32 * i;
    out.push({ sqrtPrice: readU128(data, o), liquidity: readU128(data, o + 16) });
  }
  return out;
}

/** Decodes a PoolConfig with its curve. Throws EngineError `DBC_BAD_ACCOUNT` if it is not one. */
export function decodePoolConfig(data: Uint8Array): PoolConfigAccount {
  if (!isPoolConfigAccount(data)) throw new EngineError('DBC_BAD_ACCOUNT', 'not a Meteora DBC PoolConfig account', { length: data.length });
  return { ...readFields(data, POOL_CONFIG_FIELDS), curve: decodeCurve(data) };
}

/** Encodes a PoolConfig (1048 bytes); `curve` may hold fewer than 20 points (the rest are zero). */
export function encodePoolConfig(fields: PoolConfigFields & { readonly curve: readonly CurvePoint[] }): Uint8Array {
  if (fields.curve.length > CURVE_POINTS) throw new RangeError(`curve: more than ${CURVE_POINTS} points`);
  const out = new Uint8Array(POOL_CONFIG_SIZE);
  out.set(POOL_CONFIG_DISCRIMINATOR, 0);
  writeFields(out, POOL_CONFIG_FIELDS, fields);
  fields.curve.forEach((p, i) => {
    const max = (1n << 128n) - 1n;
    if (p.sqrtPrice < 0n || p.sqrtPrice > max || p.liquidity < 0n || p.liquidity > max) throw new RangeError(`curve[${i}]: not a u128`);
    writeU128(out, CURVE_OFFSET + 32 * i, p.sqrtPrice);
    writeU128(out, CURVE_OFFSET + 32 * i + 16, p.liquidity);
  });
  return out;
}

/** PDA seed of the pool authority (`const_pda::pool_authority`), owner of every vault. */
export const POOL_AUTHORITY_SEED = 'pool_authority';
/** PDA seed of Anchor's event authority (`#[event_cpi]`). */
export const EVENT_AUTHORITY_SEED = '__event_authority';

let authority: [string, number] | undefined;
let eventAuthorityKey: string | undefined;

/** The pool authority PDA and its bump (computed on first use: no work at import). */
export function poolAuthorityWithBump(): [string, number] {
  if (!authority) {
    const [k, bump] = PublicKey.findProgramAddressSync([new TextEncoder().encode(POOL_AUTHORITY_SEED)], new PublicKey(DBC_PROGRAM_ID));
    authority = [k.toBase58(), bump];
  }
  return authority;
}

/** The pool authority PDA (`FhVo3mqL8PW5pH5U2CN4XE33DokiyZnUwuGpH2hmHLuM` on mainnet), base58. */
export function poolAuthority(): string {
  return poolAuthorityWithBump()[0];
}

/** The event authority PDA of `#[event_cpi]` swaps, base58. */
export function eventAuthority(): string {
  eventAuthorityKey ??= PublicKey.findProgramAddressSync([new TextEncoder().encode(EVENT_AUTHORITY_SEED)], new PublicKey(DBC_PROGRAM_ID))[0].toBase58();
  return eventAuthorityKey;
}
