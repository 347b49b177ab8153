/**
 * The exact pump.fun quote: curve-level checks (complete, migrated, unsupported quote) first, then the math.
 * Token A is the coin, B the quote (SOL): `aToB` is a sell, `!aToB` a buy.
 */
import type { SwapMode } from '../types.js';
import {
  type CurveReserves,
  type PumpSwap,
  buyExactQuoteIn,
  buyExactTokensOut,
  failedSwap,
  sellExactQuoteOut,
  sellExactTokensIn,
} from './math.js';
import type { TradeFeeBps } from './fees.js';
import { PUMPFUN_STATUS_OK, type PumpfunState } from './state.js';

/**
 * The math of one trade on a curve, whatever its status (the differential test and non-SOL curves use it):
 * sell exact-in (`sell`), sell exact-out (inverted `sell`), buy exact-in (`buy_exact_sol_in`), buy exact-out
 * (`buy`, capped at the real token reserves).
 */
export function pumpfunCurveQuote(r: CurveReserves, fees: TradeFeeBps, aToB: boolean, amount: bigint, mode: SwapMode): PumpSwap {
  if (aToB) return mode === 'ExactIn' ? sellExactTokensIn(amount, r, fees) : sellExactQuoteOut(amount, r, fees);
  return mode === 'ExactIn' ? buyExactQuoteIn(amount, r, fees) : buyExactTokensOut(amount, r, fees);
}

/**
 * Exact quote of a swap of `amount` (exact-in: paid; exact-out: received) with the program's rounding. Never
 * throws on expected outcomes: INACTIVE (complete, migrated, no fee schedule, non-SOL quote), ZERO_AMOUNT,
 * INSUFFICIENT_LIQUIDITY.
 */
export function pumpfunQuote(state: PumpfunState, aToB: boolean, amount: bigint, mode: SwapMode): PumpSwap {
  if (state.status !== PUMPFUN_STATUS_OK) {
    return failedSwap('INACTIVE', !aToB, mode === 'ExactIn' ? amount : 0n, mode === 'ExactOut' ? amount : 0n);
  }
  return pumpfunCurveQuote(state, state, aToB, amount, mode);
}
