/**
 * Pump.fun bonding-curve program account layouts: BondingCurve (versioned, 49..151 B) and Global (1045..1087 B),
 * as ordered field tables with constant offsets. Source of truth: the program's Anchor IDL vendored in
 * `@pump-fun/pump-sdk@2.0.0` (`src/idl/pump.json`) and the SDK's versioned readers (`PumpSdk.decodeBondingCurve`,
 * `decodeGlobal`): every layout is a prefix of the next and a field a shorter account lacks reads as zero.
 * Cross-checked against the SDK's decoders in `layout.test.ts`. The FeeConfig (pump-fees) is in `fee-config.ts`.
 */
import { EngineError } from '../../errors.js';
import { type FieldOffsets, type FieldSpec, type FieldsOf, fieldOffsets, readFields, writeFields, hasDiscriminator, ZERO_KEY } from '../common/field-table.js';
import bs58 from 'bs58';

/** The pump.fun bonding-curve program id (mainnet). */
export const PUMPFUN_PROGRAM_ID = '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P';
/** The pump-fees program id (owner of the FeeConfig). */
export const PUMP_FEES_PROGRAM_ID = 'pfeeUxB6jkeY1Hxd7CsFCAjcbHA9rWtchMGdZ6VojVZ';
/** Wrapped SOL mint: token B of every SOL-quoted curve (the program itself moves native lamports). */
export const NATIVE_MINT = 'So11111111111111111111111111111111111111112';

/** Anchor discriminator of BondingCurve: sha256("account:BondingCurve")[0..8]. */
export const BONDING_CURVE_DISCRIMINATOR: Uint8Array = Uint8Array.of(23, 183, 248, 55, 96, 216, 172, 96);
/** Anchor discriminator of Global: sha256("account:Global")[0..8]. */
export const GLOBAL_DISCRIMINATOR: Uint8Array = Uint8Array.of(167, 232, 232, 177, 200, 108, 114, 127);

/** Current BondingCurve layout size (pump `BondingCurve::SIZE`), discriminator included. */
export const BONDING_CURVE_SIZE = 125;
/** Size of a curve after `extend_account` (`BondingCurve::NEW_SIZE`); bytes past 125 are not read. */
export const BONDING_CURVE_EXTENDED_SIZE = 151;
/** Every BondingCurve length the program has written (49 is the initial layout, 81 the long-lived legacy one). */
export const BONDING_CURVE_SIZES: readonly number[] = [49, 81, 82, 83, 115, 124, 125, 151];

/** Full Global layout (`Global::SIZE`); live accounts are 1045 or 1054 B, read with zeros past their end. */
export const GLOBAL_SIZE = 1087;
/** Shortest Global the adapter accepts: the live 1045-byte account (before configurable creator fees). */
export const GLOBAL_MIN_SIZE = 1045;

/** BondingCurve fields in account order (the layout of a 125-byte curve; shorter ones end earlier). */
export const BONDING_CURVE_FIELDS = [
  { name: 'virtualTokenReserves', kind: 'u64', offset: 8 },
  { name: 'virtualQuoteReserves', kind: 'u64', offset: 16 },
  { name: 'realTokenReserves', kind: 'u64', offset: 24 },
  { name: 'realQuoteReserves', kind: 'u64', offset: 32 },
  { name: 'tokenTotalSupply', kind: 'u64', offset: 40 },
  { name: 'complete', kind: 'bool', offset: 48 },
  { name: 'creator', kind: 'pubkey', offset: 49 },
  { name: 'isMayhemMode', kind: 'bool', offset: 81 },
  { name: 'isCashbackCoin', kind: 'bool', offset: 82 },
  { name: 'quoteMint', kind: 'pubkey', offset: 83 },
  { name: 'creatorFeeBps', kind: 'u64', offset: 115 },
  { name: 'canEditCreatorFee', kind: 'bool', offset: 123 },
  { name: 'isHolderReward', kind: 'bool', offset: 124 },
] as const satisfies readonly FieldSpec[];

/** Scalar Global fields in account order; the pubkey arrays are {@link GLOBAL_ARRAYS}. */
export const GLOBAL_FIELDS = [
  { name: 'initialized', kind: 'bool', offset: 8 },
  { name: 'authority', kind: 'pubkey', offset: 9 },
  { name: 'feeRecipient', kind: 'pubkey', offset: 41 },
  { name: 'initialVirtualTokenReserves', kind: 'u64', offset: 73 },
  { name: 'initialVirtualSolReserves', kind: 'u64', offset: 81 },
  { name: 'initialRealTokenReserves', kind: 'u64', offset: 89 },
  { name: 'tokenTotalSupply', kind: 'u64', offset: 97 },
  { name: 'feeBasisPoints', kind: 'u64', offset: 105 },
  { name: 'withdrawAuthority', kind: 'pubkey', offset: 113 },
  { name: 'enableMigrate', kind: 'bool', offset: 145 },
  { name: 'poolMigrationFee', kind: 'u64', offset: 146 },
  { name: 'creatorFeeBasisPoints', kind: 'u64', offset: 154 },
  { name: 'setCreatorAuthority', kind: 'pubkey', offset: 386 },
  { name: 'adminSetCreatorAuthority', kind: 'pubkey', offset: 418 },
  { name: 'createV2Enabled', kind: 'bool', offset: 450 },
  { name: 'whitelistPda', kind: 'pubkey', offset: 451 },
  { name: 'reservedFeeRecipient', kind: 'pubkey', offset: 483 },
  { name: 'mayhemModeEnabled', kind: 'bool', offset: 515 },
  { name: 'isCashbackEnabled', kind: 'bool', offset: 740 },
  { name: 'buybackBasisPoints', kind: 'u64', offset: 997 },
  { name: 'initialVirtualQuoteReserves', kind: 'u64', offset: 1005 },
  { name: 'creatorFeeConfigurable', kind: 'bool', offset: 1045 },
  { name: 'maxConfigurableCreatorFeeBps', kind: 'u64', offset: 1046 },
  { name: 'holderRewardClaimAuthority', kind: 'pubkey', offset: 1054 },
  { name: 'isHolderRewardEnabled', kind: 'bool', offset: 1086 },
] as const satisfies readonly FieldSpec[];

/** Global's fixed-length pubkey arrays: name, offset, length. */
export const GLOBAL_ARRAYS = [
  { name: 'feeRecipients', offset: 162, length: 7 },
  { name: 'reservedFeeRecipients', offset: 516, length: 7 },
  { name: 'buybackFeeRecipients', offset: 741, length: 8 },
  { name: 'whitelistedQuoteMints', offset: 1013, length: 1 },
] as const;

/** Decoded BondingCurve: pubkeys as base58, u64 as bigint. */
export type BondingCurveFields = FieldsOf<typeof BONDING_CURVE_FIELDS>;
/** Decoded Global: the scalar fields plus the pubkey arrays. */
export type GlobalFields = FieldsOf<typeof GLOBAL_FIELDS> & {
  -readonly [A in (typeof GLOBAL_ARRAYS)[number] as A['name']]: string[];
};

/** Byte offset of each BondingCurve field, for hot-path reads. */
export const CURVE_OFFSET: FieldOffsets<typeof BONDING_CURVE_FIELDS> = fieldOffsets(BONDING_CURVE_FIELDS);
/** Byte offset of each scalar Global field. */
export const GLOBAL_OFFSET: FieldOffsets<typeof GLOBAL_FIELDS> = fieldOffsets(GLOBAL_FIELDS);


/** True when `data` is a BondingCurve account of a length the program writes (size and discriminator). */
export function isBondingCurveAccount(data: Uint8Array): boolean {
  return BONDING_CURVE_SIZES.includes(data.length) && hasDiscriminator(data, BONDING_CURVE_DISCRIMINATOR);
}

/** True when `data` is a Global account (discriminator, at least the live 1045 bytes). */
export function isGlobalAccount(data: Uint8Array): boolean {
  return data.length >= GLOBAL_MIN_SIZE && hasDiscriminator(data, GLOBAL_DISCRIMINATOR);
}

/** `data` zero-padded to `size` (a copy), or `data` itself when already that long: the versioned read. */
export function zeroPadded(data: Uint8Array, size: number): Uint8Array {
  if (data.length >= size) return data;
  const out = new Uint8Array(size);
  out.set(data, 0);
  return out;
}

/**
 * Decodes a BondingCurve of any length the program writes; fields past the account's end read as zero / false /
 * the zero key. Throws EngineError `PUMPFUN_BAD_ACCOUNT` if it is not one.
 */
export function decodeBondingCurve(data: Uint8Array): BondingCurveFields {
  if (!isBondingCurveAccount(data)) {
    throw new EngineError('PUMPFUN_BAD_ACCOUNT', 'not a pump.fun BondingCurve account', { length: data.length });
  }
  return readFields(zeroPadded(data, BONDING_CURVE_SIZE), BONDING_CURVE_FIELDS);
}

/**
 * Encodes a BondingCurve in the layout of `size` bytes (one of {@link BONDING_CURVE_SIZES}): the fields that
 * layout lacks are dropped (they must be zero / false / the zero key, else RangeError), bytes past 125 are zero.
 */
export function encodeBondingCurve(fields: BondingCurveFields, size: number = BONDING_CURVE_SIZE): Uint8Array {
  if (!BONDING_CURVE_SIZES.includes(size)) throw new RangeError(`not a BondingCurve size: ${size}`);
  const full = new Uint8Array(BONDING_CURVE_EXTENDED_SIZE);
  full.set(BONDING_CURVE_DISCRIMINATOR, 0);
  writeFields(full, BONDING_CURVE_FIELDS, fields);
  for (let i = size; i < BONDING_CURVE_SIZE; i++) {
    if (full[i] !== 0) throw new RangeError(`field at byte ${i} does not fit a ${size}-byte BondingCurve`);
  }
  return full.slice(0, size);
}

/** Decodes a Global account (zero-padded to 1087 B). Throws EngineError `PUMPFUN_BAD_ACCOUNT` if it is not one. */
export function decodeGlobal(data: Uint8Array): GlobalFields {
  if (!isGlobalAccount(data)) {
    throw new EngineError('PUMPFUN_BAD_ACCOUNT', 'not a pump.fun Global account', { length: data.length });
  }
  const padded = zeroPadded(data, GLOBAL_SIZE);
  const out = readFields(padded, GLOBAL_FIELDS) as GlobalFields;
  for (const a of GLOBAL_ARRAYS) {
    const keys: string[] = [];
    for (let i = 0; i < a.length; i++) keys.push(bs58.encode(padded.subarray(a.offset + 32 * i, a.offset + 32 * (i + 1))));
    out[a.name] = keys;
  }
  return out;
}

/** Encodes a Global account (1087 B, or truncated to `size` for the older live lengths). */
export function encodeGlobal(fields: GlobalFields, size: number = GLOBAL_SIZE): Uint8Array {
  const out = new Uint8Array(GLOBAL_SIZE);
  out.set(GLOBAL_DISCRIMINATOR, 0);
  writeFields(out, GLOBAL_FIELDS, fields);
  for (const a of GLOBAL_ARRAYS) {
    const keys = fields[a.name];
    if (keys.length !== a.length) throw new RangeError(`${a.name}: expected ${a.length} keys`);
    keys.forEach((k, i) => {
      const bytes = bs58.decode(k);
      if (bytes.length !== 32) throw new RangeError(`${a.name}[${i}]: not a 32-byte key`);
      out.set(bytes, a.offset + 32 * i);
    });
  }
  return size >= GLOBAL_SIZE ? out : out.slice(0, size);
}

export { hasDiscriminator, ZERO_KEY };
