/**
 * The program's `swap_v2` instruction (`programs/whirlpool/src/instructions/v2/swap.rs`): 8-byte discriminator,
 * amount u64, other_amount_threshold u64, sqrt_price_limit u128, amount_specified_is_input bool, a_to_b bool,
 * remaining_accounts_info Option (None), and the 15 accounts of the `SwapV2` context in declaration order: the
 * three tick arrays are the window the swap walks (`swapTickArrayStarts`, PDAs; the last one repeated where the
 * window is shorter at the tick bounds) and the oracle PDA.
 */
import { EngineError } from '../../errors.js';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../common/spl-layouts.js';
import type { BuiltInstruction, InstructionAccount, SwapInstructionParams } from '../types.js';
import { WHIRLPOOL_PROGRAM_ID, decodeWhirlpool, isWhirlpoolAccount } from './layout.js';
import { oracleAddress, tickArrayAddress } from './pda.js';
import { swapTickArrayStarts } from './swap.js';

/** sha256("global:swap_v2")[0..8]. */
export const SWAP_V2_DISCRIMINATOR: Uint8Array = Uint8Array.of(43, 4, 237, 11, 26, 201, 30, 98);
/** The SPL Memo program `swap_v2` names (for Token-2022 transfer memos). */
export const MEMO_PROGRAM_ID = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';
/** Accounts of a `swap_v2` without supplemental tick arrays or transfer-hook accounts. */
export const SWAP_V2_ACCOUNTS = 15;
/** Size of a base SPL mint; a Token-2022 mint with extensions is longer. */
const BASE_MINT_SIZE = 82;

function meta(pubkey: string, isWritable: boolean, isSigner = false): InstructionAccount {
  return { pubkey, isSigner, isWritable };
}

/**
 * The token program of `mint`: Token-2022 when its account is among `accounts` with extensions (longer than a base
 * mint), else SPL Token. A Token-2022 mint without extensions cannot be told from its data: see the README.
 */
function tokenProgramOf(accounts: ReadonlyMap<string, Uint8Array>, mint: string): string {
  const d = accounts.get(mint);
  return d !== undefined && d.length > BASE_MINT_SIZE ? TOKEN_2022_PROGRAM_ID : TOKEN_PROGRAM_ID;
}

/**
 * Builds `swap_v2` with no explicit price limit (0: the program's MIN / MAX, and it refuses a partly filled
 * exact-out). Throws EngineError `WHIRLPOOL_MISSING_ACCOUNT` without the pool account (a caller bug).
 */
export function whirlpoolSwapInstruction(params: SwapInstructionParams): BuiltInstruction {
  const data0 = params.accounts.get(params.pool.address);
  if (!data0 || !isWhirlpoolAccount(data0)) {
    throw new EngineError('WHIRLPOOL_MISSING_ACCOUNT', 'Whirlpool pool account missing or invalid', { pool: params.pool.address });
  }
  const w = decodeWhirlpool(data0);
  const a = params.aToB;
  const starts = swapTickArrayStarts(w.tickCurrentIndex, w.tickSpacing, a);
  const arrays = [0, 1, 2].map((k) => tickArrayAddress(params.pool.address, starts[Math.min(k, starts.length - 1)]!));
  const ownerA = a ? params.userSourceTokenAccount : params.userDestinationTokenAccount;
  const ownerB = a ? params.userDestinationTokenAccount : params.userSourceTokenAccount;
  const keys: InstructionAccount[] = [
    meta(tokenProgramOf(params.accounts, w.tokenMintA), false),
    meta(tokenProgramOf(params.accounts, w.tokenMintB), false),
    meta(MEMO_PROGRAM_ID, false),
    meta(params.user, false, true),
    meta(params.pool.address, true),
    meta(w.tokenMintA, false),
    meta(w.tokenMintB, false),
    meta(ownerA, true),
    meta(w.tokenVaultA, true),
    meta(ownerB, true),
    meta(w.tokenVaultB, true),
    meta(arrays[0]!, true),
    meta(arrays[1]!, true),
    meta(arrays[2]!, true),
    meta(oracleAddress(params.pool.address), true),
  ];
  const data = new Uint8Array(8 + 8 + 8 + 16 + 1 + 1 + 1);
  const dv = new DataView(data.buffer);
  data.set(SWAP_V2_DISCRIMINATOR, 0);
  dv.setBigUint64(8, params.amount, true);
  dv.setBigUint64(16, params.otherAmountThreshold, true);
  // sqrt_price_limit 0 (u128, 24..40): no explicit limit.
  data[40] = params.mode === 'ExactIn' ? 1 : 0;
  data[41] = a ? 1 : 0;
  data[42] = 0; // remaining_accounts_info: None
  return { programId: WHIRLPOOL_PROGRAM_ID, keys, data };
}
