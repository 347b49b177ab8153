/**
 * The exact PumpSwap quote: the program's math on a {@link PumpswapState}, with the pool-level checks first.
 * A is the base mint, B the quote mint: aToB is a sell, B -> A a buy.
 */
import type { SwapMode } from '../types.js';
import { DISABLE_BUY, DISABLE_SELL } from './layout.js';
import { type PumpswapReserves, type PumpswapSwap, buyBaseOut, buyQuoteIn, failedSwap, sellBaseIn, sellQuoteOut } from './math.js';
import { PUMPSWAP_STATUS_OK, type PumpswapState } from './state.js';

/** The reserves view of a state. */
export function reservesOf(state: PumpswapState): PumpswapReserves {
  return { base: state.baseReserve, quote: state.quoteReserve, quoteVault: state.quoteVault };
}

/**
 * Exact quote of a swap of `amount` (exact-in: paid; exact-out: received) with the program's rounding.
 * sell ExactIn = `sell`; sell ExactOut = the smallest `sell` that pays the amount (no instruction of its own);
 * buy ExactIn = `buy_exact_quote_in` (inAmount is what it actually charges, <= amount); buy ExactOut = `buy`.
 * INACTIVE when the pool's status is not OK or the GlobalConfig disables the direction.
 */
export function pumpswapQuote(state: PumpswapState, aToB: boolean, amount: bigint, mode: SwapMode): PumpswapSwap {
  const exactIn = mode === 'ExactIn';
  const disabled = (state.disableFlags & (aToB ? DISABLE_SELL : DISABLE_BUY)) !== 0;
  if (state.status !== PUMPSWAP_STATUS_OK || disabled) return failedSwap('INACTIVE', amount, exactIn, aToB);
  const r = reservesOf(state);
  if (aToB) return exactIn ? sellBaseIn(amount, r, state.fees) : sellQuoteOut(amount, r, state.fees);
  return exactIn ? buyQuoteIn(amount, r, state.fees) : buyBaseOut(amount, r, state.fees);
}
