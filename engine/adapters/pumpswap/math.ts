/**
 * Exact bigint port of PumpSwap's swap math (closed-source program; the reference is `@pump-fun/pump-swap-sdk`
 * `buy.ts` / `sell.ts`, whose formulas the program's events reproduce), with the checks the program makes around
 * it. Pure, no I/O. Every fee component is its own ceiling: `fee = ceil(amount * bps / 10_000)`.
 *
 * - sell, exact base in (`sell`): `q = floor(Q * b / (B + b))`, out = q - lp - protocol - creator (fees on q).
 *   The LP fee stays in the quote vault: the vault pays q - lp, and must hold it (InsufficientRealQuoteReserves).
 * - buy, exact base out (`buy`): `q = ceil(Q * b / (B - b))`, the user pays q + lp + protocol + creator.
 * - buy, exact quote in (`buy_exact_quote_in`): `eff = floor(x * 1e4 / (1e4 + bps))`, lowered until eff plus its
 *   fees fits x; `b = floor(B * (eff - 1) / (Q + eff - 1))`; the program then buys b as `buy` does.
 * - sell, exact quote out: no instruction; the smallest base input whose `sell` output reaches the amount.
 *
 * Q is the effective quote reserve (quote vault + virtual_quote_reserves), B the base vault.
 */
import type { QuoteResult, QuoteStatus } from '../types.js';
import type { FeesBps } from './layout.js';

/** Basis-point denominator. */
export const BPS_DENOMINATOR = 10_000n;
/** Largest u64. */
export const U64_MAX = 0xffff_ffff_ffff_ffffn;

/** Reserves a swap reads: base vault, effective quote reserve, real quote vault. */
export interface PumpswapReserves {
  readonly base: bigint;
  /** Quote vault + virtual_quote_reserves (what the curve prices against). */
  readonly quote: bigint;
  /** The quote vault's amount (what a sell can actually pay out). */
  readonly quoteVault: bigint;
}

/**
 * One PumpSwap swap. `feeAmount` is lp + protocol + creator, in the quote token (`feeOnInput` true for buys,
 * false for sells). `curveQuote` is the curve's quote amount the fees are computed on.
 */
export interface PumpswapSwap extends QuoteResult {
  readonly curveQuote: bigint;
  readonly lpFee: bigint;
  readonly protocolFee: bigint;
  readonly creatorFee: bigint;
  /** buy_exact_quote_in only: the fee-net budget (the SDK's `internalQuoteWithoutFees`), else 0. */
  readonly effectiveQuote: bigint;
}

/** ceil(amount * bps / 1e4), the SDK's `fee()` (amount >= 0). */
export function bpsFee(amount: bigint, bps: bigint): bigint {
  return (amount * bps + BPS_DENOMINATOR - 1n) / BPS_DENOMINATOR;
}

function totalFee(q: bigint, f: FeesBps): [bigint, bigint, bigint] {
  return [bpsFee(q, f.lpFeeBps), bpsFee(q, f.protocolFeeBps), bpsFee(q, f.creatorFeeBps)];
}

/** A failed swap: exact-in keeps the amount in `inAmount`, exact-out in `outAmount`. */
export function failedSwap(status: QuoteStatus, amount: bigint, exactIn: boolean, sell: boolean): PumpswapSwap {
  return {
    status, inAmount: exactIn ? amount : 0n, outAmount: exactIn ? 0n : amount, feeAmount: 0n, feeOnInput: !sell,
    curveQuote: 0n, lpFee: 0n, protocolFee: 0n, creatorFee: 0n, effectiveQuote: 0n,
  };
}

function unusable(r: PumpswapReserves): boolean {
  // The SDK refuses a zero base or quote vault; an effective reserve <= 0 cannot price (the program guarantees > 0).
  return r.base <= 0n || r.quoteVault <= 0n || r.quote <= 0n;
}

/**
 * `sell` with exact base in. Statuses: ZERO_AMOUNT (no input, or nothing left after fees), INSUFFICIENT_LIQUIDITY
 * (empty reserves, amount or base vault above u64, quote vault short of q - lp), INACTIVE (fees above the output).
 */
export function sellBaseIn(base: bigint, r: PumpswapReserves, f: FeesBps): PumpswapSwap {
  if (base <= 0n) return failedSwap('ZERO_AMOUNT', 0n, true, true);
  if (unusable(r) || base > U64_MAX || r.base + base > U64_MAX) return failedSwap('INSUFFICIENT_LIQUIDITY', base, true, true);
  const q = (r.quote * base) / (r.base + base);
  const [lp, protocol, creator] = totalFee(q, f);
  // The LP fee stays in the vault; the rest of q leaves it (boosted pools: virtual reserves are pricing-only).
  if (r.quoteVault < q - lp) return failedSwap('INSUFFICIENT_LIQUIDITY', base, true, true);
  const out = q - lp - protocol - creator;
  if (out < 0n) return failedSwap('INACTIVE', base, true, true);
  if (out === 0n) return failedSwap('ZERO_AMOUNT', base, true, true);
  return {
    status: 'OK', inAmount: base, outAmount: out, feeAmount: lp + protocol + creator, feeOnInput: false,
    curveQuote: q, lpFee: lp, protocolFee: protocol, creatorFee: creator, effectiveQuote: 0n,
  };
}

/**
 * `buy` with exact base out. Statuses: ZERO_AMOUNT (nothing asked), INSUFFICIENT_LIQUIDITY (empty reserves,
 * base >= the base vault, a cost above u64 or a quote vault that would overflow).
 */
export function buyBaseOut(base: bigint, r: PumpswapReserves, f: FeesBps): PumpswapSwap {
  if (base <= 0n) return failedSwap('ZERO_AMOUNT', 0n, false, false);
  if (unusable(r) || base >= r.base) return failedSwap('INSUFFICIENT_LIQUIDITY', base, false, false);
  const num = r.quote * base;
  const den = r.base - base;
  const q = (num + den - 1n) / den;
  const [lp, protocol, creator] = totalFee(q, f);
  const total = q + lp + protocol + creator;
  if (total > U64_MAX || r.quoteVault + q + lp > U64_MAX) return failedSwap('INSUFFICIENT_LIQUIDITY', base, false, false);
  return {
    status: 'OK', inAmount: total, outAmount: base, feeAmount: lp + protocol + creator, feeOnInput: true,
    curveQuote: q, lpFee: lp, protocolFee: protocol, creatorFee: creator, effectiveQuote: 0n,
  };
}

/** The fee-net budget of `buy_exact_quote_in` (the SDK's `internalQuoteWithoutFees`), and the base it buys. */
export function exactQuoteInBase(quote: bigint, r: PumpswapReserves, f: FeesBps): [effective: bigint, base: bigint] {
  const bps = f.lpFeeBps + f.protocolFeeBps + f.creatorFeeBps;
  let eff = (quote * BPS_DENOMINATOR) / (BPS_DENOMINATOR + bps);
  const [lp, protocol, creator] = totalFee(eff, f);
  const withFees = eff + lp + protocol + creator;
  if (withFees > quote) eff -= withFees - quote;
  if (eff <= 1n) return [eff, 0n];
  return [eff, (r.base * (eff - 1n)) / (r.quote + eff - 1n)];
}

/**
 * `buy_exact_quote_in`: spend at most `quote`. The base bought is the SDK's `buyQuoteInput` result; the user pays
 * what `buy` of that base costs (never more than `quote`, thanks to the `eff - 1`), so `inAmount` can be a few
 * atoms below the amount given. Statuses: ZERO_AMOUNT (budget too small to buy one atom), INSUFFICIENT_LIQUIDITY.
 */
export function buyQuoteIn(quote: bigint, r: PumpswapReserves, f: FeesBps): PumpswapSwap {
  if (quote <= 0n) return failedSwap('ZERO_AMOUNT', 0n, true, false);
  if (unusable(r) || quote > U64_MAX) return failedSwap('INSUFFICIENT_LIQUIDITY', quote, true, false);
  const [eff, base] = exactQuoteInBase(quote, r, f);
  if (base <= 0n) return failedSwap('ZERO_AMOUNT', quote, true, false);
  const bought = buyBaseOut(base, r, f);
  if (bought.status !== 'OK') return failedSwap(bought.status, quote, true, false);
  return { ...bought, effectiveQuote: eff };
}

/** Quote a sell of a curve amount `q` pays the user: q minus its three fees. */
function netOf(q: bigint, f: FeesBps): bigint {
  const [lp, protocol, creator] = totalFee(q, f);
  return q - lp - protocol - creator;
}

/** Bound on the fee-rounding scan of the exact-out inversion (the dips it skips are a few atoms wide). */
const MAX_SCAN = 100_000;

/**
 * Sell with an exact quote out, by exact inversion of `sellBaseIn`: the smallest base input whose exact-in output
 * reaches `quoteOut`. `outAmount` is that input's actual output (>= the amount asked). The per-fee ceilings make
 * the net output dip by up to 2 atoms as the curve amount grows, so the search skips curve amounts whose net falls
 * short. Statuses: ZERO_AMOUNT, INSUFFICIENT_LIQUIDITY (unreachable output), INACTIVE (fees of 100% or more).
 */
export function sellQuoteOut(quoteOut: bigint, r: PumpswapReserves, f: FeesBps): PumpswapSwap {
  if (quoteOut <= 0n) return failedSwap('ZERO_AMOUNT', 0n, false, true);
  if (unusable(r) || quoteOut > U64_MAX) return failedSwap('INSUFFICIENT_LIQUIDITY', quoteOut, false, true);
  const bps = f.lpFeeBps + f.protocolFeeBps + f.creatorFeeBps;
  if (bps >= BPS_DENOMINATOR) return failedSwap('INACTIVE', quoteOut, false, true);
  // netOf(q) <= q * (1e4 - bps) / 1e4, so no curve amount below this one can pay quoteOut.
  const den = BPS_DENOMINATOR - bps;
  let q = (quoteOut * BPS_DENOMINATOR + den - 1n) / den;
  let steps = 0;
  for (;;) {
    while (netOf(q, f) < quoteOut) {
      q++;
      if (++steps > MAX_SCAN) return failedSwap('INSUFFICIENT_LIQUIDITY', quoteOut, false, true);
    }
    if (q >= r.quote) return failedSwap('INSUFFICIENT_LIQUIDITY', quoteOut, false, true);
    // Smallest base whose curve output reaches q: floor(Q b / (B + b)) >= q  <=>  b >= q B / (Q - q).
    const d = r.quote - q;
    const base = (q * r.base + d - 1n) / d;
    if (base > U64_MAX) return failedSwap('INSUFFICIENT_LIQUIDITY', quoteOut, false, true);
    const reached = (r.quote * base) / (r.base + base);
    if (netOf(reached, f) >= quoteOut) {
      const s = sellBaseIn(base, r, f);
      return s.status === 'OK' ? s : failedSwap(s.status, quoteOut, false, true);
    }
    q = reached + 1n;
  }
}
