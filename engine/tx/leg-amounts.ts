/**
 * The amounts of a multi-leg swap with fixed amounts per leg: the route re-quoted leg by leg on the pools' current
 * state (`chainQuotes`), and each leg's instruction amount and bound from that chain (`legAmounts`).
 *
 * Why fixed amounts are decided this way (a leg's instruction carries a number, not "whatever the previous leg
 * paid"): each intermediate leg must deliver at least what the next leg is offered, so that the transaction never
 * fails for want of an intermediate balance. ExactIn: the first leg is offered the quote's amount; leg i > 0 is
 * offered exactly the fresh output of leg i - 1, and leg i - 1's on-chain minimum is that same amount; the last
 * leg's minimum is the quote's `otherAmountThreshold` (the user's slippage bound). Unmoved pools deliver exactly the
 * chain's figures and leave no intermediate residue; an intermediate pool that moved against the user between the
 * build and the landing makes that leg refuse (the user pays the fee only, never gets less than displayed on a
 * leg); a move in the user's favour leaves the surplus in the user's intermediate token account. ExactOut mirrors
 * it: the last leg buys the quote's output, leg i < last buys exactly what leg i + 1 needs (its maximum in is that
 * same amount), the first leg's maximum in is the quote's `otherAmountThreshold`.
 */
import type { QuoteResult, SwapMode } from '../adapters/types.js';

/** One leg re-quoted: what it is offered (ExactIn) or must deliver (ExactOut), and the exact quote. */
export interface ChainedLeg {
  /** ExactIn: the input offered to the leg; ExactOut: the output the leg must deliver. */
  readonly amount: bigint;
  readonly inAmount: bigint;
  readonly outAmount: bigint;
}

/** A leg's exact quote on current state, in the route's mode. */
export type LegQuoter = (amount: bigint, mode: SwapMode) => QuoteResult;

/** The chain, or the leg that cannot quote (its status). */
export type ChainOutcome = { readonly ok: true; readonly legs: readonly ChainedLeg[] } | { readonly ok: false; readonly leg: number; readonly status: string };

/**
 * Re-quotes a route hop by hop: ExactIn forwards from `amount` (each leg offered the previous leg's output),
 * ExactOut backwards from `amount` (each leg asked for what the next leg needs).
 */
export function chainQuotes(mode: SwapMode, amount: bigint, quoters: readonly LegQuoter[]): ChainOutcome {
  const legs: ChainedLeg[] = new Array(quoters.length);
  let carry = amount;
  const order = quoters.map((_, i) => (mode === 'ExactIn' ? i : quoters.length - 1 - i));
  for (const i of order) {
    const q = quoters[i]!(carry, mode);
    if (q.status !== 'OK') return { ok: false, leg: i, status: q.status };
    legs[i] = { amount: carry, inAmount: q.inAmount, outAmount: q.outAmount };
    carry = mode === 'ExactIn' ? q.outAmount : q.inAmount;
  }
  return { ok: true, legs };
}

/** A leg's instruction numbers (`SwapInstructionParams.amount` and `otherAmountThreshold`). */
export interface LegAmount {
  readonly amount: bigint;
  readonly otherAmountThreshold: bigint;
}

/** Each leg's amount and bound per the rule above; `otherAmountThreshold` is the quote's. */
export function legAmounts(mode: SwapMode, legs: readonly ChainedLeg[], otherAmountThreshold: bigint): LegAmount[] {
  const last = legs.length - 1;
  return legs.map((l, i) =>
    mode === 'ExactIn'
      ? { amount: l.amount, otherAmountThreshold: i === last ? otherAmountThreshold : legs[i + 1]!.amount }
      : { amount: l.amount, otherAmountThreshold: i === 0 ? otherAmountThreshold : l.inAmount },
  );
}

/** The chain's totals: what the route spends and delivers if nothing moves (ExactIn: the first leg's offer). */
export function chainTotals(mode: SwapMode, legs: readonly ChainedLeg[]): { inAmount: bigint; outAmount: bigint } {
  const first = legs[0]!;
  const last = legs.at(-1)!;
  return { inAmount: mode === 'ExactIn' ? first.amount : first.inAmount, outAmount: last.outAmount };
}
