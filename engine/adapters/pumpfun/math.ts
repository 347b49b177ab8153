/**
 * Exact bigint math of the pump.fun bonding curve (a virtual constant product) with its fees, as the program
 * computes a trade. Pure, no I/O. Sources: the SDK's `bondingCurve.ts` / `fees.ts` and the `buy_exact_sol_in`
 * formulas documented in the program's IDL (the program is closed source).
 *
 * - buy, exact tokens out (`buy`): n = min(tokens, real_token_reserves); cost = floor(n*vQ/(vT-n)) + 1;
 *   the user pays cost + ceil(cost*protocol/1e4) + ceil(cost*creator/1e4). Same as the SDK.
 * - buy, exact SOL in (`buy_exact_sol_in`, IDL docs): net = floor(A*1e4/(1e4+bps)); if net + fees(net) > A,
 *   net -= the excess; tokens = floor((net-1)*vT/(vQ+net-1)), capped at real_token_reserves; the buy then
 *   charges cost(tokens) + fees(cost) <= A. The SDK's `getBuyTokenAmountFromSolAmount` uses
 *   floor((A-1)*1e4/(1e4+bps)) as the curve input instead: one or two lamports more in about 1% of cases
 *   (difference D1 in the README, counted apart in `math.diff.test.ts`).
 * - sell, exact tokens in (`sell`): sol = floor(t*vQ/(vT+t)); out = sol - ceil(sol*protocol/1e4) -
 *   ceil(sol*creator/1e4). Same as the SDK; we also require sol <= real_quote_reserves (D2).
 * - sell, exact SOL out: no instruction; the smallest token input whose exact-in output reaches the amount.
 *
 * `buyExactTokensOut`, `buyExactQuoteIn` and `sellExactTokensIn` take the f64 fast path of `fast-math.ts` when
 * every value of the trade is an integer below 2^53 and it succeeds, and this bigint port (`*Big`) otherwise; both
 * give the same result.
 */
import type { QuoteResult, QuoteStatus } from '../types.js';
import { buyExactQuoteInF64, buyExactTokensOutF64, sellExactTokensInF64 } from './fast-math.js';
import type { TradeFeeBps } from './fees.js';

/** Basis-point denominator. */
export const BPS = 10_000n;
/** Largest u64. */
export const U64_MAX = 0xffff_ffff_ffff_ffffn;

/** The four reserves of a curve (token and quote atoms). */
export interface CurveReserves {
  readonly virtualTokenReserves: bigint;
  readonly virtualQuoteReserves: bigint;
  readonly realTokenReserves: bigint;
  readonly realQuoteReserves: bigint;
}

/**
 * One pump.fun trade. Extends {@link QuoteResult}; fees are in the quote token (SOL): on the input for buys
 * (`feeOnInput`), on the output for sells.
 */
export interface PumpSwap extends QuoteResult {
  readonly isBuy: boolean;
  /** Tokens leaving (buy) or entering (sell) the curve. */
  readonly tokenAmount: bigint;
  /** Quote atoms entering (buy: the cost) or leaving (sell: gross, fees included) the curve's reserves. */
  readonly curveQuote: bigint;
  readonly protocolFee: bigint;
  readonly creatorFee: bigint;
}

/** ceil(x * bps / 1e4). */
export function feeOf(x: bigint, bps: bigint): bigint {
  return (x * bps + BPS - 1n) / BPS;
}

/** A non-OK result (amounts echo the request). */
export function failedSwap(status: QuoteStatus, isBuy: boolean, inAmount: bigint, outAmount: bigint): PumpSwap {
  return { status, inAmount, outAmount, feeAmount: 0n, feeOnInput: isBuy, isBuy, tokenAmount: 0n, curveQuote: 0n, protocolFee: 0n, creatorFee: 0n };
}

/** Cost in quote atoms of `n` tokens off the curve, before fees; null when the curve cannot give them. */
export function buyCost(n: bigint, r: CurveReserves): bigint | null {
  if (n >= r.virtualTokenReserves) return null;
  return (n * r.virtualQuoteReserves) / (r.virtualTokenReserves - n) + 1n;
}

/** A buy of exactly `n` (> 0, <= real) tokens with its fees; checks what the program checks on the accounts. */
function buyTokens(n: bigint, r: CurveReserves, fees: TradeFeeBps): PumpSwap {
  const cost = buyCost(n, r);
  if (cost === null) return failedSwap('INSUFFICIENT_LIQUIDITY', true, 0n, n);
  const protocolFee = feeOf(cost, fees.protocolFeeBps);
  const creatorFee = feeOf(cost, fees.creatorFeeBps);
  const total = cost + protocolFee + creatorFee;
  // The reserves and the user's debit are u64 on chain.
  if (total > U64_MAX || r.virtualQuoteReserves + cost > U64_MAX || r.realQuoteReserves + cost > U64_MAX) {
    return failedSwap('INSUFFICIENT_LIQUIDITY', true, total, n);
  }
  return {
    status: 'OK', inAmount: total, outAmount: n, feeAmount: protocolFee + creatorFee, feeOnInput: true,
    isBuy: true, tokenAmount: n, curveQuote: cost, protocolFee, creatorFee,
  };
}

/**
 * `buy`: exactly `tokens` out (capped at real_token_reserves, as the program and the SDK do: `outAmount` is the
 * capped amount), paying cost + fees. ZERO_AMOUNT for 0 tokens or an empty curve.
 */
export function buyExactTokensOut(tokens: bigint, r: CurveReserves, fees: TradeFeeBps): PumpSwap {
  return buyExactTokensOutF64(tokens, r, fees) ?? buyExactTokensOutBig(tokens, r, fees);
}

/** {@link buyExactTokensOut} in bigint only: the reference port, for every value up to u64 (and the tests). */
export function buyExactTokensOutBig(tokens: bigint, r: CurveReserves, fees: TradeFeeBps): PumpSwap {
  if (tokens === 0n) return failedSwap('ZERO_AMOUNT', true, 0n, 0n);
  if (tokens > U64_MAX) return failedSwap('INSUFFICIENT_LIQUIDITY', true, 0n, tokens);
  const n = tokens < r.realTokenReserves ? tokens : r.realTokenReserves;
  if (n === 0n) return failedSwap('INSUFFICIENT_LIQUIDITY', true, 0n, tokens);
  return buyTokens(n, r, fees);
}

/** The quote atoms of a `buy_exact_sol_in` budget that reach the curve, before the program's `- 1`. */
export function exactSolInNet(spendable: bigint, fees: TradeFeeBps): bigint {
  let net = (spendable * BPS) / (BPS + fees.protocolFeeBps + fees.creatorFeeBps);
  const total = net + feeOf(net, fees.protocolFeeBps) + feeOf(net, fees.creatorFeeBps);
  if (total > spendable) net -= total - spendable;
  return net;
}

/**
 * `buy_exact_sol_in`: spend at most `spendable`; `inAmount` is what the program actually debits (the cost of
 * the tokens bought plus fees, <= spendable). ZERO_AMOUNT when the budget buys no token.
 */
export function buyExactQuoteIn(spendable: bigint, r: CurveReserves, fees: TradeFeeBps): PumpSwap {
  return buyExactQuoteInF64(spendable, r, fees) ?? buyExactQuoteInBig(spendable, r, fees);
}

/** {@link buyExactQuoteIn} in bigint only: the reference port, for every value up to u64 (and the tests). */
export function buyExactQuoteInBig(spendable: bigint, r: CurveReserves, fees: TradeFeeBps): PumpSwap {
  if (spendable === 0n) return failedSwap('ZERO_AMOUNT', true, 0n, 0n);
  if (spendable > U64_MAX) return failedSwap('INSUFFICIENT_LIQUIDITY', true, spendable, 0n);
  const net = exactSolInNet(spendable, fees);
  if (net <= 1n) return failedSwap('ZERO_AMOUNT', true, spendable, 0n);
  const x = net - 1n;
  let tokens = (x * r.virtualTokenReserves) / (r.virtualQuoteReserves + x);
  if (tokens > r.realTokenReserves) tokens = r.realTokenReserves;
  if (tokens === 0n) return failedSwap(r.realTokenReserves === 0n ? 'INSUFFICIENT_LIQUIDITY' : 'ZERO_AMOUNT', true, spendable, 0n);
  return buyTokens(tokens, r, fees);
}

/** `sell`: exactly `tokens` in. ZERO_AMOUNT when nothing (or less than the fees) comes out. */
export function sellExactTokensIn(tokens: bigint, r: CurveReserves, fees: TradeFeeBps): PumpSwap {
  return sellExactTokensInF64(tokens, r, fees) ?? sellExactTokensInBig(tokens, r, fees);
}

/** {@link sellExactTokensIn} in bigint only: the reference port, for every value up to u64 (and the tests). */
export function sellExactTokensInBig(tokens: bigint, r: CurveReserves, fees: TradeFeeBps): PumpSwap {
  if (tokens === 0n) return failedSwap('ZERO_AMOUNT', false, 0n, 0n);
  if (tokens > U64_MAX || r.virtualTokenReserves + tokens > U64_MAX || r.realTokenReserves + tokens > U64_MAX) {
    return failedSwap('INSUFFICIENT_LIQUIDITY', false, tokens, 0n);
  }
  const sol = (tokens * r.virtualQuoteReserves) / (r.virtualTokenReserves + tokens);
  const protocolFee = feeOf(sol, fees.protocolFeeBps);
  const creatorFee = feeOf(sol, fees.creatorFeeBps);
  const out = sol - protocolFee - creatorFee;
  if (out <= 0n) return failedSwap('ZERO_AMOUNT', false, tokens, 0n);
  // The curve pays from its real reserves (its lamports above rent).
  if (sol > r.realQuoteReserves) return failedSwap('INSUFFICIENT_LIQUIDITY', false, tokens, 0n);
  return {
    status: 'OK', inAmount: tokens, outAmount: out, feeAmount: protocolFee + creatorFee, feeOnInput: false,
    isBuy: false, tokenAmount: tokens, curveQuote: sol, protocolFee, creatorFee,
  };
}

/** Net of fees of a gross sell amount `sol`. */
function netOfFees(sol: bigint, fees: TradeFeeBps): bigint {
  return sol - feeOf(sol, fees.protocolFeeBps) - feeOf(sol, fees.creatorFeeBps);
}

/**
 * Sell for at least `quoteOut` net: the smallest token input whose exact-in output reaches it (exact inversion;
 * `outAmount` is that input's actual output, >= the request). INSUFFICIENT_LIQUIDITY when no input can.
 */
export function sellExactQuoteOut(quoteOut: bigint, r: CurveReserves, fees: TradeFeeBps): PumpSwap {
  if (quoteOut === 0n) return failedSwap('ZERO_AMOUNT', false, 0n, 0n);
  const keep = BPS - fees.protocolFeeBps - fees.creatorFeeBps;
  if (keep <= 0n || quoteOut > U64_MAX) return failedSwap('INSUFFICIENT_LIQUIDITY', false, 0n, quoteOut);
  // Every gross amount s with netOfFees(s) >= out has s >= out*1e4/keep; the net dips by at most 2 per step.
  let s = (quoteOut * BPS + keep - 1n) / keep;
  for (;;) {
    while (netOfFees(s, fees) < quoteOut) s++;
    // Smallest t with floor(t*vQ/(vT+t)) >= s: t*(vQ-s) >= s*vT.
    if (s > r.realQuoteReserves || s >= r.virtualQuoteReserves) return failedSwap('INSUFFICIENT_LIQUIDITY', false, 0n, quoteOut);
    const den = r.virtualQuoteReserves - s;
    const t = (s * r.virtualTokenReserves + den - 1n) / den;
    const q = sellExactTokensIn(t, r, fees);
    if (q.status !== 'OK') return failedSwap(q.status === 'ZERO_AMOUNT' ? 'INSUFFICIENT_LIQUIDITY' : q.status, false, 0n, quoteOut);
    if (q.outAmount >= quoteOut) return q;
    // t overshot s into a gross amount whose fees round up past the request: continue above it.
    s = q.curveQuote + 1n;
  }
}
