/**
 * The program's `buy_exact_in`, `buy_exact_out`, `sell_exact_in` and `sell_exact_out` instructions as the SDK's
 * builders (`launchpad/instrument.ts`) make them: 8-byte discriminator, three u64 arguments (amount, threshold,
 * share_fee_rate = 0), the 15 accounts of the swap context and the remaining accounts the upgraded program
 * requires (system program, platform fee vault, creator fee vault).
 */
import bs58 from 'bs58';
import { EngineError } from '../../errors.js';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../common/spl-layouts.js';
import type { BuiltInstruction, InstructionAccount, SwapInstructionParams } from '../types.js';
import { LAUNCHLAB_PROGRAM_ID, POOL_OFFSET, isLaunchlabPoolAccount } from './layout.js';
import { creatorFeeVault, launchlabAuthority, launchlabEventAuthority, platformFeeVault } from './pda.js';

/** sha256("global:buy_exact_in")[0..8]. */
export const BUY_EXACT_IN_DISCRIMINATOR: Uint8Array = Uint8Array.of(250, 234, 13, 123, 213, 156, 19, 236);
/** sha256("global:buy_exact_out")[0..8]. */
export const BUY_EXACT_OUT_DISCRIMINATOR: Uint8Array = Uint8Array.of(24, 211, 116, 40, 105, 3, 153, 56);
/** sha256("global:sell_exact_in")[0..8]. */
export const SELL_EXACT_IN_DISCRIMINATOR: Uint8Array = Uint8Array.of(149, 39, 222, 155, 211, 124, 152, 26);
/** sha256("global:sell_exact_out")[0..8]. */
export const SELL_EXACT_OUT_DISCRIMINATOR: Uint8Array = Uint8Array.of(95, 200, 71, 34, 8, 9, 11, 166);

/** The System program (a remaining account of every swap: the fee vaults are created on demand). */
export const SYSTEM_PROGRAM_ID = '11111111111111111111111111111111';

/** The token program of the base mint from the pool's `mint_program_flag` (0 SPL Token, 1 Token-2022). */
export function baseTokenProgram(mintProgramFlag: number): string {
  return mintProgramFlag === 1 ? TOKEN_2022_PROGRAM_ID : TOKEN_PROGRAM_ID;
}

function key(data: Uint8Array, offset: number): string {
  return bs58.encode(data.subarray(offset, offset + 32));
}

function meta(pubkey: string, isWritable: boolean, isSigner = false): InstructionAccount {
  return { pubkey, isSigner, isWritable };
}

/** The discriminator of a swap by direction and mode (aToB = sell). */
export function swapDiscriminator(aToB: boolean, exactIn: boolean): Uint8Array {
  if (aToB) return exactIn ? SELL_EXACT_IN_DISCRIMINATOR : SELL_EXACT_OUT_DISCRIMINATOR;
  return exactIn ? BUY_EXACT_IN_DISCRIMINATOR : BUY_EXACT_OUT_DISCRIMINATOR;
}

/**
 * Builds the swap. Data: exact-in = (amount in, minimum out, 0); exact-out = (amount out, maximum in, 0), the
 * program's argument order for all four. Throws EngineError `LAUNCHLAB_MISSING_ACCOUNT` when the pool account is
 * not in `params.accounts` (a caller bug).
 */
export function launchlabSwapInstruction(params: SwapInstructionParams): BuiltInstruction {
  const poolData = params.accounts.get(params.pool.address);
  if (!poolData || !isLaunchlabPoolAccount(poolData)) {
    throw new EngineError('LAUNCHLAB_MISSING_ACCOUNT', 'LaunchLab pool account missing or invalid', { pool: params.pool.address });
  }
  const platform = key(poolData, POOL_OFFSET.platformConfig);
  const mintA = key(poolData, POOL_OFFSET.mintA);
  const mintB = key(poolData, POOL_OFFSET.mintB);
  const sell = params.aToB;
  // The user's A account is the source of a sell and the destination of a buy.
  const userA = sell ? params.userSourceTokenAccount : params.userDestinationTokenAccount;
  const userB = sell ? params.userDestinationTokenAccount : params.userSourceTokenAccount;
  const keys: InstructionAccount[] = [
    meta(params.user, true, true),
    meta(launchlabAuthority()[0], false),
    meta(key(poolData, POOL_OFFSET.globalConfig), false),
    meta(platform, false),
    meta(params.pool.address, true),
    meta(userA, true),
    meta(userB, true),
    meta(key(poolData, POOL_OFFSET.vaultA), true),
    meta(key(poolData, POOL_OFFSET.vaultB), true),
    meta(mintA, false),
    meta(mintB, false),
    meta(baseTokenProgram(poolData[POOL_OFFSET.mintProgramFlag]!), false),
    meta(TOKEN_PROGRAM_ID, false),
    meta(launchlabEventAuthority(), false),
    meta(LAUNCHLAB_PROGRAM_ID, false),
    meta(SYSTEM_PROGRAM_ID, false),
    meta(platformFeeVault(platform, mintB), true),
    meta(creatorFeeVault(key(poolData, POOL_OFFSET.creator), mintB), true),
  ];
  const data = new Uint8Array(32);
  data.set(swapDiscriminator(sell, params.mode === 'ExactIn'), 0);
  const dv = new DataView(data.buffer);
  dv.setBigUint64(8, params.amount, true);
  dv.setBigUint64(16, params.otherAmountThreshold, true);
  dv.setBigUint64(24, 0n, true);
  return { programId: LAUNCHLAB_PROGRAM_ID, keys, data };
}
