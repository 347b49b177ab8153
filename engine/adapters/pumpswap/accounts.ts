/**
 * The accounts around a PumpSwap swap that are not in the pool's dependencies: the token program of each mint,
 * the fee recipients the instruction names (chosen deterministically, where the SDK picks at random) and their
 * token accounts. Shared by the instruction builder and `execute`.
 */
import { MINT_SIZE, TOKEN_2022_PROGRAM_ID, TOKEN_ACCOUNT_SIZE, TOKEN_PROGRAM_ID } from '../common/spl-layouts.js';
import { ZERO_KEY } from '../common/field-table.js';
import type { GlobalConfigFields, PoolFields } from './layout.js';
import { associatedTokenAddress, coinCreatorVaultAuthority } from './pdas.js';

/**
 * Token program of a mint, from its accounts' data (the adapter sees data, not owners): a Token-2022 vault made by
 * the associated-token program carries the ImmutableOwner extension (> 165 bytes), a Token-2022 mint with any
 * extension is > 82 bytes. A Token-2022 mint without extensions whose vault has none either reads as SPL Token.
 */
export function tokenProgramOf(vault: Uint8Array | undefined, mint?: Uint8Array): string {
  if (vault && vault.length > TOKEN_ACCOUNT_SIZE) return TOKEN_2022_PROGRAM_ID;
  if (mint && mint.length > MINT_SIZE) return TOKEN_2022_PROGRAM_ID;
  return TOKEN_PROGRAM_ID;
}

/**
 * The protocol fee recipient an instruction names: the first of the eight `protocol_fee_recipients`, or the
 * `reserved_fee_recipient` on mayhem pools (the SDK's `getFeeRecipient` picks one of them at random; the program
 * accepts any).
 */
export function protocolFeeRecipientOf(global: GlobalConfigFields, mayhem: boolean): string {
  return mayhem ? global.reservedFeeRecipient : global.protocolFeeRecipients.find((k) => k !== ZERO_KEY) ?? global.protocolFeeRecipients[0]!;
}

/** The buyback fee recipient an instruction names: the first of `buyback_fee_recipients` (SDK: at random). */
export function buybackFeeRecipientOf(global: GlobalConfigFields): string {
  return global.buybackFeeRecipients[0]!;
}

/** The fee accounts of a swap on one pool. */
export interface FeeAccounts {
  readonly quoteTokenProgram: string;
  readonly protocolFeeRecipient: string;
  /** ATA of the protocol fee recipient for the quote mint. */
  readonly protocolFeeAccount: string;
  readonly coinCreatorVaultAuthority: string;
  /** ATA of the coin-creator vault authority for the quote mint. */
  readonly coinCreatorVaultAccount: string;
  readonly buybackFeeRecipient: string;
  readonly buybackFeeAccount: string;
}

/** Derives the fee accounts of a swap (a few PDA searches: call once per instruction or execution). */
export function feeAccountsOf(pool: PoolFields, global: GlobalConfigFields, quoteTokenProgram: string): FeeAccounts {
  const protocolFeeRecipient = protocolFeeRecipientOf(global, pool.isMayhemMode);
  const vaultAuthority = coinCreatorVaultAuthority(pool.coinCreator);
  const buyback = buybackFeeRecipientOf(global);
  return {
    quoteTokenProgram,
    protocolFeeRecipient,
    protocolFeeAccount: associatedTokenAddress(protocolFeeRecipient, pool.quoteMint, quoteTokenProgram),
    coinCreatorVaultAuthority: vaultAuthority,
    coinCreatorVaultAccount: associatedTokenAddress(vaultAuthority, pool.quoteMint, quoteTokenProgram),
    buybackFeeRecipient: buyback,
    buybackFeeAccount: associatedTokenAddress(buyback, pool.quoteMint, quoteTokenProgram),
  };
}
