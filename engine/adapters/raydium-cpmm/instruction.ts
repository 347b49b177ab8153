/**
 * The program's `swap_base_input` / `swap_base_output` Anchor instructions (lib.rs, instructions/swap_base_*.rs):
 * 8-byte discriminator, two u64 LE arguments, the 13 accounts of the `Swap` context in declaration order.
 */
import { EngineError } from '../../errors.js';
import type { BuiltInstruction, InstructionAccount, SwapInstructionParams } from '../types.js';
import { CPMM_PROGRAM_ID, POOL_OFFSET, isPoolStateAccount, poolAuthority } from './layout.js';
import bs58 from 'bs58';

/** sha256("global:swap_base_input")[0..8]. */
export const SWAP_BASE_INPUT_DISCRIMINATOR: Uint8Array = Uint8Array.of(143, 190, 90, 218, 196, 30, 51, 222);
/** sha256("global:swap_base_output")[0..8]. */
export const SWAP_BASE_OUTPUT_DISCRIMINATOR: Uint8Array = Uint8Array.of(55, 217, 98, 86, 163, 74, 180, 173);

function key(data: Uint8Array, offset: number): string {
  return bs58.encode(data.subarray(offset, offset + 32));
}

function meta(pubkey: string, isWritable: boolean, isSigner = false): InstructionAccount {
  return { pubkey, isSigner, isWritable };
}

/**
 * Builds the swap instruction. Exact-in: data = disc, amount_in, minimum_amount_out. Exact-out: data =
 * disc, max_amount_in, amount_out (the program's argument order). Throws EngineError `CPMM_MISSING_ACCOUNT`
 * when the pool account is not in `params.accounts` (a caller bug, not a market outcome).
 */
export function cpmmSwapInstruction(params: SwapInstructionParams): BuiltInstruction {
  const poolData = params.accounts.get(params.pool.address);
  if (!poolData || !isPoolStateAccount(poolData)) {
    throw new EngineError('CPMM_MISSING_ACCOUNT', 'CPMM pool account missing or invalid', { pool: params.pool.address });
  }
  const vault0 = key(poolData, POOL_OFFSET.token0Vault);
  const vault1 = key(poolData, POOL_OFFSET.token1Vault);
  const mint0 = key(poolData, POOL_OFFSET.token0Mint);
  const mint1 = key(poolData, POOL_OFFSET.token1Mint);
  const program0 = key(poolData, POOL_OFFSET.token0Program);
  const program1 = key(poolData, POOL_OFFSET.token1Program);
  const a = params.aToB;
  const keys: InstructionAccount[] = [
    // payer is `Signer<'info>` without `mut` in the Swap context.
    meta(params.user, false, true),
    meta(poolAuthority(), false),
    meta(key(poolData, POOL_OFFSET.ammConfig), false),
    meta(params.pool.address, true),
    meta(params.userSourceTokenAccount, true),
    meta(params.userDestinationTokenAccount, true),
    meta(a ? vault0 : vault1, true),
    meta(a ? vault1 : vault0, true),
    meta(a ? program0 : program1, false),
    meta(a ? program1 : program0, false),
    meta(a ? mint0 : mint1, false),
    meta(a ? mint1 : mint0, false),
    meta(key(poolData, POOL_OFFSET.observationKey), true),
  ];
  const data = new Uint8Array(24);
  const dv = new DataView(data.buffer);
  if (params.mode === 'ExactIn') {
    data.set(SWAP_BASE_INPUT_DISCRIMINATOR, 0);
    dv.setBigUint64(8, params.amount, true);
    dv.setBigUint64(16, params.otherAmountThreshold, true);
  } else {
    data.set(SWAP_BASE_OUTPUT_DISCRIMINATOR, 0);
    dv.setBigUint64(8, params.otherAmountThreshold, true);
    dv.setBigUint64(16, params.amount, true);
  }
  return { programId: CPMM_PROGRAM_ID, keys, data };
}
