/**
 * Orca Whirlpool account layouts: the Whirlpool (653 B), the adaptive-fee Oracle (254 B), the FixedTickArray
 * (9,988 B) and the DynamicTickArray (148-10,004 B, ticks of 1 or 113 bytes, walked in order). Field tables with
 * constant offsets for the fixed accounts (codec: `../common/field-table.ts`); tick arrays decode to what the
 * quote reads (`TickArrayTicks`: the initialized bitmap and each tick's liquidity_net). Source of truth:
 * orca-so/whirlpools `programs/whirlpool/src/state/{whirlpool,oracle,fixed_tick_array,dynamic_tick_array}.rs`;
 * cross-checked against `@orca-so/whirlpools-client`'s codecs in `layout.test.ts`.
 */
import { EngineError } from '../../errors.js';
import {
  type FieldOffsets, type FieldSpec, type FieldsOf, fieldOffsets, hasDiscriminator, readFields, readI128, writeFields,
} from '../common/field-table.js';
import { pubkeyAt } from '../common/pubkey-text.js';
import { TICK_ARRAY_SIZE } from './tick-math.js';
import type { TickArrayTicks } from './tick-source.js';

/** The Whirlpool program id (mainnet). */
export const WHIRLPOOL_PROGRAM_ID = 'whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc';

/** Anchor discriminators: sha256("account:<Name>")[0..8]. */
export const WHIRLPOOL_DISCRIMINATOR: Uint8Array = Uint8Array.of(0x3f, 0x95, 0xd1, 0x0c, 0xe1, 0x80, 0x63, 0x09);
export const FIXED_TICK_ARRAY_DISCRIMINATOR: Uint8Array = Uint8Array.of(0x45, 0x61, 0xbd, 0xbe, 0x6e, 0x07, 0x42, 0xbb);
export const DYNAMIC_TICK_ARRAY_DISCRIMINATOR: Uint8Array = Uint8Array.of(0x11, 0xd8, 0xf6, 0x8e, 0xe1, 0xc7, 0xda, 0x38);
export const ORACLE_DISCRIMINATOR: Uint8Array = Uint8Array.of(0x8b, 0xc2, 0x83, 0xb3, 0x8c, 0xb3, 0xe5, 0xf4);

/** Account sizes. */
export const WHIRLPOOL_SIZE = 653;
export const ORACLE_SIZE = 254;
export const FIXED_TICK_ARRAY_SIZE = 9988;
/** Bytes of one initialized tick: tag or initialized u8, liquidity_net i128, liquidity_gross u128, fee growth A and B, 3 reward growths (u128 each). */
export const FIXED_TICK_SIZE = 113;
/** A dynamic array's header (discriminator, start, whirlpool, tick bitmap) and its size bounds. */
export const DYNAMIC_TICK_ARRAY_HEADER = 60;
export const DYNAMIC_TICK_ARRAY_MIN_SIZE = DYNAMIC_TICK_ARRAY_HEADER + TICK_ARRAY_SIZE;
export const DYNAMIC_TICK_ARRAY_MAX_SIZE = DYNAMIC_TICK_ARRAY_HEADER + TICK_ARRAY_SIZE * FIXED_TICK_SIZE;

/**
 * Whirlpool fields in account order, the whole account (encode writes every byte). `fee_tier_index_seed` is
 * `[u8; 2]` in the program, read here as its u16 (little-endian) value: a pool has the adaptive fee exactly when it
 * differs from `tick_spacing`. The three reward infos (128 bytes each from 269) are flattened; `extension` is the
 * program's repurposed authority slot (reward 1's holds the pool's control flags).
 */
export const WHIRLPOOL_FIELDS = [
  { name: 'whirlpoolsConfig', kind: 'pubkey', offset: 8 },
  { name: 'whirlpoolBump', kind: 'u8', offset: 40 },
  { name: 'tickSpacing', kind: 'u16', offset: 41 },
  { name: 'feeTierIndexSeed', kind: 'u16', offset: 43 },
  { name: 'feeRate', kind: 'u16', offset: 45 },
  { name: 'protocolFeeRate', kind: 'u16', offset: 47 },
  { name: 'liquidity', kind: 'u128', offset: 49 },
  { name: 'sqrtPrice', kind: 'u128', offset: 65 },
  { name: 'tickCurrentIndex', kind: 'i32', offset: 81 },
  { name: 'protocolFeeOwedA', kind: 'u64', offset: 85 },
  { name: 'protocolFeeOwedB', kind: 'u64', offset: 93 },
  { name: 'tokenMintA', kind: 'pubkey', offset: 101 },
  { name: 'tokenVaultA', kind: 'pubkey', offset: 133 },
  { name: 'feeGrowthGlobalA', kind: 'u128', offset: 165 },
  { name: 'tokenMintB', kind: 'pubkey', offset: 181 },
  { name: 'tokenVaultB', kind: 'pubkey', offset: 213 },
  { name: 'feeGrowthGlobalB', kind: 'u128', offset: 245 },
  { name: 'rewardLastUpdatedTimestamp', kind: 'u64', offset: 261 },
  { name: 'reward0Mint', kind: 'pubkey', offset: 269 },
  { name: 'reward0Vault', kind: 'pubkey', offset: 301 },
  { name: 'reward0Extension', kind: 'pubkey', offset: 333 },
  { name: 'reward0EmissionsPerSecondX64', kind: 'u128', offset: 365 },
  { name: 'reward0GrowthGlobalX64', kind: 'u128', offset: 381 },
  { name: 'reward1Mint', kind: 'pubkey', offset: 397 },
  { name: 'reward1Vault', kind: 'pubkey', offset: 429 },
  { name: 'reward1Extension', kind: 'pubkey', offset: 461 },
  { name: 'reward1EmissionsPerSecondX64', kind: 'u128', offset: 493 },
  { name: 'reward1GrowthGlobalX64', kind: 'u128', offset: 509 },
  { name: 'reward2Mint', kind: 'pubkey', offset: 525 },
  { name: 'reward2Vault', kind: 'pubkey', offset: 557 },
  { name: 'reward2Extension', kind: 'pubkey', offset: 589 },
  { name: 'reward2EmissionsPerSecondX64', kind: 'u128', offset: 621 },
  { name: 'reward2GrowthGlobalX64', kind: 'u128', offset: 637 },
] as const satisfies readonly FieldSpec[];

/**
 * Oracle fields in account order: the whirlpool, the trade-enable time, the adaptive fee constants (48..66,
 * 16 reserved bytes after them) and variables (82..110, 16 reserved bytes after them); 128 reserved bytes close it.
 */
export const ORACLE_FIELDS = [
  { name: 'whirlpool', kind: 'pubkey', offset: 8 },
  { name: 'tradeEnableTimestamp', kind: 'u64', offset: 40 },
  { name: 'filterPeriod', kind: 'u16', offset: 48 },
  { name: 'decayPeriod', kind: 'u16', offset: 50 },
  { name: 'reductionFactor', kind: 'u16', offset: 52 },
  { name: 'adaptiveFeeControlFactor', kind: 'u32', offset: 54 },
  { name: 'maxVolatilityAccumulator', kind: 'u32', offset: 58 },
  { name: 'tickGroupSize', kind: 'u16', offset: 62 },
  { name: 'majorSwapThresholdTicks', kind: 'u16', offset: 64 },
  { name: 'lastReferenceUpdateTimestamp', kind: 'u64', offset: 82 },
  { name: 'lastMajorSwapTimestamp', kind: 'u64', offset: 90 },
  { name: 'volatilityReference', kind: 'u32', offset: 98 },
  { name: 'tickGroupIndexReference', kind: 'i32', offset: 102 },
  { name: 'volatilityAccumulator', kind: 'u32', offset: 106 },
] as const satisfies readonly FieldSpec[];

/** Decoded Whirlpool: keys as base58, u64/u128 as bigint. */
export type WhirlpoolFields = FieldsOf<typeof WHIRLPOOL_FIELDS>;
/** Decoded Oracle. */
export type OracleFields = FieldsOf<typeof ORACLE_FIELDS>;

/** Byte offset of each Whirlpool field by name (hot-path reads). */
export const WHIRLPOOL_OFFSET: FieldOffsets<typeof WHIRLPOOL_FIELDS> = fieldOffsets(WHIRLPOOL_FIELDS);
/** Byte offset of each Oracle field by name. */
export const ORACLE_OFFSET: FieldOffsets<typeof ORACLE_FIELDS> = fieldOffsets(ORACLE_FIELDS);

/** True when `data` is a Whirlpool account (size and discriminator). */
export function isWhirlpoolAccount(data: Uint8Array): boolean {
  return data.length === WHIRLPOOL_SIZE && hasDiscriminator(data, WHIRLPOOL_DISCRIMINATOR);
}

/** True when `data` is an Oracle account. */
export function isOracleAccount(data: Uint8Array): boolean {
  return data.length === ORACLE_SIZE && hasDiscriminator(data, ORACLE_DISCRIMINATOR);
}

/** True when `data` is a fixed or dynamic tick array account (discriminator and a size the format allows). */
export function isTickArrayAccount(data: Uint8Array): boolean {
  if (data.length === FIXED_TICK_ARRAY_SIZE && hasDiscriminator(data, FIXED_TICK_ARRAY_DISCRIMINATOR)) return true;
  return data.length >= DYNAMIC_TICK_ARRAY_MIN_SIZE && data.length <= DYNAMIC_TICK_ARRAY_MAX_SIZE
    && hasDiscriminator(data, DYNAMIC_TICK_ARRAY_DISCRIMINATOR);
}

function bad(what: string, length: number): never {
  throw new EngineError('WHIRLPOOL_BAD_ACCOUNT', `not a Whirlpool ${what} account`, { length });
}

/** Decodes a Whirlpool account; EngineError `WHIRLPOOL_BAD_ACCOUNT` if it is not one. */
export function decodeWhirlpool(data: Uint8Array): WhirlpoolFields {
  if (!isWhirlpoolAccount(data)) bad('pool', data.length);
  return readFields(data, WHIRLPOOL_FIELDS);
}

/** Encodes a Whirlpool account (653 bytes, discriminator included). */
export function encodeWhirlpool(fields: WhirlpoolFields): Uint8Array {
  const out = new Uint8Array(WHIRLPOOL_SIZE);
  out.set(WHIRLPOOL_DISCRIMINATOR, 0);
  writeFields(out, WHIRLPOOL_FIELDS, fields);
  return out;
}

/** Decodes an Oracle account; EngineError `WHIRLPOOL_BAD_ACCOUNT` if it is not one. */
export function decodeOracle(data: Uint8Array): OracleFields {
  if (!isOracleAccount(data)) bad('oracle', data.length);
  return readFields(data, ORACLE_FIELDS);
}

/** Encodes an Oracle account (254 bytes, reserved bytes zeroed). */
export function encodeOracle(fields: OracleFields): Uint8Array {
  const out = new Uint8Array(ORACLE_SIZE);
  out.set(ORACLE_DISCRIMINATOR, 0);
  writeFields(out, ORACLE_FIELDS, fields);
  return out;
}

/** A decoded tick array: its start, its whirlpool and its ticks as the quote reads them. */
export interface DecodedTickArray extends TickArrayTicks {
  readonly whirlpool: string;
  /** `fixed` (9,988 B) or `dynamic` (variable size). */
  readonly format: 'fixed' | 'dynamic';
}

function setBit(bitmap: Uint32Array, i: number): void {
  bitmap[i >> 5] = (bitmap[i >> 5]! | (1 << (i & 31))) >>> 0;
}

/**
 * Decodes a fixed or dynamic tick array; EngineError `WHIRLPOOL_BAD_ACCOUNT` if it is neither, or if a dynamic
 * array's ticks do not walk to its end (a tag other than 0/1, a size that does not match the tags, or a bitmap
 * that disagrees with them).
 */
export function decodeTickArray(data: Uint8Array): DecodedTickArray {
  if (!isTickArrayAccount(data)) bad('tick array', data.length);
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const startTickIndex = dv.getInt32(8, true);
  const bitmap = new Uint32Array(3);
  const liquidityNet: bigint[] = new Array<bigint>(TICK_ARRAY_SIZE).fill(0n);
  if (data.length === FIXED_TICK_ARRAY_SIZE && hasDiscriminator(data, FIXED_TICK_ARRAY_DISCRIMINATOR)) {
    for (let i = 0; i < TICK_ARRAY_SIZE; i++) {
      const o = 12 + i * FIXED_TICK_SIZE;
      // Why `!== 0`: the program writes 0/1; any nonzero byte reads as true, as Borsh-free zero-copy does.
      if (data[o] !== 0) {
        setBit(bitmap, i);
        liquidityNet[i] = readI128(data, o + 1);
      }
    }
    return { startTickIndex, whirlpool: pubkeyAt(data, 12 + TICK_ARRAY_SIZE * FIXED_TICK_SIZE), format: 'fixed', bitmap, liquidityNet };
  }
  const whirlpool = pubkeyAt(data, 12);
  const mapLo = dv.getBigUint64(44, true);
  const mapHi = dv.getBigUint64(52, true);
  let o = DYNAMIC_TICK_ARRAY_HEADER;
  for (let i = 0; i < TICK_ARRAY_SIZE; i++) {
    if (o >= data.length) bad('dynamic tick array (ticks run past the end)', data.length);
    const tag = data[o]!;
    const inMap = ((i < 64 ? mapLo >> BigInt(i) : mapHi >> BigInt(i - 64)) & 1n) === 1n;
    if (tag === 0) {
      if (inMap) bad('dynamic tick array (bitmap marks an uninitialized tick)', data.length);
      o += 1;
    } else if (tag === 1) {
      if (!inMap || o + FIXED_TICK_SIZE > data.length) bad('dynamic tick array (bitmap or size disagrees with a tick)', data.length);
      setBit(bitmap, i);
      liquidityNet[i] = readI128(data, o + 1);
      o += FIXED_TICK_SIZE;
    } else {
      bad(`dynamic tick array (tick tag ${tag})`, data.length);
    }
  }
  if (o !== data.length) bad('dynamic tick array (bytes after the last tick)', data.length);
  return { startTickIndex, whirlpool, format: 'dynamic', bitmap, liquidityNet };
}
