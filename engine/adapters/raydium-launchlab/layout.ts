/**
 * Raydium LaunchLab account layouts: PoolState (429 B), GlobalConfig (371 B) and PlatformConfig (944 B in the
 * SDK, variable on chain), as ordered field tables with constant offsets. The program source is not public: the
 * reference is the SDK's `LaunchpadPool`, `LaunchpadConfig` and `PlatformConfig` layouts (cross-checked in
 * `layout.test.ts`) and the program's published IDL (field meanings, discriminators).
 */
import { EngineError } from '../../errors.js';
import { type FieldOffsets, type FieldSpec, type FieldsOf, fieldOffsets, readFields, writeFields, hasDiscriminator } from '../common/field-table.js';

/** The LaunchLab program id (mainnet). */
export const LAUNCHLAB_PROGRAM_ID = 'LanMV9sAd7wArD4vJFi2qDdfnVhFxYSUg6eADduJ3uj';

/** Anchor discriminator of PoolState, sha256("account:PoolState")[0..8] (shared with CPMM and CLMM: check the owner). */
export const POOL_STATE_DISCRIMINATOR: Uint8Array = Uint8Array.of(0xf7, 0xed, 0xe3, 0xf5, 0xd7, 0xc3, 0xde, 0x46);
/** Anchor discriminator of GlobalConfig, sha256("account:GlobalConfig")[0..8]. */
export const GLOBAL_CONFIG_DISCRIMINATOR: Uint8Array = Uint8Array.of(0x95, 0x08, 0x9c, 0xca, 0xa0, 0xfc, 0xb0, 0xd9);
/** Anchor discriminator of PlatformConfig, sha256("account:PlatformConfig")[0..8]. */
export const PLATFORM_CONFIG_DISCRIMINATOR: Uint8Array = Uint8Array.of(0xa0, 0x4e, 0x80, 0x00, 0xf8, 0x53, 0xe6, 0xa0);

/** Account size of PoolState. */
export const POOL_STATE_SIZE = 429;
/** Account size of GlobalConfig. */
export const GLOBAL_CONFIG_SIZE = 371;
/** Size of PlatformConfig as the SDK lays it out (the account may be larger: it ends in a Vec of curve params). */
export const PLATFORM_CONFIG_SIZE = 944;
/** Smallest PlatformConfig that carries `fee_rate` (older accounts end earlier). */
export const PLATFORM_CONFIG_MIN_SIZE = 112;
/** Smallest PlatformConfig that carries `creator_fee_rate`; shorter ones charge no creator fee. */
export const PLATFORM_CONFIG_CREATOR_FEE_END = 728;

/** PoolState `status`: the curve is trading (the only quotable state). */
export const POOL_STATUS_FUND = 0;
/** PoolState `status`: the curve is full, waiting for migration. */
export const POOL_STATUS_MIGRATE = 1;
/** PoolState `status`: migrated to an AMM. */
export const POOL_STATUS_TRADE = 2;

/** GlobalConfig `curve_type` values. */
export const CURVE_CONSTANT_PRODUCT = 0;
/** Fixed price: virtual_b / virtual_a is the price. */
export const CURVE_FIXED_PRICE = 1;
/** Linear price: virtual_a is the slope (Q64.64 per atom), virtual_b unused. */
export const CURVE_LINEAR_PRICE = 2;

/** PoolState fields in account order; padding 375..429 is not decoded (encode writes zeros). */
export const POOL_STATE_FIELDS = [
  { name: 'epoch', kind: 'u64', offset: 8 },
  { name: 'bump', kind: 'u8', offset: 16 },
  { name: 'status', kind: 'u8', offset: 17 },
  { name: 'mintDecimalsA', kind: 'u8', offset: 18 },
  { name: 'mintDecimalsB', kind: 'u8', offset: 19 },
  { name: 'migrateType', kind: 'u8', offset: 20 },
  { name: 'supply', kind: 'u64', offset: 21 },
  { name: 'totalSellA', kind: 'u64', offset: 29 },
  { name: 'virtualA', kind: 'u64', offset: 37 },
  { name: 'virtualB', kind: 'u64', offset: 45 },
  { name: 'realA', kind: 'u64', offset: 53 },
  { name: 'realB', kind: 'u64', offset: 61 },
  { name: 'totalFundRaisingB', kind: 'u64', offset: 69 },
  { name: 'protocolFee', kind: 'u64', offset: 77 },
  { name: 'platformFee', kind: 'u64', offset: 85 },
  { name: 'migrateFee', kind: 'u64', offset: 93 },
  { name: 'vestingTotalLockedAmount', kind: 'u64', offset: 101 },
  { name: 'vestingCliffPeriod', kind: 'u64', offset: 109 },
  { name: 'vestingUnlockPeriod', kind: 'u64', offset: 117 },
  { name: 'vestingStartTime', kind: 'u64', offset: 125 },
  { name: 'vestingAllocatedShareAmount', kind: 'u64', offset: 133 },
  { name: 'globalConfig', kind: 'pubkey', offset: 141 },
  { name: 'platformConfig', kind: 'pubkey', offset: 173 },
  { name: 'mintA', kind: 'pubkey', offset: 205 },
  { name: 'mintB', kind: 'pubkey', offset: 237 },
  { name: 'vaultA', kind: 'pubkey', offset: 269 },
  { name: 'vaultB', kind: 'pubkey', offset: 301 },
  { name: 'creator', kind: 'pubkey', offset: 333 },
  { name: 'mintProgramFlag', kind: 'u8', offset: 365 },
  { name: 'cpmmCreatorFeeOn', kind: 'u8', offset: 366 },
  { name: 'platformVestingShare', kind: 'u64', offset: 367 },
] as const satisfies readonly FieldSpec[];

/** GlobalConfig fields in account order; padding 243..371 is not decoded. Rates are per 1e6. */
export const GLOBAL_CONFIG_FIELDS = [
  { name: 'epoch', kind: 'u64', offset: 8 },
  { name: 'curveType', kind: 'u8', offset: 16 },
  { name: 'index', kind: 'u16', offset: 17 },
  { name: 'migrateFee', kind: 'u64', offset: 19 },
  { name: 'tradeFeeRate', kind: 'u64', offset: 27 },
  { name: 'maxShareFeeRate', kind: 'u64', offset: 35 },
  { name: 'minSupplyA', kind: 'u64', offset: 43 },
  { name: 'maxLockRate', kind: 'u64', offset: 51 },
  { name: 'minSellRateA', kind: 'u64', offset: 59 },
  { name: 'minMigrateRateA', kind: 'u64', offset: 67 },
  { name: 'minFundRaisingB', kind: 'u64', offset: 75 },
  { name: 'mintB', kind: 'pubkey', offset: 83 },
  { name: 'protocolFeeOwner', kind: 'pubkey', offset: 115 },
  { name: 'migrateFeeOwner', kind: 'pubkey', offset: 147 },
  { name: 'migrateToAmmWallet', kind: 'pubkey', offset: 179 },
  { name: 'migrateToCpmmWallet', kind: 'pubkey', offset: 211 },
] as const satisfies readonly FieldSpec[];

/**
 * PlatformConfig fields in account order. Gaps: `name` [u8; 64], `web` [u8; 256], `img` [u8; 256] at
 * 112..688 and padding 866..944 are not decoded (encode writes zeros).
 */
export const PLATFORM_CONFIG_FIELDS = [
  { name: 'epoch', kind: 'u64', offset: 8 },
  { name: 'platformClaimFeeWallet', kind: 'pubkey', offset: 16 },
  { name: 'platformLockNftWallet', kind: 'pubkey', offset: 48 },
  { name: 'platformScale', kind: 'u64', offset: 80 },
  { name: 'creatorScale', kind: 'u64', offset: 88 },
  { name: 'burnScale', kind: 'u64', offset: 96 },
  { name: 'feeRate', kind: 'u64', offset: 104 },
  { name: 'cpConfigId', kind: 'pubkey', offset: 688 },
  { name: 'creatorFeeRate', kind: 'u64', offset: 720 },
  { name: 'transferFeeExtensionAuth', kind: 'pubkey', offset: 728 },
  { name: 'platformVestingWallet', kind: 'pubkey', offset: 760 },
  { name: 'platformVestingScale', kind: 'u64', offset: 792 },
  { name: 'platformCpCreator', kind: 'pubkey', offset: 800 },
  { name: 'restrictGlobalConfig', kind: 'u8', offset: 832 },
  { name: 'restrictCurveParam', kind: 'u8', offset: 833 },
  { name: 'curveRuleManager', kind: 'pubkey', offset: 834 },
] as const satisfies readonly FieldSpec[];

/** Decoded PoolState (pubkeys base58, u64 bigint). */
export type LaunchlabPoolFields = FieldsOf<typeof POOL_STATE_FIELDS>;
/** Decoded GlobalConfig. */
export type GlobalConfigFields = FieldsOf<typeof GLOBAL_CONFIG_FIELDS>;
/** Decoded PlatformConfig (the SDK's 944-byte layout). */
export type PlatformConfigFields = FieldsOf<typeof PLATFORM_CONFIG_FIELDS>;

/** Byte offset of each PoolState field, for hot-path reads without a full decode. */
export const POOL_OFFSET: FieldOffsets<typeof POOL_STATE_FIELDS> = fieldOffsets(POOL_STATE_FIELDS);
/** Byte offset of each GlobalConfig field. */
export const GLOBAL_CONFIG_OFFSET: FieldOffsets<typeof GLOBAL_CONFIG_FIELDS> = fieldOffsets(GLOBAL_CONFIG_FIELDS);
/** Byte offset of each PlatformConfig field. */
export const PLATFORM_CONFIG_OFFSET: FieldOffsets<typeof PLATFORM_CONFIG_FIELDS> = fieldOffsets(PLATFORM_CONFIG_FIELDS);


/** True when `data` (owned by the LaunchLab program) is a PoolState (size and discriminator). */
export function isLaunchlabPoolAccount(data: Uint8Array): boolean {
  return data.length === POOL_STATE_SIZE && hasDiscriminator(data, POOL_STATE_DISCRIMINATOR);
}

/** True when `data` is a GlobalConfig (size and discriminator). */
export function isGlobalConfigAccount(data: Uint8Array): boolean {
  return data.length === GLOBAL_CONFIG_SIZE && hasDiscriminator(data, GLOBAL_CONFIG_DISCRIMINATOR);
}

/** True when `data` is a PlatformConfig: discriminator, and long enough to carry `fee_rate` (gated on size). */
export function isPlatformConfigAccount(data: Uint8Array): boolean {
  return data.length >= PLATFORM_CONFIG_MIN_SIZE && hasDiscriminator(data, PLATFORM_CONFIG_DISCRIMINATOR);
}

function bad(what: string, length: number): EngineError {
  return new EngineError('LAUNCHLAB_BAD_ACCOUNT', `not a Raydium LaunchLab ${what} account`, { length });
}

/** Decodes a PoolState. Throws EngineError `LAUNCHLAB_BAD_ACCOUNT` if it is not one. */
export function decodeLaunchlabPool(data: Uint8Array): LaunchlabPoolFields {
  if (!isLaunchlabPoolAccount(data)) throw bad('PoolState', data.length);
  return readFields(data, POOL_STATE_FIELDS);
}

/** Encodes a PoolState (429 bytes, discriminator included, padding zeroed). */
export function encodeLaunchlabPool(fields: LaunchlabPoolFields): Uint8Array {
  const out = new Uint8Array(POOL_STATE_SIZE);
  out.set(POOL_STATE_DISCRIMINATOR, 0);
  writeFields(out, POOL_STATE_FIELDS, fields);
  return out;
}

/** Decodes a GlobalConfig. Throws EngineError `LAUNCHLAB_BAD_ACCOUNT` if it is not one. */
export function decodeGlobalConfig(data: Uint8Array): GlobalConfigFields {
  if (!isGlobalConfigAccount(data)) throw bad('GlobalConfig', data.length);
  return readFields(data, GLOBAL_CONFIG_FIELDS);
}

/** Encodes a GlobalConfig (371 bytes). */
export function encodeGlobalConfig(fields: GlobalConfigFields): Uint8Array {
  const out = new Uint8Array(GLOBAL_CONFIG_SIZE);
  out.set(GLOBAL_CONFIG_DISCRIMINATOR, 0);
  writeFields(out, GLOBAL_CONFIG_FIELDS, fields);
  return out;
}

/**
 * Decodes a PlatformConfig of at least {@link PLATFORM_CONFIG_SIZE} bytes (the SDK's layout). Throws EngineError
 * `LAUNCHLAB_BAD_ACCOUNT` otherwise; the state builder reads shorter accounts by offset, gated on size.
 */
export function decodePlatformConfig(data: Uint8Array): PlatformConfigFields {
  if (!isPlatformConfigAccount(data) || data.length < PLATFORM_CONFIG_SIZE) throw bad('PlatformConfig', data.length);
  return readFields(data, PLATFORM_CONFIG_FIELDS);
}

/** Encodes a PlatformConfig (944 bytes; name, web and img left empty). */
export function encodePlatformConfig(fields: PlatformConfigFields): Uint8Array {
  const out = new Uint8Array(PLATFORM_CONFIG_SIZE);
  out.set(PLATFORM_CONFIG_DISCRIMINATOR, 0);
  writeFields(out, PLATFORM_CONFIG_FIELDS, fields);
  return out;
}
