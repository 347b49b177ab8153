/**
 * The program's trade instructions for SOL-quoted curves (IDL in `@pump-fun/pump-sdk`): `buy` (exact tokens
 * out, max SOL cost), `buy_exact_sol_in` (SOL budget, min tokens out) and `sell` (exact tokens in, min SOL out),
 * with the accounts of their contexts in declaration order plus the two remaining accounts the SDK's builders
 * append (bonding_curve_v2, buyback fee recipient). A sell for an exact SOL amount out has no instruction: it is
 * built as the `sell` of the smallest token input that yields it.
 */
import { EngineError } from '../../errors.js';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../common/spl-layouts.js';
import type { BuiltInstruction, InstructionAccount, SwapInstructionParams } from '../types.js';
import { SYSTEM_PROGRAM_ID, PUMPFUN_MINT_NOT_REGISTERED } from './constants.js';
import { feeConfigAddress, associatedTokenAddress, bondingCurveV2Address, creatorVaultAddress, eventAuthorityAddress, globalAddress, globalVolumeAccumulatorAddress, userVolumeAccumulatorAddress } from './pda.js';
import { PUMP_FEES_PROGRAM_ID, PUMPFUN_PROGRAM_ID, ZERO_KEY, decodeBondingCurve, decodeGlobal, isBondingCurveAccount, isGlobalAccount } from './layout.js';
import { pumpfunQuote } from './quote.js';
import { PUMPFUN_STATUS_NON_SOL_QUOTE, buildPumpfunState } from './state.js';
import { isSolLikeQuoteMint } from './fees.js';

/** sha256("global:buy")[0..8]. */
export const BUY_DISCRIMINATOR: Uint8Array = Uint8Array.of(102, 6, 61, 18, 1, 218, 235, 234);
/** sha256("global:buy_exact_sol_in")[0..8]. */
export const BUY_EXACT_SOL_IN_DISCRIMINATOR: Uint8Array = Uint8Array.of(56, 252, 116, 8, 158, 223, 205, 95);
/** sha256("global:sell")[0..8]. */
export const SELL_DISCRIMINATOR: Uint8Array = Uint8Array.of(51, 230, 133, 164, 1, 127, 131, 173);

/**
 * Buyback fee recipient when Global lists none (the SDK's first static one). The program checks it against
 * Global.buyback_fee_recipients when it has any.
 */
export const DEFAULT_BUYBACK_FEE_RECIPIENT = '5YxQFdt3Tr9zJLvkFccqXVUwhdTWJQc1fFg2YPbxvxeD';

function meta(pubkey: string, isWritable: boolean, isSigner = false): InstructionAccount {
  return { pubkey, isSigner, isWritable };
}

/** Instruction data: discriminator, two u64 arguments and (buys) `track_volume: OptionBool` = false. */
function data(disc: Uint8Array, a: bigint, b: bigint, trackVolume: boolean | null): Uint8Array {
  const out = new Uint8Array(trackVolume === null ? 24 : 25);
  out.set(disc, 0);
  const dv = new DataView(out.buffer);
  dv.setBigUint64(8, a, true);
  dv.setBigUint64(16, b, true);
  if (trackVolume !== null) out[24] = trackVolume ? 1 : 0;
  return out;
}

/** Accounts a trade instruction names, derived from the curve, Global and the mint. */
export interface PumpfunTradeAccounts {
  readonly global: string;
  readonly feeRecipient: string;
  readonly mint: string;
  readonly bondingCurve: string;
  readonly associatedBondingCurve: string;
  readonly associatedUser: string;
  readonly user: string;
  readonly tokenProgram: string;
  readonly creatorVault: string;
  readonly buybackFeeRecipient: string;
}

/** The account metas of `buy` / `buy_exact_sol_in` (identical contexts) or `sell`. */
export function tradeKeys(a: PumpfunTradeAccounts, isBuy: boolean): InstructionAccount[] {
  const head = [
    meta(a.global, false), meta(a.feeRecipient, true), meta(a.mint, false), meta(a.bondingCurve, true),
    meta(a.associatedBondingCurve, true), meta(a.associatedUser, true), meta(a.user, true, true), meta(SYSTEM_PROGRAM_ID, false),
  ];
  const tail = [meta(bondingCurveV2Address(a.mint), false), meta(a.buybackFeeRecipient, true)];
  if (isBuy) {
    return [
      ...head, meta(a.tokenProgram, false), meta(a.creatorVault, true), meta(eventAuthorityAddress(), false),
      meta(PUMPFUN_PROGRAM_ID, false), meta(globalVolumeAccumulatorAddress(), false), meta(userVolumeAccumulatorAddress(a.user), true),
      meta(feeConfigAddress(), false), meta(PUMP_FEES_PROGRAM_ID, false), ...tail,
    ];
  }
  return [
    ...head, meta(a.creatorVault, true), meta(a.tokenProgram, false), meta(eventAuthorityAddress(), false),
    meta(PUMPFUN_PROGRAM_ID, false), meta(feeConfigAddress(), false), meta(PUMP_FEES_PROGRAM_ID, false), ...tail,
  ];
}

const NO_CLOCK = { slot: 0n, unixTimestamp: 0n, epoch: 0n };

/**
 * Builds the trade instruction. `aToB` sells, `!aToB` buys. Exact-in buy: `buy_exact_sol_in(amount, min out)`;
 * exact-out buy: `buy(amount, max in)`; exact-in sell: `sell(amount, min out)`; exact-out sell:
 * `sell(min(t, max in), amount)` with t the smallest input that yields `amount` on the current state (so a
 * price move fails on chain with TooLittleSolReceived). `userDestinationTokenAccount` (buy) or
 * `userSourceTokenAccount` (sell) is the user's token account; SOL moves from and to `user` itself.
 * Throws EngineError on caller bugs: curve or Global missing (`PUMPFUN_MISSING_ACCOUNT`), the curve's mint not
 * registered (`PUMPFUN_MINT_NOT_REGISTERED`), a non-SOL quote curve (`PUMPFUN_UNSUPPORTED_QUOTE`), an exact-out
 * sell the state cannot fill (`PUMPFUN_UNQUOTABLE`).
 */
export function pumpfunSwapInstruction(params: SwapInstructionParams): BuiltInstruction {
  const { pool } = params;
  const curveData = params.accounts.get(pool.address);
  const [globalKey] = pool.dependencies;
  const globalData = globalKey === undefined ? undefined : params.accounts.get(globalKey);
  if (!curveData || !isBondingCurveAccount(curveData) || !globalData || !isGlobalAccount(globalData)) {
    throw new EngineError('PUMPFUN_MISSING_ACCOUNT', 'pump.fun curve or Global account missing or invalid', { pool: pool.address });
  }
  const curve = decodeBondingCurve(curveData);
  if (!isSolLikeQuoteMint(curve.quoteMint)) {
    throw new EngineError('PUMPFUN_UNSUPPORTED_QUOTE', 'buy_v2/sell_v2 for non-SOL quote curves are not modelled', { pool: pool.address, status: PUMPFUN_STATUS_NON_SOL_QUOTE });
  }
  // The descriptor's last dependency is the curve's associated token account: its address gives the token program.
  const curveAta = pool.dependencies[pool.dependencies.length - 1];
  const tokenProgram = [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID].find((p) => associatedTokenAddress(pool.address, pool.mintA, p) === curveAta);
  if (!tokenProgram) throw new EngineError(PUMPFUN_MINT_NOT_REGISTERED, 'the descriptor does not name the curve\'s token account', { pool: pool.address });
  const info = { mint: pool.mintA, tokenProgram };
  const global = decodeGlobal(globalData);
  const feeRecipient = curve.isMayhemMode ? global.reservedFeeRecipient : global.feeRecipient;
  const buyback = global.buybackFeeRecipients.find((k) => k !== ZERO_KEY) ?? DEFAULT_BUYBACK_FEE_RECIPIENT;
  const isBuy = !params.aToB;
  const userTokenAccount = isBuy ? params.userDestinationTokenAccount : params.userSourceTokenAccount;
  const keys = tradeKeys({
    global: globalAddress(), feeRecipient, mint: info.mint, bondingCurve: pool.address,
    associatedBondingCurve: associatedTokenAddress(pool.address, info.mint, info.tokenProgram), associatedUser: userTokenAccount,
    user: params.user, tokenProgram: info.tokenProgram, creatorVault: creatorVaultAddress(curve.creator), buybackFeeRecipient: buyback,
  }, isBuy);
  let ixData: Uint8Array;
  if (isBuy) {
    ixData = params.mode === 'ExactIn'
      ? data(BUY_EXACT_SOL_IN_DISCRIMINATOR, params.amount, params.otherAmountThreshold, false)
      : data(BUY_DISCRIMINATOR, params.amount, params.otherAmountThreshold, false);
  } else if (params.mode === 'ExactIn') {
    ixData = data(SELL_DISCRIMINATOR, params.amount, params.otherAmountThreshold, null);
  } else {
    const state = buildPumpfunState(pool, curveData, params.accounts, NO_CLOCK);
    const q = state ? pumpfunQuote(state, true, params.amount, 'ExactOut') : null;
    if (!q || q.status !== 'OK') throw new EngineError('PUMPFUN_UNQUOTABLE', 'no token input yields this SOL amount', { pool: pool.address, status: q?.status ?? null });
    const tokens = q.inAmount < params.otherAmountThreshold ? q.inAmount : params.otherAmountThreshold;
    ixData = data(SELL_DISCRIMINATOR, tokens, params.amount, null);
  }
  return { programId: PUMPFUN_PROGRAM_ID, keys, data: ixData };
}
