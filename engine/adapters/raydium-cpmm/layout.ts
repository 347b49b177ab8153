/**
 * Raydium CPMM (cp-swap) account layouts: PoolState (637 B, zero-copy packed) and AmmConfig (236 B, Borsh),
 * as ordered field tables with constant offsets. Source of truth: raydium-io/raydium-cp-swap
 * `programs/cp-swap/src/states/{pool,config}.rs`; cross-checked against the SDK's CpmmPoolInfoLayout and
 * CpmmConfigInfoLayout in `layout.test.ts`.
 */
import { PublicKey } from '@solana/web3.js';
import { EngineError } from '../../errors.js';
import { type FieldOffsets, type FieldSpec, type FieldsOf, fieldOffsets, readFields, writeFields, hasDiscriminator } from '../common/field-table.js';

/** The CPMM program id (mainnet). */
export const CPMM_PROGRAM_ID = 'CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C';

/** Anchor account discriminator of PoolState: sha256("account:PoolState")[0..8]. */
export const POOL_STATE_DISCRIMINATOR: Uint8Array = Uint8Array.of(0xf7, 0xed, 0xe3, 0xf5, 0xd7, 0xc3, 0xde, 0x46);
/** Anchor account discriminator of AmmConfig: sha256("account:AmmConfig")[0..8]. */
export const AMM_CONFIG_DISCRIMINATOR: Uint8Array = Uint8Array.of(0xda, 0xf4, 0x21, 0x68, 0xcb, 0xcb, 0x2b, 0x6f);

/** Account size of PoolState (8 + 10*32 + 5 + 7*8 + 2 + 6 + 2*8 + 28*8). */
export const POOL_STATE_SIZE = 637;
/** Account size of AmmConfig (8 + 4 + 4*8 + 2*32 + 8 + 15*8). */
export const AMM_CONFIG_SIZE = 236;

/** PoolState swap-disable bit in `status` (bit 0 deposit, bit 1 withdraw, bit 2 swap). */
export const POOL_STATUS_SWAP_DISABLED = 1 << 2;

/**
 * PoolState fields in account order. Gaps: `padding1` [u8; 6] at 391..397 and `padding` [u64; 28] at
 * 413..637 are not decoded; encode writes zeros there.
 */
export const POOL_STATE_FIELDS = [
  { name: 'ammConfig', kind: 'pubkey', offset: 8 },
  { name: 'poolCreator', kind: 'pubkey', offset: 40 },
  { name: 'token0Vault', kind: 'pubkey', offset: 72 },
  { name: 'token1Vault', kind: 'pubkey', offset: 104 },
  { name: 'lpMint', kind: 'pubkey', offset: 136 },
  { name: 'token0Mint', kind: 'pubkey', offset: 168 },
  { name: 'token1Mint', kind: 'pubkey', offset: 200 },
  { name: 'token0Program', kind: 'pubkey', offset: 232 },
  { name: 'token1Program', kind: 'pubkey', offset: 264 },
  { name: 'observationKey', kind: 'pubkey', offset: 296 },
  { name: 'authBump', kind: 'u8', offset: 328 },
  { name: 'status', kind: 'u8', offset: 329 },
  { name: 'lpMintDecimals', kind: 'u8', offset: 330 },
  { name: 'mint0Decimals', kind: 'u8', offset: 331 },
  { name: 'mint1Decimals', kind: 'u8', offset: 332 },
  { name: 'lpSupply', kind: 'u64', offset: 333 },
  { name: 'protocolFeesToken0', kind: 'u64', offset: 341 },
  { name: 'protocolFeesToken1', kind: 'u64', offset: 349 },
  { name: 'fundFeesToken0', kind: 'u64', offset: 357 },
  { name: 'fundFeesToken1', kind: 'u64', offset: 365 },
  { name: 'openTime', kind: 'u64', offset: 373 },
  { name: 'recentEpoch', kind: 'u64', offset: 381 },
  { name: 'creatorFeeOn', kind: 'u8', offset: 389 },
  { name: 'enableCreatorFee', kind: 'bool', offset: 390 },
  { name: 'creatorFeesToken0', kind: 'u64', offset: 397 },
  { name: 'creatorFeesToken1', kind: 'u64', offset: 405 },
] as const satisfies readonly FieldSpec[];

/**
 * AmmConfig fields in account order. `creatorFeeShareRate` (116) is in the SDK's layout but still padding in
 * the public program source; decoded for completeness, never used in math. Padding 124..236 is not decoded.
 */
export const AMM_CONFIG_FIELDS = [
  { name: 'bump', kind: 'u8', offset: 8 },
  { name: 'disableCreatePool', kind: 'bool', offset: 9 },
  { name: 'index', kind: 'u16', offset: 10 },
  { name: 'tradeFeeRate', kind: 'u64', offset: 12 },
  { name: 'protocolFeeRate', kind: 'u64', offset: 20 },
  { name: 'fundFeeRate', kind: 'u64', offset: 28 },
  { name: 'createPoolFee', kind: 'u64', offset: 36 },
  { name: 'protocolOwner', kind: 'pubkey', offset: 44 },
  { name: 'fundOwner', kind: 'pubkey', offset: 76 },
  { name: 'creatorFeeRate', kind: 'u64', offset: 108 },
  { name: 'creatorFeeShareRate', kind: 'u64', offset: 116 },
] as const satisfies readonly FieldSpec[];

/** Decoded PoolState: pubkeys as base58 strings, u64 as bigint, u8 as number. */
export type PoolStateFields = FieldsOf<typeof POOL_STATE_FIELDS>;
/** Decoded AmmConfig: pubkeys as base58 strings, u64 as bigint. Rates are per 1e6. */
export type AmmConfigFields = FieldsOf<typeof AMM_CONFIG_FIELDS>;

/** Byte offset of each PoolState field by name, for hot-path reads that skip a full decode. */
export const POOL_OFFSET: FieldOffsets<typeof POOL_STATE_FIELDS> = fieldOffsets(POOL_STATE_FIELDS);
/** Byte offset of each AmmConfig field by name. */
export const AMM_CONFIG_OFFSET: FieldOffsets<typeof AMM_CONFIG_FIELDS> = fieldOffsets(AMM_CONFIG_FIELDS);


/** True when `data` is a CPMM PoolState account (size and discriminator). */
export function isPoolStateAccount(data: Uint8Array): boolean {
  return data.length === POOL_STATE_SIZE && hasDiscriminator(data, POOL_STATE_DISCRIMINATOR);
}

/** True when `data` is a CPMM AmmConfig account (size and discriminator). */
export function isAmmConfigAccount(data: Uint8Array): boolean {
  return data.length === AMM_CONFIG_SIZE && hasDiscriminator(data, AMM_CONFIG_DISCRIMINATOR);
}

/** Decodes a PoolState account. Throws EngineError `CPMM_BAD_ACCOUNT` if it is not one. */
export function decodePoolState(data: Uint8Array): PoolStateFields {
  if (!isPoolStateAccount(data)) {
    throw new EngineError('CPMM_BAD_ACCOUNT', 'not a Raydium CPMM PoolState account', { length: data.length });
  }
  return readFields(data, POOL_STATE_FIELDS);
}

/** Encodes a PoolState account (637 bytes, discriminator included, padding zeroed). */
export function encodePoolState(fields: PoolStateFields): Uint8Array {
  const out = new Uint8Array(POOL_STATE_SIZE);
  out.set(POOL_STATE_DISCRIMINATOR, 0);
  writeFields(out, POOL_STATE_FIELDS, fields);
  return out;
}

/** Decodes an AmmConfig account. Throws EngineError `CPMM_BAD_ACCOUNT` if it is not one. */
export function decodeAmmConfig(data: Uint8Array): AmmConfigFields {
  if (!isAmmConfigAccount(data)) {
    throw new EngineError('CPMM_BAD_ACCOUNT', 'not a Raydium CPMM AmmConfig account', { length: data.length });
  }
  return readFields(data, AMM_CONFIG_FIELDS);
}

/** Encodes an AmmConfig account (236 bytes, discriminator included, padding zeroed). */
export function encodeAmmConfig(fields: AmmConfigFields): Uint8Array {
  const out = new Uint8Array(AMM_CONFIG_SIZE);
  out.set(AMM_CONFIG_DISCRIMINATOR, 0);
  writeFields(out, AMM_CONFIG_FIELDS, fields);
  return out;
}

/** PDA seed of the program's vault and LP-mint authority (`AUTH_SEED` in lib.rs). */
export const AUTH_SEED = 'vault_and_lp_mint_auth_seed';

let authority: string | undefined;

/**
 * The pool authority PDA (owner of every pool's vaults), base58. Computed on first use and cached: the
 * engine does no work at import, and the derivation (a few SHA-256 + curve checks) is needed only once.
 */
export function poolAuthority(): string {
  authority ??= PublicKey.findProgramAddressSync(
    [new TextEncoder().encode(AUTH_SEED)],
    new PublicKey(CPMM_PROGRAM_ID),
  )[0].toBase58();
  return authority;
}
