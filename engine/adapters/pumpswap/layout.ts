/**
 * PumpSwap account layouts: Pool (Borsh; live sizes 211/243/244/245/261/270/300 B), GlobalConfig (949 B, older
 * 907/940 B) and the pump-fees FeeConfig (Borsh with two vectors; versions 2512/4073/4097 B), as ordered field
 * tables with constant offsets. The program is closed source: the reference is the IDL and the versioned
 * decoders of `@pump-fun/pump-swap-sdk@1.20.0`, cross-checked in `layout.test.ts`.
 */
import { EngineError } from '../../errors.js';
import { type FieldOffsets, type FieldSpec, type FieldsOf, fieldOffsets, lastEnd, readFields, readU128, writeFields, hasDiscriminator } from '../common/field-table.js';

/** The PumpSwap AMM program id (mainnet). */
export const PUMPSWAP_PROGRAM_ID = 'pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA';
/** The pump-fees program (owner of the FeeConfig). */
export const PUMP_FEES_PROGRAM_ID = 'pfeeUxB6jkeY1Hxd7CsFCAjcbHA9rWtchMGdZ6VojVZ';
/** The pump.fun bonding-curve program (its `pool-authority` PDA creates canonical pools). */
export const PUMP_PROGRAM_ID = '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P';

/** sha256("account:Pool")[0..8]; shared with Meteora DAMM v1/v2, so the owner check matters. */
export const POOL_DISCRIMINATOR: Uint8Array = Uint8Array.of(241, 154, 109, 4, 17, 177, 109, 188);
/** sha256("account:GlobalConfig")[0..8]. */
export const GLOBAL_CONFIG_DISCRIMINATOR: Uint8Array = Uint8Array.of(149, 8, 156, 202, 160, 252, 176, 217);
/** sha256("account:FeeConfig")[0..8]. */
export const FEE_CONFIG_DISCRIMINATOR: Uint8Array = Uint8Array.of(143, 52, 146, 187, 219, 123, 76, 155);

/** Pool sizes seen on mainnet: before coin_creator, + coin_creator, + mayhem, + cashback, + virtual reserves, current, extended. */
export const POOL_LIVE_SIZES: readonly number[] = [211, 243, 244, 245, 261, 270, 300];
/** Smallest Pool the program reads (everything up to lp_supply). */
export const POOL_MIN_SIZE = 211;
/** Serialized size of the current Pool layout (`Pool::SIZE`). */
export const POOL_SIZE = 270;
/** Size `extend_account` grows a pool to. */
export const POOL_EXTENDED_SIZE = 300;
/** Serialized size of the current GlobalConfig layout. */
export const GLOBAL_CONFIG_SIZE = 949;
/** Smallest GlobalConfig accepted: through the protocol fee recipients and the coin-creator fee. */
export const GLOBAL_CONFIG_MIN_SIZE = 321;
/** FeeConfig versions: fee tiers only, + stable fee tiers, + exotic flat fees. */
export const FEE_CONFIG_SIZE_PRE_STABLE = 2512;
export const FEE_CONFIG_SIZE_POST_STABLE = 4073;
export const FEE_CONFIG_SIZE_POST_EXOTIC = 4097;

/** Pool fields in account order; a field past the end of an older account reads as zero. */
export const POOL_FIELDS = [
  { name: 'poolBump', kind: 'u8', offset: 8 },
  { name: 'index', kind: 'u16', offset: 9 },
  { name: 'creator', kind: 'pubkey', offset: 11 },
  { name: 'baseMint', kind: 'pubkey', offset: 43 },
  { name: 'quoteMint', kind: 'pubkey', offset: 75 },
  { name: 'lpMint', kind: 'pubkey', offset: 107 },
  { name: 'poolBaseTokenAccount', kind: 'pubkey', offset: 139 },
  { name: 'poolQuoteTokenAccount', kind: 'pubkey', offset: 171 },
  { name: 'lpSupply', kind: 'u64', offset: 203 },
  { name: 'coinCreator', kind: 'pubkey', offset: 211 },
  { name: 'isMayhemMode', kind: 'bool', offset: 243 },
  { name: 'isCashbackCoin', kind: 'bool', offset: 244 },
  { name: 'virtualQuoteReserves', kind: 'i128', offset: 245 },
  { name: 'creatorFeeBps', kind: 'u64', offset: 261 },
  { name: 'canEditCreatorFee', kind: 'bool', offset: 269 },
] as const satisfies readonly FieldSpec[];

/** GlobalConfig fields in account order (disable_flags: bit 3 buy, bit 4 sell). */
export const GLOBAL_CONFIG_FIELDS = [
  { name: 'admin', kind: 'pubkey', offset: 8 },
  { name: 'lpFeeBasisPoints', kind: 'u64', offset: 40 },
  { name: 'protocolFeeBasisPoints', kind: 'u64', offset: 48 },
  { name: 'disableFlags', kind: 'u8', offset: 56 },
  { name: 'protocolFeeRecipients', kind: 'pubkey8', offset: 57 },
  { name: 'coinCreatorFeeBasisPoints', kind: 'u64', offset: 313 },
  { name: 'adminSetCoinCreatorAuthority', kind: 'pubkey', offset: 321 },
  { name: 'whitelistPda', kind: 'pubkey', offset: 353 },
  { name: 'reservedFeeRecipient', kind: 'pubkey', offset: 385 },
  { name: 'mayhemModeEnabled', kind: 'bool', offset: 417 },
  { name: 'reservedFeeRecipients', kind: 'pubkey7', offset: 418 },
  { name: 'isCashbackEnabled', kind: 'bool', offset: 642 },
  { name: 'buybackFeeRecipients', kind: 'pubkey8', offset: 643 },
  { name: 'buybackBasisPoints', kind: 'u64', offset: 899 },
  { name: 'boostAuthority', kind: 'pubkey', offset: 907 },
  { name: 'boostEnabled', kind: 'bool', offset: 939 },
  { name: 'creatorFeeConfigurable', kind: 'bool', offset: 940 },
  { name: 'maxConfigurableCreatorFeeBps', kind: 'u64', offset: 941 },
] as const satisfies readonly FieldSpec[];

/** GlobalConfig disable bit: buys disabled. */
export const DISABLE_BUY = 1 << 3;
/** GlobalConfig disable bit: sells disabled. */
export const DISABLE_SELL = 1 << 4;

/** Decoded Pool (pubkeys base58, u64/i128 bigint). */
export type PoolFields = FieldsOf<typeof POOL_FIELDS>;
/** Decoded GlobalConfig. */
export type GlobalConfigFields = FieldsOf<typeof GLOBAL_CONFIG_FIELDS>;

/** The three fee rates of a schedule, in basis points. */
export interface FeesBps {
  readonly lpFeeBps: bigint;
  readonly protocolFeeBps: bigint;
  readonly creatorFeeBps: bigint;
}

/** One market-cap tier: applies from `marketCapThreshold` (u128, quote atoms) upwards. */
export interface FeeTier {
  readonly marketCapThreshold: bigint;
  readonly fees: FeesBps;
}

/** Decoded pump-fees FeeConfig, as the version its length selects has it. */
export interface FeeConfigFields {
  bump: number;
  admin: string;
  flatFees: FeesBps;
  feeTiers: FeeTier[];
  /** Empty before the 4073-byte version. */
  stableFeeTiers: FeeTier[];
  /** All zero (unset) before the 4097-byte version. */
  exoticFlatFees: FeesBps;
}

/** Byte offset of each Pool field by name. */
export const POOL_OFFSET: FieldOffsets<typeof POOL_FIELDS> = fieldOffsets(POOL_FIELDS);
/** Byte offset of each GlobalConfig field by name. */
export const GLOBAL_CONFIG_OFFSET: FieldOffsets<typeof GLOBAL_CONFIG_FIELDS> = fieldOffsets(GLOBAL_CONFIG_FIELDS);


/** True when `data` (owned by the PumpSwap program) is a Pool: discriminator and at least the oldest size. */
export function isPoolAccount(data: Uint8Array): boolean {
  return data.length >= POOL_MIN_SIZE && hasDiscriminator(data, POOL_DISCRIMINATOR);
}

/** True when `data` is a GlobalConfig (discriminator and a size the program reads). */
export function isGlobalConfigAccount(data: Uint8Array): boolean {
  return data.length >= GLOBAL_CONFIG_MIN_SIZE && hasDiscriminator(data, GLOBAL_CONFIG_DISCRIMINATOR);
}

/** True when `data` is a pump-fees FeeConfig of a known version whose vectors fit its length. */
export function isFeeConfigAccount(data: Uint8Array): boolean {
  if (data.length < FEE_CONFIG_SIZE_PRE_STABLE || !hasDiscriminator(data, FEE_CONFIG_DISCRIMINATOR)) return false;
  try {
    decodeFeeConfigUnchecked(data);
    return true;
  } catch {
    return false;
  }
}

/** Decodes a Pool of any live size (missing trailing fields read as zero). Throws EngineError `PUMPSWAP_BAD_ACCOUNT`. */
export function decodePoolAccount(data: Uint8Array): PoolFields {
  if (!isPoolAccount(data)) throw new EngineError('PUMPSWAP_BAD_ACCOUNT', 'not a PumpSwap Pool account', { length: data.length });
  return readFields(data, POOL_FIELDS);
}

/** Encodes a Pool of `size` bytes (270 current; 211..300 for older or extended accounts). */
export function encodePoolAccount(fields: PoolFields, size = POOL_SIZE): Uint8Array {
  const out = new Uint8Array(size);
  out.set(POOL_DISCRIMINATOR, 0);
  writeFields(out, POOL_FIELDS, fields);
  return out;
}

/** Decodes a GlobalConfig (older, shorter accounts read their missing fields as zero). */
export function decodeGlobalConfig(data: Uint8Array): GlobalConfigFields {
  if (!isGlobalConfigAccount(data)) throw new EngineError('PUMPSWAP_BAD_ACCOUNT', 'not a PumpSwap GlobalConfig account', { length: data.length });
  return readFields(data, GLOBAL_CONFIG_FIELDS);
}

/** Encodes a GlobalConfig (949 bytes unless `size` asks for an older, shorter one). */
export function encodeGlobalConfig(fields: GlobalConfigFields, size = GLOBAL_CONFIG_SIZE): Uint8Array {
  const out = new Uint8Array(size);
  out.set(GLOBAL_CONFIG_DISCRIMINATOR, 0);
  writeFields(out, GLOBAL_CONFIG_FIELDS, fields);
  return out;
}

/** Offset of `fee_tiers` in the FeeConfig: discriminator, bump, admin, flat_fees. */
export const FEE_CONFIG_TIERS_OFFSET = 8 + 1 + 32 + 24;
const FEES_SIZE = 24;
const FEE_TIER_SIZE = 16 + FEES_SIZE;
const ZERO_FEES: FeesBps = { lpFeeBps: 0n, protocolFeeBps: 0n, creatorFeeBps: 0n };

function readFees(dv: DataView, o: number): FeesBps {
  return { lpFeeBps: dv.getBigUint64(o, true), protocolFeeBps: dv.getBigUint64(o + 8, true), creatorFeeBps: dv.getBigUint64(o + 16, true) };
}

function readTiers(data: Uint8Array, dv: DataView, o: number): [FeeTier[], number] {
  if (o + 4 > data.length) throw new RangeError('fee tier vector length past the account');
  const n = dv.getUint32(o, true);
  const end = o + 4 + n * FEE_TIER_SIZE;
  if (end > data.length) throw new RangeError('fee tier vector past the account');
  const tiers: FeeTier[] = [];
  for (let i = 0; i < n; i++) {
    const t = o + 4 + i * FEE_TIER_SIZE;
    tiers.push({ marketCapThreshold: readU128(data, t), fees: readFees(dv, t + 16) });
  }
  return [tiers, end];
}

function decodeFeeConfigUnchecked(data: Uint8Array): FeeConfigFields {
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const [feeTiers, end1] = readTiers(data, dv, FEE_CONFIG_TIERS_OFFSET);
  let stableFeeTiers: FeeTier[] = [];
  let end = end1;
  // The account length selects the version (FeeConfig::deserialize_versioned): shorter ones lack later fields.
  if (data.length >= FEE_CONFIG_SIZE_POST_STABLE) [stableFeeTiers, end] = readTiers(data, dv, end1);
  let exoticFlatFees = ZERO_FEES;
  if (data.length >= FEE_CONFIG_SIZE_POST_EXOTIC) {
    if (end + FEES_SIZE > data.length) throw new RangeError('exotic flat fees past the account');
    exoticFlatFees = readFees(dv, end);
  }
  return {
    bump: data[8]!,
    admin: readFields(data, [{ name: 'admin', kind: 'pubkey', offset: 9 }] as const).admin,
    flatFees: readFees(dv, 41),
    feeTiers,
    stableFeeTiers,
    exoticFlatFees,
  };
}

/** Decodes a FeeConfig as the version its length selects. Throws EngineError `PUMPSWAP_BAD_ACCOUNT`. */
export function decodeFeeConfig(data: Uint8Array): FeeConfigFields {
  if (data.length < FEE_CONFIG_SIZE_PRE_STABLE || !hasDiscriminator(data, FEE_CONFIG_DISCRIMINATOR)) {
    throw new EngineError('PUMPSWAP_BAD_ACCOUNT', 'not a pump-fees FeeConfig account', { length: data.length });
  }
  try {
    return decodeFeeConfigUnchecked(data);
  } catch (e) {
    throw new EngineError('PUMPSWAP_BAD_ACCOUNT', 'FeeConfig vectors run past the account', { length: data.length, reason: String(e) });
  }
}

function writeFees(dv: DataView, o: number, f: FeesBps): void {
  dv.setBigUint64(o, f.lpFeeBps, true);
  dv.setBigUint64(o + 8, f.protocolFeeBps, true);
  dv.setBigUint64(o + 16, f.creatorFeeBps, true);
}

function writeTiers(dv: DataView, o: number, tiers: readonly FeeTier[]): number {
  dv.setUint32(o, tiers.length, true);
  tiers.forEach((t, i) => {
    const at = o + 4 + i * FEE_TIER_SIZE;
    dv.setBigUint64(at, t.marketCapThreshold & 0xffff_ffff_ffff_ffffn, true);
    dv.setBigUint64(at + 8, t.marketCapThreshold >> 64n, true);
    writeFees(dv, at + 16, t.fees);
  });
  return o + 4 + tiers.length * FEE_TIER_SIZE;
}

/**
 * Encodes a FeeConfig of one of the three version sizes (default the newest); the fields a version lacks are not
 * written and the rest of the account is zero. Throws RangeError when the vectors do not fit.
 */
export function encodeFeeConfig(f: FeeConfigFields, size = FEE_CONFIG_SIZE_POST_EXOTIC): Uint8Array {
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  out.set(FEE_CONFIG_DISCRIMINATOR, 0);
  out[8] = f.bump;
  writeFields(out, [{ name: 'admin', kind: 'pubkey', offset: 9 }] as const, { admin: f.admin });
  writeFees(dv, 41, f.flatFees);
  const need = FEE_CONFIG_TIERS_OFFSET + 4 + f.feeTiers.length * FEE_TIER_SIZE
    + (size >= FEE_CONFIG_SIZE_POST_STABLE ? 4 + f.stableFeeTiers.length * FEE_TIER_SIZE : 0)
    + (size >= FEE_CONFIG_SIZE_POST_EXOTIC ? FEES_SIZE : 0);
  if (need > size) throw new RangeError(`FeeConfig needs ${need} bytes, account has ${size}`);
  let end = writeTiers(dv, FEE_CONFIG_TIERS_OFFSET, f.feeTiers);
  if (size >= FEE_CONFIG_SIZE_POST_STABLE) end = writeTiers(dv, end, f.stableFeeTiers);
  if (size >= FEE_CONFIG_SIZE_POST_EXOTIC) writeFees(dv, end, f.exoticFlatFees);
  return out;
}

/** Size of the current Pool layout, for tests: the field table ends exactly there. */
export const POOL_FIELDS_END = lastEnd(POOL_FIELDS);
