/**
 * The program's `buy`, `sell` and `buy_exact_quote_in` instructions (IDL of pump-swap-sdk 1.20.0): 8-byte
 * discriminator, u64 arguments (+ `track_volume: OptionBool` on buys), the IDL's accounts in order, then the
 * remaining accounts the SDK's builders append (cashback accounts, the `pool-v2` PDA when the pool has a coin
 * creator, the buyback fee recipient and its token account).
 */
import { EngineError } from '../../errors.js';
import type { BuiltInstruction, InstructionAccount, SwapInstructionParams } from '../types.js';
import { ZERO_KEY } from '../common/field-table.js';
import { feeAccountsOf, tokenProgramOf } from './accounts.js';
import { PUMP_FEES_PROGRAM_ID, PUMPSWAP_PROGRAM_ID, decodeGlobalConfig, decodePoolAccount, isGlobalConfigAccount, isPoolAccount } from './layout.js';
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  SYSTEM_PROGRAM_ID,
  associatedTokenAddress,
  eventAuthorityAddress,
  feeConfigAddress,
  globalConfigAddress,
  globalVolumeAccumulatorAddress,
  poolV2Address,
  userVolumeAccumulatorAddress,
} from './pdas.js';
import { pumpswapQuote } from './quote.js';
import { buildPumpswapState } from './state.js';

/** sha256("global:buy")[0..8]. */
export const BUY_DISCRIMINATOR: Uint8Array = Uint8Array.of(102, 6, 61, 18, 1, 218, 235, 234);
/** sha256("global:sell")[0..8]. */
export const SELL_DISCRIMINATOR: Uint8Array = Uint8Array.of(51, 230, 133, 164, 1, 127, 131, 173);
/** sha256("global:buy_exact_quote_in")[0..8]. */
export const BUY_EXACT_QUOTE_IN_DISCRIMINATOR: Uint8Array = Uint8Array.of(198, 46, 21, 82, 180, 217, 232, 112);

function meta(pubkey: string, isWritable: boolean, isSigner = false): InstructionAccount {
  return { pubkey, isSigner, isWritable };
}

function missing(pool: string, what: string): EngineError {
  return new EngineError('PUMPSWAP_MISSING_ACCOUNT', `PumpSwap ${what} missing or invalid`, { pool });
}

/**
 * Builds the swap instruction. Sell ExactIn -> `sell(amount, threshold)`; buy ExactOut -> `buy(amount, threshold,
 * true)`; buy ExactIn -> `buy_exact_quote_in(amount, threshold, true)`; sell ExactOut (no such instruction) ->
 * `sell(base, amount)` where base is the smallest input that pays `amount` (capped at the threshold, the maximum
 * input: a larger need then fails on chain with the slippage error). Throws EngineError
 * `PUMPSWAP_MISSING_ACCOUNT` when the pool or its GlobalConfig is not in `params.accounts`.
 */
export function pumpswapSwapInstruction(params: SwapInstructionParams): BuiltInstruction {
  const { pool } = params;
  const poolData = params.accounts.get(pool.address);
  if (!poolData || !isPoolAccount(poolData)) throw missing(pool.address, 'pool account');
  const [globalKey, feeKey, , baseVaultKey, quoteVaultKey] = pool.dependencies;
  const globalData = globalKey === undefined ? undefined : params.accounts.get(globalKey);
  if (!globalData || !isGlobalConfigAccount(globalData)) throw missing(pool.address, 'GlobalConfig');
  const p = decodePoolAccount(poolData);
  const global = decodeGlobalConfig(globalData);
  const baseTokenProgram = tokenProgramOf(baseVaultKey ? params.accounts.get(baseVaultKey) : undefined, params.accounts.get(p.baseMint));
  const quoteTokenProgram = tokenProgramOf(quoteVaultKey ? params.accounts.get(quoteVaultKey) : undefined, params.accounts.get(p.quoteMint));
  const fees = feeAccountsOf(p, global, quoteTokenProgram);
  const sell = params.aToB;
  const [userBase, userQuote] = sell
    ? [params.userSourceTokenAccount, params.userDestinationTokenAccount]
    : [params.userDestinationTokenAccount, params.userSourceTokenAccount];

  const keys: InstructionAccount[] = [
    meta(pool.address, true),
    meta(params.user, true, true),
    meta(globalKey ?? globalConfigAddress(), false),
    meta(p.baseMint, false),
    meta(p.quoteMint, false),
    meta(userBase, true),
    meta(userQuote, true),
    meta(p.poolBaseTokenAccount, true),
    meta(p.poolQuoteTokenAccount, true),
    meta(fees.protocolFeeRecipient, false),
    meta(fees.protocolFeeAccount, true),
    meta(baseTokenProgram, false),
    meta(quoteTokenProgram, false),
    meta(SYSTEM_PROGRAM_ID, false),
    meta(ASSOCIATED_TOKEN_PROGRAM_ID, false),
    meta(eventAuthorityAddress(), false),
    meta(PUMPSWAP_PROGRAM_ID, false),
    meta(fees.coinCreatorVaultAccount, true),
    meta(fees.coinCreatorVaultAuthority, false),
  ];
  const userVolume = userVolumeAccumulatorAddress(params.user);
  if (!sell) keys.push(meta(globalVolumeAccumulatorAddress(), false), meta(userVolume, true));
  keys.push(meta(feeKey ?? feeConfigAddress(), false), meta(PUMP_FEES_PROGRAM_ID, false));
  // Remaining accounts, in the SDK builders' order.
  if (p.isCashbackCoin) {
    keys.push(meta(associatedTokenAddress(userVolume, p.quoteMint, quoteTokenProgram), true));
    if (sell) keys.push(meta(userVolume, true));
  }
  if (p.coinCreator !== ZERO_KEY) keys.push(meta(poolV2Address(p.baseMint), false));
  keys.push(meta(fees.buybackFeeRecipient, false), meta(fees.buybackFeeAccount, true));

  let disc: Uint8Array;
  let first = params.amount;
  let second = params.otherAmountThreshold;
  if (sell) {
    disc = SELL_DISCRIMINATOR;
    if (params.mode === 'ExactOut') {
      // No exact-out sell on chain: sell the smallest base that pays `amount`, with `amount` as the minimum out.
      const state = buildPumpswapState(pool, poolData, params.accounts, { slot: 0n, unixTimestamp: 0n, epoch: 0n });
      const q = state ? pumpswapQuote(state, true, params.amount, 'ExactOut') : null;
      const maxIn = params.otherAmountThreshold;
      first = q && q.status === 'OK' && q.inAmount < maxIn ? q.inAmount : maxIn;
      second = params.amount;
    }
  } else {
    disc = params.mode === 'ExactIn' ? BUY_EXACT_QUOTE_IN_DISCRIMINATOR : BUY_DISCRIMINATOR;
  }
  const data = new Uint8Array(sell ? 24 : 25);
  const dv = new DataView(data.buffer);
  data.set(disc, 0);
  dv.setBigUint64(8, first, true);
  dv.setBigUint64(16, second, true);
  // track_volume: OptionBool(true), as the SDK's builders pass it.
  if (!sell) data[24] = 1;
  return { programId: PUMPSWAP_PROGRAM_ID, keys, data };
}
