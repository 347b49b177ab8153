/**
 * The program's swap instructions (instruction.rs): one tag byte, two u64 LE arguments. The adapter builds the
 * 2025 v2 variants (`SwapBaseInV2` tag 16, `SwapBaseOutV2` tag 17: 8 accounts, no OpenBook accounts), which
 * every AMM v4 pool accepts since the program stopped reading the market; the legacy tags 9 / 11 (17 or 18
 * accounts) are listed for decoders and the localnet.
 */
import bs58 from 'bs58';
import { EngineError } from '../../errors.js';
import { TOKEN_PROGRAM_ID } from '../common/spl-layouts.js';
import type { BuiltInstruction, InstructionAccount, SwapInstructionParams } from '../types.js';
import { AMM_OFFSET, AMM_V4_PROGRAM_ID, ammAuthority, isAmmInfoAccount } from './layout.js';

/** Instruction tags of `AmmInstruction::unpack`. */
export const AMM_V4_TAG = {
  SwapBaseIn: 9,
  SwapBaseOut: 11,
  SwapBaseInV2: 16,
  SwapBaseOutV2: 17,
} as const;

/** Length of the swap instructions' data: tag + two u64. */
export const SWAP_DATA_SIZE = 17;

function key(data: Uint8Array, offset: number): string {
  return bs58.encode(data.subarray(offset, offset + 32));
}

function meta(pubkey: string, isWritable: boolean, isSigner = false): InstructionAccount {
  return { pubkey, isSigner, isWritable };
}

/** Swap instruction data: exact-in `[tag, amount_in, minimum_amount_out]`, exact-out `[tag, max_amount_in, amount_out]`. */
export function swapData(tag: number, first: bigint, second: bigint): Uint8Array {
  const data = new Uint8Array(SWAP_DATA_SIZE);
  const dv = new DataView(data.buffer);
  data[0] = tag;
  dv.setBigUint64(1, first, true);
  dv.setBigUint64(9, second, true);
  return data;
}

/**
 * Builds `swap_base_in_v2` / `swap_base_out_v2` (the program's `swap_base_in_v2`/`swap_base_out_v2` builders):
 * token program, AMM (w), authority, coin vault (w), pc vault (w), user source (w), user destination (w), user
 * (signer). The vaults are always coin then pc; the direction follows from the user accounts' mints. Throws
 * EngineError `AMM_V4_MISSING_ACCOUNT` when the pool account is not in `params.accounts` or its nonce gives no
 * authority (caller bugs, not market outcomes).
 */
export function ammV4SwapInstruction(params: SwapInstructionParams): BuiltInstruction {
  const poolData = params.accounts.get(params.pool.address);
  if (!poolData || !isAmmInfoAccount(poolData)) {
    throw new EngineError('AMM_V4_MISSING_ACCOUNT', 'AMM v4 pool account missing or invalid', { pool: params.pool.address });
  }
  const nonce = Number(new DataView(poolData.buffer, poolData.byteOffset, poolData.byteLength).getBigUint64(AMM_OFFSET.nonce, true) & 0xffn);
  const authority = ammAuthority(nonce);
  if (authority === null) {
    throw new EngineError('AMM_V4_MISSING_ACCOUNT', 'AMM v4 pool nonce gives no authority', { pool: params.pool.address, nonce });
  }
  const keys: InstructionAccount[] = [
    meta(TOKEN_PROGRAM_ID, false),
    meta(params.pool.address, true),
    meta(authority, false),
    meta(key(poolData, AMM_OFFSET.coinVault), true),
    meta(key(poolData, AMM_OFFSET.pcVault), true),
    meta(params.userSourceTokenAccount, true),
    meta(params.userDestinationTokenAccount, true),
    meta(params.user, false, true),
  ];
  const data = params.mode === 'ExactIn'
    ? swapData(AMM_V4_TAG.SwapBaseInV2, params.amount, params.otherAmountThreshold)
    : swapData(AMM_V4_TAG.SwapBaseOutV2, params.otherAmountThreshold, params.amount);
  return { programId: AMM_V4_PROGRAM_ID, keys, data };
}
