/**
 * The exact DBC quote: the program's swap math on a {@link DbcState}, with the pool-level checks first, as a
 * {@link QuoteResult} (plus the program's fee split and the next sqrt price for execute).
 */
import type { QuoteResult, QuoteStatus, SwapMode } from '../types.js';
import { type DbcError, U64_MAX } from './curve-math.js';
import { DBC_STATUS_OK, type DbcState } from './state.js';
import { type DbcSwapResult, feeMode, swapExactIn, swapExactOut } from './swap-math.js';

/** A DBC quote: the QuoteResult plus what the program books. Zero fields when not OK. */
export interface DbcSwap extends QuoteResult {
  /** The program error the swap would fail with, when not OK (null when OK or rejected before the math). */
  readonly error: DbcError | null;
  /** Amount that enters the curve and the input reserve (input minus an input-side fee). */
  readonly excludedFeeInputAmount: bigint;
  /** Amount that leaves the output reserve (output plus an output-side fee). */
  readonly reserveOutAmount: bigint;
  readonly nextSqrtPrice: bigint;
  /** Partner + creator share of the fee; `protocolFee` is 20% of the fee (floor). */
  readonly tradingFee: bigint;
  readonly protocolFee: bigint;
  readonly partnerFee: bigint;
  readonly creatorFee: bigint;
  /** The fee is accrued in the base token (collect fee mode 1 on quote-to-base swaps). */
  readonly feesOnBaseToken: boolean;
  /** Total fee numerator applied (per 1e9). */
  readonly feeNumerator: bigint;
  /**
   * `TokenOverflow` when the program's math and checks pass but the user's transfer of `inAmount` into the input
   * vault (base for sells, quote for buys) would take it above u64: the token program fails with Overflow. The
   * status is then INSUFFICIENT_LIQUIDITY with the amounts the program computed. Null otherwise.
   */
  readonly failure: 'TokenOverflow' | null;
}

function rejected(status: QuoteStatus, amount: bigint, mode: SwapMode, feeOnInput: boolean, error: DbcError | null): DbcSwap {
  return {
    status, error,
    inAmount: mode === 'ExactIn' ? amount : 0n,
    outAmount: mode === 'ExactOut' ? amount : 0n,
    feeAmount: 0n, feeOnInput, excludedFeeInputAmount: 0n, reserveOutAmount: 0n, nextSqrtPrice: 0n,
    tradingFee: 0n, protocolFee: 0n, partnerFee: 0n, creatorFee: 0n, feesOnBaseToken: false, feeNumerator: 0n, failure: null,
  };
}

/** Quote status of a program error: a zero amount, a config the program cannot price, or not enough curve. */
function statusOf(e: DbcError): QuoteStatus {
  if (e === 'AmountIsZero') return 'ZERO_AMOUNT';
  if (e === 'UndeterminedError' || e === 'PoolIsCompleted') return 'INACTIVE';
  return 'INSUFFICIENT_LIQUIDITY';
}

function ok(state: DbcState, r: DbcSwapResult): DbcSwap {
  // split_partner_and_creator_fee: creator = floor(fee * pct / 100), partner = the rest (splitPartnerCreator).
  const pct = state.creatorTradingFeePercentage;
  const creatorFee = pct === 0 || r.tradingFee === 0n ? 0n : (r.tradingFee * BigInt(pct)) / 100n;
  const partnerFee = creatorFee === 0n ? r.tradingFee : r.tradingFee - creatorFee;
  return {
    status: 'OK', error: null,
    inAmount: r.includedFeeInputAmount, outAmount: r.outputAmount, feeAmount: r.tradingFee + r.protocolFee,
    feeOnInput: r.feesOnInput, excludedFeeInputAmount: r.excludedFeeInputAmount, reserveOutAmount: r.reserveOutAmount,
    nextSqrtPrice: r.nextSqrtPrice, tradingFee: r.tradingFee, protocolFee: r.protocolFee, partnerFee, creatorFee,
    feesOnBaseToken: r.feesOnBaseToken, feeNumerator: r.feeNumerator, failure: null,
  };
}

/**
 * Exact quote of a swap of `amount` (exact-in: paid; exact-out: received). A = base, so `aToB` sells base
 * (swap_base_for_quote). Statuses: INACTIVE (record status nonzero: migrated, curve complete, not activated, bad
 * config), ZERO_AMOUNT (amount 0, or an exact-in output of 0), INSUFFICIENT_LIQUIDITY (beyond the curve or the
 * migration price, a u64 overflow, an amount above u64, and an input that would take its vault above u64: failure
 * `TokenOverflow`).
 */
export function dbcQuote(state: DbcState, aToB: boolean, amount: bigint, mode: SwapMode): DbcSwap {
  const onInput = feeMode(state.collectFeeMode, aToB).feesOnInput;
  if (state.status !== DBC_STATUS_OK) return rejected('INACTIVE', amount, mode, onInput, 'PoolIsCompleted');
  if (amount <= 0n) return rejected('ZERO_AMOUNT', amount, mode, onInput, 'AmountIsZero');
  if (amount > U64_MAX) return rejected('INSUFFICIENT_LIQUIDITY', amount, mode, onInput, 'TypeCastFailed');
  const r = mode === 'ExactIn' ? swapExactIn(state, aToB, amount) : swapExactOut(state, aToB, amount);
  if (typeof r === 'string') return rejected(statusOf(r), amount, mode, onInput, r);
  // The program accepts an exact-in swap that pays nothing (with minimum_amount_out 0); it is no quote.
  if (r.outputAmount === 0n) return rejected('ZERO_AMOUNT', amount, mode, onInput, null);
  const q = ok(state, r);
  // After its slippage check and apply_swap_result (whose checked `reserve + excluded input` passed above), the
  // program transfers the whole input into the input vault, which also holds the unclaimed fees: the token program
  // fails the transfer with Overflow when the vault would pass u64.
  if ((aToB ? state.baseVault : state.quoteVault) + q.inAmount > U64_MAX) return { ...q, status: 'INSUFFICIENT_LIQUIDITY', failure: 'TokenOverflow' };
  return q;
}
