/**
 * Raydium AMM v4 account layout: AmmInfo (752 B, `#[repr(C, packed)]`, no discriminator) as an ordered field
 * table with constant offsets, plus the status values and the authority PDA. Source of truth:
 * raydium-io/raydium-amm `program/src/state.rs` (AmmInfo, Fees, StateData, AmmStatus) and `processor.rs`
 * (`AUTHORITY_AMM`, `authority_id`); cross-checked against the SDK's `liquidityStateV4Layout` in `layout.test.ts`.
 */
import { PublicKey } from '@solana/web3.js';
import { EngineError } from '../../errors.js';
import { type FieldOffsets, type FieldSpec, type FieldsOf, fieldOffsets, readFields, writeFields } from '../common/field-table.js';

/** The AMM v4 program id (mainnet). */
export const AMM_V4_PROGRAM_ID = '675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8';

/** Account size of AmmInfo: 16 u64 + Fees (8 u64) + StateData (144 B) + 9 pubkeys + [u64; 8] + pubkey + 4 u64. */
export const AMM_INFO_SIZE = 752;

/** `AmmStatus` values (state.rs). Swaps are allowed in 1, 6 and 7 (7 only from `pool_open_time` on). */
export const AMM_STATUS = {
  Uninitialized: 0n,
  Initialized: 1n,
  Disabled: 2n,
  WithdrawOnly: 3n,
  LiquidityOnly: 4n,
  OrderBookOnly: 5n,
  SwapOnly: 6n,
  WaitingTrade: 7n,
} as const;

/**
 * AmmInfo fields in account order (program names, camelCase). Not decoded: `state_data.padding` [u64; 2] at
 * 232..248 (the SDK's `punishPcAmount`/`punishCoinAmount`), `padding1` [u64; 8] at 624..688 (the SDK's
 * `withdrawQueue`/`lpVault`) and `padding2` at 744..752; encode writes zeros there. The `swap*Amount`/`swapAcc*Fee`
 * statistics are "Deprecated field. No longer in use or updated." in the current source; decoded for completeness.
 */
export const AMM_INFO_FIELDS = [
  { name: 'status', kind: 'u64', offset: 0 },
  { name: 'nonce', kind: 'u64', offset: 8 },
  { name: 'orderNum', kind: 'u64', offset: 16 },
  { name: 'depth', kind: 'u64', offset: 24 },
  { name: 'coinDecimals', kind: 'u64', offset: 32 },
  { name: 'pcDecimals', kind: 'u64', offset: 40 },
  { name: 'state', kind: 'u64', offset: 48 },
  { name: 'resetFlag', kind: 'u64', offset: 56 },
  { name: 'minSize', kind: 'u64', offset: 64 },
  { name: 'volMaxCutRatio', kind: 'u64', offset: 72 },
  { name: 'amountWave', kind: 'u64', offset: 80 },
  { name: 'coinLotSize', kind: 'u64', offset: 88 },
  { name: 'pcLotSize', kind: 'u64', offset: 96 },
  { name: 'minPriceMultiplier', kind: 'u64', offset: 104 },
  { name: 'maxPriceMultiplier', kind: 'u64', offset: 112 },
  { name: 'sysDecimalValue', kind: 'u64', offset: 120 },
  // fees: Fees
  { name: 'minSeparateNumerator', kind: 'u64', offset: 128 },
  { name: 'minSeparateDenominator', kind: 'u64', offset: 136 },
  { name: 'tradeFeeNumerator', kind: 'u64', offset: 144 },
  { name: 'tradeFeeDenominator', kind: 'u64', offset: 152 },
  { name: 'pnlNumerator', kind: 'u64', offset: 160 },
  { name: 'pnlDenominator', kind: 'u64', offset: 168 },
  { name: 'swapFeeNumerator', kind: 'u64', offset: 176 },
  { name: 'swapFeeDenominator', kind: 'u64', offset: 184 },
  // state_data: StateData
  { name: 'needTakePnlCoin', kind: 'u64', offset: 192 },
  { name: 'needTakePnlPc', kind: 'u64', offset: 200 },
  { name: 'totalPnlPc', kind: 'u64', offset: 208 },
  { name: 'totalPnlCoin', kind: 'u64', offset: 216 },
  { name: 'poolOpenTime', kind: 'u64', offset: 224 },
  { name: 'orderbookToInitTime', kind: 'u64', offset: 248 },
  { name: 'swapCoinInAmount', kind: 'u128', offset: 256 },
  { name: 'swapPcOutAmount', kind: 'u128', offset: 272 },
  { name: 'swapAccPcFee', kind: 'u64', offset: 288 },
  { name: 'swapPcInAmount', kind: 'u128', offset: 296 },
  { name: 'swapCoinOutAmount', kind: 'u128', offset: 312 },
  { name: 'swapAccCoinFee', kind: 'u64', offset: 328 },
  { name: 'coinVault', kind: 'pubkey', offset: 336 },
  { name: 'pcVault', kind: 'pubkey', offset: 368 },
  { name: 'coinVaultMint', kind: 'pubkey', offset: 400 },
  { name: 'pcVaultMint', kind: 'pubkey', offset: 432 },
  { name: 'lpMint', kind: 'pubkey', offset: 464 },
  { name: 'openOrders', kind: 'pubkey', offset: 496 },
  { name: 'market', kind: 'pubkey', offset: 528 },
  { name: 'marketProgram', kind: 'pubkey', offset: 560 },
  { name: 'targetOrders', kind: 'pubkey', offset: 592 },
  { name: 'ammOwner', kind: 'pubkey', offset: 688 },
  { name: 'lpAmount', kind: 'u64', offset: 720 },
  { name: 'clientOrderId', kind: 'u64', offset: 728 },
  { name: 'recentEpoch', kind: 'u64', offset: 736 },
] as const satisfies readonly FieldSpec[];

/** Decoded AmmInfo: pubkeys as base58 strings, integers as bigint. */
export type AmmInfoFields = FieldsOf<typeof AMM_INFO_FIELDS>;

/** Byte offset of each AmmInfo field by name, for hot-path reads that skip a full decode. */
export const AMM_OFFSET: FieldOffsets<typeof AMM_INFO_FIELDS> = fieldOffsets(AMM_INFO_FIELDS);

/**
 * True when `data` (owned by the program) is an AmmInfo: the program has no discriminator, and its
 * `load_mut_checked` gates on owner and exact size only. The program's other accounts (TargetOrders 2208 B,
 * AmmConfig) have other sizes.
 */
export function isAmmInfoAccount(data: Uint8Array): boolean {
  return data.length === AMM_INFO_SIZE;
}

/** Decodes an AmmInfo account. Throws EngineError `AMM_V4_BAD_ACCOUNT` if the size is wrong. */
export function decodeAmmInfo(data: Uint8Array): AmmInfoFields {
  if (!isAmmInfoAccount(data)) {
    throw new EngineError('AMM_V4_BAD_ACCOUNT', 'not a Raydium AMM v4 AmmInfo account', { length: data.length });
  }
  return readFields(data, AMM_INFO_FIELDS);
}

/** Encodes an AmmInfo account (752 bytes, padding zeroed). */
export function encodeAmmInfo(fields: AmmInfoFields): Uint8Array {
  const out = new Uint8Array(AMM_INFO_SIZE);
  writeFields(out, AMM_INFO_FIELDS, fields);
  return out;
}

/** PDA seed of the pool authority (`AUTHORITY_AMM` in processor.rs); the bump is the pool's `nonce`. */
export const AUTHORITY_SEED = 'amm authority';

const authorities = new Map<number, string | null>();

/**
 * The authority the program expects for a pool with this `nonce`: `create_program_address([AUTHORITY_AMM,
 * [nonce]])` (the program's `authority_id`), base58; null when the nonce gives no valid PDA (the program then
 * fails with InvalidProgramAddress). Computed on first use per nonce and cached (no work at import). Every
 * mainnet pool uses nonce 254: `5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1`.
 */
export function ammAuthority(nonce: number): string | null {
  let a = authorities.get(nonce);
  if (a === undefined) {
    try {
      a = PublicKey.createProgramAddressSync(
        [new TextEncoder().encode(AUTHORITY_SEED), Uint8Array.of(nonce)],
        new PublicKey(AMM_V4_PROGRAM_ID),
      ).toBase58();
    } catch {
      a = null;
    }
    authorities.set(nonce, a);
  }
  return a;
}

/** The canonical authority PDA and its bump (`find_program_address([AUTHORITY_AMM])`): what new pools use as nonce. */
export function canonicalAmmAuthority(): { address: string; nonce: number } {
  const [key, bump] = PublicKey.findProgramAddressSync([new TextEncoder().encode(AUTHORITY_SEED)], new PublicKey(AMM_V4_PROGRAM_ID));
  return { address: key.toBase58(), nonce: bump };
}
