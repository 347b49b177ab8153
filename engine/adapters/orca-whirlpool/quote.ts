/**
 * The exact Whirlpool quote in the adapter contract's terms: {@link computeWhirlpoolSwap} on a
 * {@link WhirlpoolState} at the state's chain clock. The fee is on the input.
 */
import type { QuoteResult, SwapMode } from '../types.js';
import { WHIRLPOOL_STATUS_OK, type WhirlpoolState } from './state.js';
import { computeWhirlpoolSwap } from './swap.js';

/**
 * Exact quote of `amount` (exact-in: paid; exact-out: received). Statuses: INACTIVE (a state that cannot trade,
 * a clock before the Oracle's trade-enable time or its last update), ZERO_AMOUNT, INSUFFICIENT_LIQUIDITY (the
 * price bound reached before the amount is filled, more than the program's three-array window, an amount above
 * u64), DEPTH_UNKNOWN (the walk reached a tick array the state does not hold).
 */
export function whirlpoolQuote(state: WhirlpoolState, aToB: boolean, amount: bigint, mode: SwapMode): QuoteResult {
  if (state.status !== WHIRLPOOL_STATUS_OK) return { status: 'INACTIVE', inAmount: 0n, outAmount: 0n, feeAmount: 0n, feeOnInput: true };
  const s = computeWhirlpoolSwap(state, state.ticks, aToB, amount, mode === 'ExactIn', state.timestamp, false);
  return { status: s.status, inAmount: s.amountIn, outAmount: s.amountOut, feeAmount: s.feeAmount, feeOnInput: true };
}
