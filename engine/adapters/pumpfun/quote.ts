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
import { type CurveFeeParams, type TradeFeeBps, isSolLikeQuoteMint } from './fees.js';
import { type PumpFeeTable, resolveTradeFees } from './fee-table.js';
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

/** A decoded curve as the fee selection and the math read it (`BondingCurveFields` is one). */
export interface QuotableCurve extends CurveReserves, CurveFeeParams {
  readonly complete: boolean;
}

/**
 * The quote of {@link pumpfunQuote} from the decoded curve instead of the built state: the fee tier is resolved
 * from the curve's market cap on each call (as the SDK does), through a table compiled once per Global and
 * FeeConfig (`compileFeeTable`). Same statuses: INACTIVE for a complete, migrated or non-SOL curve and for a fee
 * schedule that cannot be selected. `mintSupply` is read only in mayhem mode.
 */
export function pumpfunQuoteResolvingFees(
  curve: QuotableCurve, table: PumpFeeTable, mintSupply: bigint | null, aToB: boolean, amount: bigint, mode: SwapMode,
): PumpSwap {
  const fees = curve.complete || curve.virtualTokenReserves === 0n || !isSolLikeQuoteMint(curve.quoteMint)
    ? null
    : resolveTradeFees(table, curve, mintSupply);
  if (fees === null) return failedSwap('INACTIVE', !aToB, mode === 'ExactIn' ? amount : 0n, mode === 'ExactOut' ? amount : 0n);
  return pumpfunCurveQuote(curve, fees, aToB, amount, mode);
}
