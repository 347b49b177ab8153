/**
 * What the fast exact quote reads from a {@link CpmmState}, as f64 pairs and numbers: computed on a state's
 * first quote and kept for that state object in a WeakMap, so that later quotes of the same state read no bigint
 * but the amount. States are immutable (every field is readonly; a pool update builds a new state, a test's
 * `{ ...state, vault0 }` is a new object with its own view), so a view never goes stale.
 */
import { PAIR, readU64 } from '../common/u64-pair.js';
import { U64_MAX, isCreatorFeeOnInput } from './math.js';
import { CPMM_STATUS_OK, type CpmmState } from './state.js';

/** The fee-rate denominator; every rate the fast path takes is at most this. */
const DEN = 1_000_000;

/** A state's numbers for the fast path (pairs are `hi * 2^32 + lo`). */
export interface CpmmQuoteView {
  /** False when the fast path never applies to this state (not tradable, a transfer fee, a rate past 1e6). */
  readonly fast: boolean;
  readonly r0Hi: number;
  readonly r0Lo: number;
  readonly r1Hi: number;
  readonly r1Lo: number;
  readonly v0Hi: number;
  readonly v0Lo: number;
  readonly v1Hi: number;
  readonly v1Lo: number;
  /** Trade, creator, protocol and fund rates, per 1e6. */
  readonly t: number;
  readonly c: number;
  readonly p: number;
  readonly f: number;
  /** Whether the creator fee is on the input for 0 -> 1 and for 1 -> 0. */
  readonly onInput01: boolean;
  readonly onInput10: boolean;
}

const VIEWS = new WeakMap<CpmmState, CpmmQuoteView>();

/** A u64 field as a pair, or null when it is not one (negative or past u64; a corrupt state). */
function pairOf(x: bigint): [number, number] | null {
  if (x < 0n || x > U64_MAX) return null;
  readU64(x);
  return [PAIR.hi, PAIR.lo];
}

/** A rate as a number when it is in [0, 1e6], else -1. */
function rateOf(x: bigint): number {
  return x >= 0n && x <= BigInt(DEN) ? Number(x) : -1;
}

function build(state: CpmmState): CpmmQuoteView {
  const r0 = pairOf(state.reserve0);
  const r1 = pairOf(state.reserve1);
  const v0 = pairOf(state.vault0);
  const v1 = pairOf(state.vault1);
  const { rates } = state;
  const t = rateOf(rates.tradeFeeRate);
  const c = rateOf(rates.creatorFeeRate);
  const p = rateOf(rates.protocolFeeRate);
  const f = rateOf(rates.fundFeeRate);
  const fast = state.status === CPMM_STATUS_OK && state.transferFee0 === null && state.transferFee1 === null
    && r0 !== null && r1 !== null && v0 !== null && v1 !== null && t >= 0 && c >= 0 && p >= 0 && f >= 0;
  return {
    fast,
    r0Hi: r0?.[0] ?? 0, r0Lo: r0?.[1] ?? 0, r1Hi: r1?.[0] ?? 0, r1Lo: r1?.[1] ?? 0,
    v0Hi: v0?.[0] ?? 0, v0Lo: v0?.[1] ?? 0, v1Hi: v1?.[0] ?? 0, v1Lo: v1?.[1] ?? 0,
    t, c, p, f,
    onInput01: isCreatorFeeOnInput(state.creatorFeeOn, true),
    onInput10: isCreatorFeeOnInput(state.creatorFeeOn, false),
  };
}

/** The view of `state`, built on its first call and then kept for that state object. */
export function quoteView(state: CpmmState): CpmmQuoteView {
  let v = VIEWS.get(state);
  if (v === undefined) {
    v = build(state);
    VIEWS.set(state, v);
  }
  return v;
}
