/**
 * The exact CPMM quote: the program's math on a {@link CpmmState}, with the pool-level checks first and the
 * Token-2022 transfer fees of both mints around the curve, as `swap_base_input` / `swap_base_output` apply them.
 */
import { TWO53_BIG } from '../common/exact-f64.js';
import { type TransferFee, inverseTransferFee, transferFee } from '../common/transfer-fee.js';
import type { SwapMode } from '../types.js';
import { U64_MAX, isCreatorFeeOnInput, swapBaseInput, swapBaseOutput } from './math.js';
import { CPMM_STATUS_OK, type CpmmState } from './state.js';
import { type CpmmSwap, cpmmSwap, failedSwap } from './swap-result.js';
import { swapInPair, swapOutPair } from './fast-math.js';
import { quoteView } from './quote-view.js';

/**
 * A CPMM quote: a {@link CpmmSwap} whose `transferIn` / `transferOut` are the token movements around the pool
 * (they differ from the user's amounts by transfer fees) and whose `failure` tells a vault overflow.
 */
export type CpmmQuote = CpmmSwap;

function rejected(status: 'INACTIVE' | 'INSUFFICIENT_LIQUIDITY' | 'ZERO_AMOUNT', amount: bigint, mode: SwapMode, onInput: boolean): CpmmQuote {
  return failedSwap(status, onInput, mode === 'ExactIn' ? amount : 0n, mode === 'ExactOut' ? amount : 0n);
}

/** `q` with another status, amounts, movements or failure (every other field kept). */
function amended(
  q: CpmmSwap, status: CpmmSwap['status'], inAmount: bigint, outAmount: bigint, transferIn: bigint, transferOut: bigint,
  failure: 'TokenOverflow' | null,
): CpmmQuote {
  return cpmmSwap(
    status, inAmount, outAmount, q.feeAmount, q.tradeFee, q.creatorFee, q.protocolFee, q.fundFee, q.creatorFeeOnInput,
    q.swappedIn, q.swappedOut, transferIn, transferOut, failure,
  );
}

/** Above this, a vault plus a credit below 2^53 may pass u64; below, it cannot (one bigint compare instead of a sum). */
const VAULT_SAFE = U64_MAX - TWO53_BIG;

/**
 * Exact quote of a swap of `amount` (exact-in: paid; exact-out: to be received) with the program's rounding.
 * `inAmount` is what the user sends, `outAmount` what the user's account receives after the output mint's
 * transfer fee. Never throws on expected outcomes: INACTIVE (swap disabled, not open yet, a fee setup the program
 * rejects), ZERO_AMOUNT (also when transfer fees leave nothing), INSUFFICIENT_LIQUIDITY (including an amount above
 * u64, which no instruction can carry, and an input that would take the input vault above u64: failure
 * `TokenOverflow`). Token 0 is A: `aToB` is the program's ZeroForOne.
 */
export function cpmmQuote(state: CpmmState, aToB: boolean, amount: bigint, mode: SwapMode): CpmmQuote {
  // The fast path (fast-math.ts on the state's cached view) answers every successful quote without transfer fees;
  // everything else, and every rejection, takes the bigint port below.
  const v = quoteView(state);
  if (v.fast && amount <= U64_MAX) {
    const q = mode === 'ExactIn' ? swapInPair(v, aToB, amount) : swapOutPair(v, aToB, amount);
    if (q !== null) return q;
  }
  const onInput = isCreatorFeeOnInput(state.creatorFeeOn, aToB);
  if (state.status !== CPMM_STATUS_OK) return rejected('INACTIVE', amount, mode, onInput);
  if (amount > U64_MAX) return rejected('INSUFFICIENT_LIQUIDITY', amount, mode, onInput);
  const rin = aToB ? state.reserve0 : state.reserve1;
  const rout = aToB ? state.reserve1 : state.reserve0;
  const feeIn = aToB ? state.transferFee0 : state.transferFee1;
  const feeOut = aToB ? state.transferFee1 : state.transferFee0;
  // Without transfer fees the swap math's result is the quote (its movements are its amounts).
  const q = feeIn === null && feeOut === null
    ? mode === 'ExactIn' ? swapBaseInput(amount, rin, rout, state.rates, onInput) : swapBaseOutput(amount, rin, rout, state.rates, onInput)
    : withTransferFees(state, amount, mode, onInput, rin, rout, feeIn, feeOut);
  if (q.status !== 'OK') return q;
  // The user -> input vault transfer comes last (after the slippage check and update_fees); the token program
  // credits the vault the amount less the input mint's transfer fee and fails with Overflow above u64.
  const vault = aToB ? state.vault0 : state.vault1;
  if (vault <= VAULT_SAFE && q.transferIn < TWO53_BIG) return q;
  const credited = q.transferIn - transferFee(feeIn, q.transferIn);
  if (vault + credited > U64_MAX) return amended(q, 'INSUFFICIENT_LIQUIDITY', q.inAmount, q.outAmount, q.transferIn, q.transferOut, 'TokenOverflow');
  return q;
}

/** The quote up to the vault transfer when a mint charges a Token-2022 transfer fee (the program's composition). */
function withTransferFees(
  state: CpmmState, amount: bigint, mode: SwapMode, onInput: boolean, rin: bigint, rout: bigint, feeIn: TransferFee | null,
  feeOut: TransferFee | null,
): CpmmQuote {
  if (mode === 'ExactIn') {
    // swap_base_input: the input mint's fee comes off first (actual_amount_in, which must stay > 0); the
    // output mint's fee off what the vault sends (amount_received, which must stay > 0).
    const actualIn = amount - transferFee(feeIn, amount);
    if (amount > 0n && actualIn === 0n) return rejected('ZERO_AMOUNT', amount, mode, onInput);
    const r = swapBaseInput(actualIn, rin, rout, state.rates, onInput);
    if (r.status !== 'OK') return amended(r, r.status, amount, r.outAmount, 0n, 0n, null);
    const received = r.outAmount - transferFee(feeOut, r.outAmount);
    if (received === 0n) return amended(r, 'ZERO_AMOUNT', amount, 0n, 0n, 0n, null);
    return amended(r, 'OK', amount, received, amount, r.outAmount, null);
  }
  // swap_base_output: the vault sends amount_out_less_fee plus the output mint's inverse fee; the user sends what
  // the curve needs plus the input mint's inverse fee.
  const actualOut = amount + inverseTransferFee(feeOut, amount);
  if (actualOut > U64_MAX) return rejected('INSUFFICIENT_LIQUIDITY', amount, mode, onInput);
  const r = swapBaseOutput(actualOut, rin, rout, state.rates, onInput);
  if (r.status !== 'OK') return amended(r, r.status, r.inAmount, amount, 0n, 0n, null);
  const transferIn = r.inAmount + inverseTransferFee(feeIn, r.inAmount);
  if (transferIn > U64_MAX) return rejected('INSUFFICIENT_LIQUIDITY', amount, mode, onInput);
  const received = actualOut - transferFee(feeOut, actualOut);
  return amended(r, 'OK', transferIn, received, transferIn, actualOut, null);
}
