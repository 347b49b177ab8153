/**
 * The exact CPMM quote: the program's math on a {@link CpmmState}, with the pool-level checks first and the
 * Token-2022 transfer fees of both mints around the curve, as `swap_base_input` / `swap_base_output` apply them.
 */
import { inverseTransferFee, transferFee } from '../common/transfer-fee.js';
import type { SwapMode } from '../types.js';
import { type CpmmSwap, U64_MAX, isCreatorFeeOnInput, swapBaseInput, swapBaseOutput } from './math.js';
import { CPMM_STATUS_OK, type CpmmState } from './state.js';

/** A CPMM quote with the token movements around the pool (they differ from the user's amounts by transfer fees). */
export interface CpmmQuote extends CpmmSwap {
  /** What the user's transfer into the input vault sends (= `inAmount`). */
  readonly transferIn: bigint;
  /** What the output vault sends; the user receives it less the output mint's transfer fee (= `outAmount`). */
  readonly transferOut: bigint;
  /**
   * `TokenOverflow` when the swap's math succeeds but the user -> input vault transfer fails (the vault's amount
   * plus what it is credited would pass u64: the token program's Overflow); the amounts are then the ones the
   * program computed before the transfer. Null otherwise.
   */
  readonly failure: 'TokenOverflow' | null;
}

function rejected(status: 'INACTIVE' | 'INSUFFICIENT_LIQUIDITY' | 'ZERO_AMOUNT', amount: bigint, mode: SwapMode, onInput: boolean): CpmmQuote {
  return {
    transferIn: 0n,
    transferOut: 0n,
    failure: null,
    status,
    inAmount: mode === 'ExactIn' ? amount : 0n,
    outAmount: mode === 'ExactOut' ? amount : 0n,
    feeAmount: 0n,
    feeOnInput: true,
    tradeFee: 0n,
    creatorFee: 0n,
    protocolFee: 0n,
    fundFee: 0n,
    creatorFeeOnInput: onInput,
    swappedIn: 0n,
    swappedOut: 0n,
  };
}

/**
 * Exact quote of a swap of `amount` (exact-in: paid; exact-out: to be received) with the program's rounding.
 * `inAmount` is what the user sends, `outAmount` what the user's account receives after the output mint's
 * transfer fee. Never throws on expected outcomes: INACTIVE (swap disabled, not open yet, a fee setup the program
 * rejects), ZERO_AMOUNT (also when transfer fees leave nothing), INSUFFICIENT_LIQUIDITY (including an amount above
 * u64, which no instruction can carry, and an input that would take the input vault above u64: failure
 * `TokenOverflow`). Token 0 is A: `aToB` is the program's ZeroForOne.
 */
export function cpmmQuote(state: CpmmState, aToB: boolean, amount: bigint, mode: SwapMode): CpmmQuote {
  const q = cpmmMathQuote(state, aToB, amount, mode);
  if (q.status !== 'OK') return q;
  // The user -> input vault transfer comes last (after the slippage check and update_fees); the token program
  // credits the vault the amount less the input mint's transfer fee and fails with Overflow above u64.
  const feeIn = aToB ? state.transferFee0 : state.transferFee1;
  const credited = q.transferIn - transferFee(feeIn, q.transferIn);
  if ((aToB ? state.vault0 : state.vault1) + credited > U64_MAX) return { ...q, status: 'INSUFFICIENT_LIQUIDITY', failure: 'TokenOverflow' };
  return q;
}

/** The quote up to the transfers: the program's checks and math, Token-2022 fees included. */
function cpmmMathQuote(state: CpmmState, aToB: boolean, amount: bigint, mode: SwapMode): CpmmQuote {
  const onInput = isCreatorFeeOnInput(state.creatorFeeOn, aToB);
  if (state.status !== CPMM_STATUS_OK) return rejected('INACTIVE', amount, mode, onInput);
  if (amount > U64_MAX) return rejected('INSUFFICIENT_LIQUIDITY', amount, mode, onInput);
  const rin = aToB ? state.reserve0 : state.reserve1;
  const rout = aToB ? state.reserve1 : state.reserve0;
  const feeIn = aToB ? state.transferFee0 : state.transferFee1;
  const feeOut = aToB ? state.transferFee1 : state.transferFee0;
  if (mode === 'ExactIn') {
    // swap_base_input: the input mint's fee comes off first (actual_amount_in, which must stay > 0); the
    // output mint's fee off what the vault sends (amount_received, which must stay > 0).
    const actualIn = amount - transferFee(feeIn, amount);
    if (amount > 0n && actualIn === 0n) return rejected('ZERO_AMOUNT', amount, mode, onInput);
    const r = swapBaseInput(actualIn, rin, rout, state.rates, onInput);
    if (r.status !== 'OK') return { ...r, inAmount: amount, transferIn: 0n, transferOut: 0n, failure: null };
    const received = r.outAmount - transferFee(feeOut, r.outAmount);
    if (received === 0n) return { ...r, status: 'ZERO_AMOUNT', inAmount: amount, outAmount: 0n, transferIn: 0n, transferOut: 0n, failure: null };
    return { ...r, inAmount: amount, outAmount: received, transferIn: amount, transferOut: r.outAmount, failure: null };
  }
  // swap_base_output: the vault sends amount_out_less_fee plus the output mint's inverse fee; the user sends what
  // the curve needs plus the input mint's inverse fee.
  const actualOut = amount + inverseTransferFee(feeOut, amount);
  if (actualOut > U64_MAX) return rejected('INSUFFICIENT_LIQUIDITY', amount, mode, onInput);
  const r = swapBaseOutput(actualOut, rin, rout, state.rates, onInput);
  if (r.status !== 'OK') return { ...r, outAmount: amount, transferIn: 0n, transferOut: 0n, failure: null };
  const transferIn = r.inAmount + inverseTransferFee(feeIn, r.inAmount);
  if (transferIn > U64_MAX) return rejected('INSUFFICIENT_LIQUIDITY', amount, mode, onInput);
  const received = actualOut - transferFee(feeOut, actualOut);
  return { ...r, inAmount: transferIn, outAmount: received, transferIn, transferOut: actualOut, failure: null };
}
