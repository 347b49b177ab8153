/**
 * The program's `swap2` Anchor instruction (IDL 0.2.1; `instructions/swap/ix_swap.rs`): 8-byte discriminator,
 * SwapParameters2 { amount_0: u64, amount_1: u64, swap_mode: u8 }, and the 15 accounts of SwapCtx in declaration
 * order (the optional referral account absent, i.e. the program id, Anchor's convention; event CPI accounts last).
 */
import bs58 from 'bs58';
import { EngineError } from '../../errors.js';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../common/spl-layouts.js';
import type { BuiltInstruction, InstructionAccount, SwapInstructionParams } from '../types.js';
import { BASE_FEE_RATE_LIMITER } from './fee-math.js';
import { CONFIG_OFFSET, DBC_PROGRAM_ID, POOL_OFFSET, eventAuthority, isPoolConfigAccount, isVirtualPoolAccount, poolAuthority } from './layout.js';

/** sha256("global:swap2")[0..8]. */
export const SWAP2_DISCRIMINATOR: Uint8Array = Uint8Array.of(65, 75, 63, 76, 235, 91, 91, 136);
/** sha256("global:swap")[0..8] (legacy exact-in `swap`; recognised by the localnet program). */
export const SWAP_DISCRIMINATOR: Uint8Array = Uint8Array.of(248, 198, 158, 145, 225, 117, 135, 200);
/** `SwapMode` values of swap2. */
export const SWAP_MODE_EXACT_IN = 0;
/** Partial fill: fills what the curve allows up to the migration price and charges for that (not a contract mode). */
export const SWAP_MODE_PARTIAL_FILL = 1;
/** Exact out. */
export const SWAP_MODE_EXACT_OUT = 2;
/** The instructions sysvar, required as the first remaining account while the rate limiter applies. */
export const SYSVAR_INSTRUCTIONS_ID = 'Sysvar1nstructions1111111111111111111111111';

function key(data: Uint8Array, offset: number): string {
  return bs58.encode(data.subarray(offset, offset + 32));
}

function meta(pubkey: string, isWritable: boolean, isSigner = false): InstructionAccount {
  return { pubkey, isSigner, isWritable };
}

/**
 * Builds the swap2 instruction. Exact-in: amount_0 = amount in, amount_1 = minimum out, mode 0; exact-out:
 * amount_0 = amount out, amount_1 = maximum in, mode 2. The instructions sysvar is appended when the config has a
 * rate limiter and the swap buys base (the program requires it while the limiter's window is open; outside the
 * window it is ignored) or when `enable_first_swap_with_min_fee` is set, as the SDK does. Throws EngineError
 * `DBC_MISSING_ACCOUNT` when the pool or its config is not in `params.accounts` (a caller bug).
 */
export function dbcSwapInstruction(params: SwapInstructionParams): BuiltInstruction {
  const poolData = params.accounts.get(params.pool.address);
  const configKey = poolData && isVirtualPoolAccount(poolData) ? key(poolData, POOL_OFFSET.config) : undefined;
  const config = configKey === undefined ? undefined : params.accounts.get(configKey);
  if (!poolData || configKey === undefined || !config || !isPoolConfigAccount(config)) {
    throw new EngineError('DBC_MISSING_ACCOUNT', 'DBC pool or config account missing or invalid', { pool: params.pool.address });
  }
  // The base token program follows the pool's pool_type (the SDK and the vault's token_program constraint).
  const baseProgram = poolData[POOL_OFFSET.poolType] === 1 ? TOKEN_2022_PROGRAM_ID : TOKEN_PROGRAM_ID;
  const quoteProgram = config[CONFIG_OFFSET.quoteTokenFlag] === 1 ? TOKEN_2022_PROGRAM_ID : TOKEN_PROGRAM_ID;
  const keys: InstructionAccount[] = [
    meta(poolAuthority(), false),
    meta(configKey, false),
    meta(params.pool.address, true),
    meta(params.userSourceTokenAccount, true),
    meta(params.userDestinationTokenAccount, true),
    meta(key(poolData, POOL_OFFSET.baseVault), true),
    meta(key(poolData, POOL_OFFSET.quoteVault), true),
    meta(key(poolData, POOL_OFFSET.baseMint), false),
    meta(key(config, CONFIG_OFFSET.quoteMint), false),
    meta(params.user, false, true),
    meta(baseProgram, false),
    meta(quoteProgram, false),
    // Optional referral_token_account absent: Anchor passes the program id in its place.
    meta(DBC_PROGRAM_ID, false),
    meta(eventAuthority(), false),
    meta(DBC_PROGRAM_ID, false),
  ];
  const rateLimiter = config[CONFIG_OFFSET.baseFeeMode] === BASE_FEE_RATE_LIMITER && !params.aToB;
  if (rateLimiter || config[CONFIG_OFFSET.enableFirstSwapWithMinFee] !== 0) keys.push(meta(SYSVAR_INSTRUCTIONS_ID, false));
  const data = new Uint8Array(25);
  const dv = new DataView(data.buffer);
  data.set(SWAP2_DISCRIMINATOR, 0);
  dv.setBigUint64(8, params.amount, true);
  dv.setBigUint64(16, params.otherAmountThreshold, true);
  data[24] = params.mode === 'ExactIn' ? SWAP_MODE_EXACT_IN : SWAP_MODE_EXACT_OUT;
  return { programId: DBC_PROGRAM_ID, keys, data };
}
