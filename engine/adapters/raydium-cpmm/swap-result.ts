/**
 * The result of a CPMM swap computation and its one constructor: every result, OK or not, from the bigint port
 * or the fast path, is built here with the same fields in the same order (one object shape for the engine's
 * inline caches; no spread copies on the quote path).
 */
import type { QuoteResult, QuoteStatus } from '../types.js';

/**
 * Result of one CPMM swap computation. Extends {@link QuoteResult} so that the adapter can hand it out as
 * a quote without copying. `feeAmount` is the trade fee plus the creator fee when that is taken from the
 * input (all in the input token, `feeOnInput` is always true); an output-side creator fee is in
 * `creatorFee` and already deducted from `outAmount`.
 */
export interface CpmmSwap extends QuoteResult {
  /** Trade fee in input-token atoms (LP share + protocol + fund). */
  readonly tradeFee: bigint;
  /** Creator fee, in the input token when `creatorFeeOnInput`, else in the output token. */
  readonly creatorFee: bigint;
  /** Part of the trade fee accrued to `protocol_fees_token_in` (floor). */
  readonly protocolFee: bigint;
  /** Part of the trade fee accrued to `fund_fees_token_in` (floor). */
  readonly fundFee: bigint;
  readonly creatorFeeOnInput: boolean;
  /** Amount that entered the curve (program's new_input_vault_amount - input_vault_amount). */
  readonly swappedIn: bigint;
  /** Amount that left the curve, output-side creator fee included (input vault - new_output_vault_amount). */
  readonly swappedOut: bigint;
  /**
   * What the user's transfer into the input vault sends (= `inAmount`). The swap math has no transfer fees: it
   * sets `inAmount`; `cpmmQuote` sets the transfer the program makes when a mint charges one.
   */
  readonly transferIn: bigint;
  /** What the output vault sends; the user receives it less the output mint's transfer fee (= `outAmount`). */
  readonly transferOut: bigint;
  /**
   * `TokenOverflow` when the swap's math succeeds but the user -> input vault transfer fails (the vault's amount
   * plus what it is credited would pass u64: the token program's Overflow); the amounts are then the ones the
   * program computed before the transfer. Null otherwise (always null from the swap math).
   */
  readonly failure: 'TokenOverflow' | null;
}

/** Builds a {@link CpmmSwap}; `transferIn` / `transferOut` default to `inAmount` / `outAmount` when OK, else 0. */
export function cpmmSwap(
  status: QuoteStatus,
  inAmount: bigint,
  outAmount: bigint,
  feeAmount: bigint,
  tradeFee: bigint,
  creatorFee: bigint,
  protocolFee: bigint,
  fundFee: bigint,
  creatorFeeOnInput: boolean,
  swappedIn: bigint,
  swappedOut: bigint,
  transferIn: bigint = status === 'OK' ? inAmount : 0n,
  transferOut: bigint = status === 'OK' ? outAmount : 0n,
  failure: 'TokenOverflow' | null = null,
): CpmmSwap {
  return {
    status, inAmount, outAmount, feeAmount, feeOnInput: true, tradeFee, creatorFee, protocolFee, fundFee,
    creatorFeeOnInput, swappedIn, swappedOut, transferIn, transferOut, failure,
  };
}

/** A non-OK result: amounts echo the request, every fee and movement 0. */
export function failedSwap(status: QuoteStatus, creatorFeeOnInput: boolean, inAmount: bigint, outAmount: bigint): CpmmSwap {
  return cpmmSwap(status, inAmount, outAmount, 0n, 0n, 0n, 0n, 0n, creatorFeeOnInput, 0n, 0n, 0n, 0n, null);
}
