/**
 * The exact LaunchLab quote: the SDK's curve math on a {@link LaunchlabState}, with the pool-level checks first.
 * `aToB` is a sell (A = the launched token in, B = the quote token out); `!aToB` is a buy.
 */
import type { SwapMode } from '../types.js';
import { curveOf } from './curves.js';
import { type LaunchlabSwap, U64_MAX, buyExactIn, buyExactOut, sellExactIn, sellExactOut } from './math.js';
import { LAUNCHLAB_STATUS_OK, type LaunchlabState } from './state.js';

function rejected(status: 'INACTIVE' | 'INSUFFICIENT_LIQUIDITY', aToB: boolean, amount: bigint, mode: SwapMode): LaunchlabSwap {
  return {
    status,
    inAmount: mode === 'ExactIn' ? amount : 0n,
    outAmount: mode === 'ExactOut' ? amount : 0n,
    feeAmount: 0n, feeOnInput: !aToB, protocolFee: 0n, platformFee: 0n, creatorFee: 0n, curveA: 0n, curveB: 0n,
  };
}

/**
 * Exact quote of `amount` (exact-in: paid; exact-out: received), share fee rate 0 (no referrer). Never throws on
 * expected outcomes. Differences from the usual contract, both from the program's cap at `total_sell_a`: a buy
 * exact-in that fills the curve reports the smaller re-priced `inAmount` it really pays, and a buy exact-out of
 * more than is left reports the remainder as `outAmount`. A buy whose input would take vault B above u64 is
 * INSUFFICIENT_LIQUIDITY with failure `TokenOverflow`.
 */
export function launchlabQuote(state: LaunchlabState, aToB: boolean, amount: bigint, mode: SwapMode): LaunchlabSwap {
  const curve = curveOf(state.curveType);
  if (state.status !== LAUNCHLAB_STATUS_OK || curve === null) return rejected('INACTIVE', aToB, amount, mode);
  if (amount > U64_MAX) return rejected('INSUFFICIENT_LIQUIDITY', aToB, amount, mode);
  if (aToB) return mode === 'ExactIn' ? sellExactIn(curve, state, state.rates, amount) : sellExactOut(curve, state, state.rates, amount);
  const q = mode === 'ExactIn' ? buyExactIn(curve, state, state.rates, amount) : buyExactOut(curve, state, state.rates, amount);
  // A buy's whole input goes into vault B (the fee vaults are paid out of it after): the token program refuses a
  // destination above u64. (A sell's input is at most real_a, which vault A gave out: it always fits.)
  if (q.status === 'OK' && state.vaultB + q.inAmount > U64_MAX) return { ...q, status: 'INSUFFICIENT_LIQUIDITY', failure: 'TokenOverflow' };
  return q;
}
