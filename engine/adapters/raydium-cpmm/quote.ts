/**
 * The exact CPMM quote: the program's math on a {@link CpmmState}, with the pool-level checks first.
 */
import type { SwapMode } from '../types.js';
import { type CpmmSwap, U64_MAX, isCreatorFeeOnInput, swapBaseInput, swapBaseOutput } from './math.js';
import { CPMM_STATUS_OK, type CpmmState } from './state.js';

function rejected(status: 'INACTIVE' | 'INSUFFICIENT_LIQUIDITY', amount: bigint, mode: SwapMode, onInput: boolean): CpmmSwap {
  return {
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
 * Exact quote of a swap of `amount` (exact-in: paid; exact-out: received) with the program's rounding.
 * Never throws on expected outcomes: INACTIVE (swap disabled, not open yet, a fee setup the program rejects),
 * ZERO_AMOUNT, INSUFFICIENT_LIQUIDITY (including an amount above u64, which no instruction can carry).
 * Token 0 is A: `aToB` is the program's ZeroForOne.
 */
export function cpmmQuote(state: CpmmState, aToB: boolean, amount: bigint, mode: SwapMode): CpmmSwap {
  const onInput = isCreatorFeeOnInput(state.creatorFeeOn, aToB);
  if (state.status !== CPMM_STATUS_OK) return rejected('INACTIVE', amount, mode, onInput);
  if (amount > U64_MAX) return rejected('INSUFFICIENT_LIQUIDITY', amount, mode, onInput);
  const rin = aToB ? state.reserve0 : state.reserve1;
  const rout = aToB ? state.reserve1 : state.reserve0;
  return mode === 'ExactIn'
    ? swapBaseInput(amount, rin, rout, state.rates, onInput)
    : swapBaseOutput(amount, rin, rout, state.rates, onInput);
}
