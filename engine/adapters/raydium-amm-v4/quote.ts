/**
 * The exact AMM v4 quote: the program's math on an {@link AmmV4State}, with the pool-level checks first.
 */
import type { SwapMode } from '../types.js';
import { type AmmV4Failure, type AmmV4Swap, U64_MAX, swapBaseIn, swapBaseOut } from './math.js';
import { AMM_V4_STATUS_OK, type AmmV4State } from './state.js';

function rejected(status: 'INACTIVE' | 'INSUFFICIENT_LIQUIDITY' | 'ZERO_AMOUNT', amount: bigint, mode: SwapMode, failure: AmmV4Failure | null = null): AmmV4Swap {
  return {
    status,
    inAmount: mode === 'ExactIn' ? amount : 0n,
    outAmount: mode === 'ExactOut' ? amount : 0n,
    feeAmount: 0n,
    feeOnInput: true,
    swapFee: 0n,
    failure,
  };
}

/**
 * Exact quote of a swap of `amount` (exact-in: paid; exact-out: received) with the program's rounding.
 * Never throws on expected outcomes: INACTIVE (record status nonzero), ZERO_AMOUNT (amount 0, or an output
 * that rounds to 0), INSUFFICIENT_LIQUIDITY (an empty side, an output at or above the reserve, an input above
 * u64, an amount above u64 which no instruction can carry, an input that would take the input vault above u64:
 * the token program's transfer fails with Overflow, failure `TokenOverflow`). Coin is A: `aToB` is Coin2PC.
 */
export function ammV4Quote(state: AmmV4State, aToB: boolean, amount: bigint, mode: SwapMode): AmmV4Swap {
  if (state.status !== AMM_V4_STATUS_OK) return rejected('INACTIVE', amount, mode);
  if (amount === 0n) return rejected('ZERO_AMOUNT', amount, mode);
  if (amount > U64_MAX) return rejected('INSUFFICIENT_LIQUIDITY', amount, mode);
  const rin = aToB ? state.reserveCoin : state.reservePc;
  const rout = aToB ? state.reservePc : state.reserveCoin;
  const num = state.swapFeeNumerator;
  const den = state.swapFeeDenominator;
  const r = mode === 'ExactIn' ? swapBaseIn(amount, rin, rout, num, den) : swapBaseOut(amount, rin, rout, num, den);
  // The user -> vault transfer comes after the math: the token program refuses a destination above u64.
  if (r.status === 'OK' && (aToB ? state.vaultCoin : state.vaultPc) + r.inAmount > U64_MAX) {
    return rejected('INSUFFICIENT_LIQUIDITY', amount, mode, 'TokenOverflow');
  }
  return r;
}
