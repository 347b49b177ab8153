/**
 * Exact bigint port of the DBC program's swap (`state/virtual_pool.rs`: get_swap_result_from_exact_input /
 * _output, the four curve walks, and the reserve updates of apply_swap_result), on a {@link DbcCurveState}.
 * Quotes are taken with no referral and not eligible for the first-swap minimum fee. Pure, no I/O.
 *
 * The walks the swap uses read the state's walk tables (`walk-table.ts`: the whole segments precomputed once per
 * state); the `*Loop` forms are the program's loops as written, the reference the tables are tested against.
 */
import {
  type DbcError,
  U64_MAX,
  deltaBase,
  deltaBase256,
  deltaQuote,
  deltaQuote256,
  nextSqrtPriceFromInput,
  nextSqrtPriceFromOutput,
} from './curve-math.js';
import {
  type RateLimiterParams,
  rateLimiterFeeFromExcluded,
  rateLimiterFeeFromIncluded,
  FEE_DENOMINATOR,
  PROTOCOL_FEE_PERCENT,
  mulDivU64,
  totalFeeNumerator,
} from './fee-math.js';
import type { CurvePoint } from './layout.js';
import { type WalkTable, buyInWalk, buyOutWalk, sellInWalk, sellOutWalk } from './walk-table.js';

/** What a swap reads: the curve, the price, the reserves and the fees as of the state's clock. */
export interface DbcCurveState {
  readonly sqrtPrice: bigint;
  readonly sqrtStartPrice: bigint;
  readonly migrationSqrtPrice: bigint;
  readonly baseReserve: bigint;
  readonly quoteReserve: bigint;
  /** Curve points up to the last non-zero one (missing points read as zero, as the program's zeroed tail). */
  readonly curve: readonly CurvePoint[];
  /** 0 quote token, 1 output token. */
  readonly collectFeeMode: number;
  /** Base fee numerator as of the clock: the scheduler's current fee, or the rate limiter's cliff fee. */
  readonly baseFeeNumerator: bigint;
  /** Variable (dynamic) fee numerator from the stored volatility accumulator, capped at MAX_FEE_NUMERATOR. */
  readonly variableFeeNumerator: bigint;
  /** The rate limiter while its window is open (quote-to-base swaps pay an input-size dependent fee), else null. */
  readonly rateLimiter: RateLimiterParams | null;
}

/** Raw result of a swap computation, the program's SwapResult2 plus the fee numerator used. */
export interface DbcSwapResult {
  /** What the user pays (the program's included_fee_input_amount). */
  readonly includedFeeInputAmount: bigint;
  /** What enters the curve and the input reserve (excluded_fee_input_amount). */
  readonly excludedFeeInputAmount: bigint;
  /** What the user receives. */
  readonly outputAmount: bigint;
  /** What leaves the output reserve: the output plus the fee when it is taken from the output. */
  readonly reserveOutAmount: bigint;
  readonly nextSqrtPrice: bigint;
  /** Partner + creator share of the fee. */
  readonly tradingFee: bigint;
  readonly protocolFee: bigint;
  readonly feesOnInput: boolean;
  /** Fee accrued in the base token (collect_fee_mode 1, quote-to-base). */
  readonly feesOnBaseToken: boolean;
  readonly feeNumerator: bigint;
}

const seg = (curve: readonly CurvePoint[], i: number): CurvePoint => curve[i] ?? ZERO_POINT;
const ZERO_POINT: CurvePoint = { sqrtPrice: 0n, liquidity: 0n };
/** Number of curve points the program walks (`MAX_CURVE_POINT_CONFIG`). */
const POINTS = 20;

/** Where a walk ends: the amount it could not place, its total on the other side, and the sqrt price. */
export interface Walk {
  readonly amountLeft: bigint;
  readonly amount: bigint;
  readonly nextSqrtPrice: bigint;
}

/**
 * The step of a walk table where `amount` runs out (amount < its cumulative maximum), or the error the walk
 * meets first, or null when the amount crosses every step (the walk then continues past `table.end*`).
 */
function stepFor(table: WalkTable, amount: bigint): number | DbcError | null {
  const steps = table.steps;
  for (let k = 0; k < steps.length; k++) {
    const st = steps[k]!;
    if (st.maxError !== null) return st.maxError;
    if (amount < st.cumMax) return k;
    if (st.crossError !== null) return st.crossError;
  }
  return null;
}

/** `calculate_base_to_quote_from_amount_in` on the state's walk table (see walk-table.ts); same results as the loop. */
export function baseToQuoteFromAmountIn(s: DbcCurveState, amountIn: bigint): Walk | DbcError {
  const table = sellInWalk(s);
  const k = stepFor(table, amountIn);
  if (typeof k === 'string') return k;
  if (k !== null) {
    const st = table.steps[k]!;
    const left = k === 0 ? amountIn : amountIn - table.steps[k - 1]!.cumMax;
    const next = nextSqrtPriceFromInput(st.from, st.liquidity, left, true);
    if (typeof next === 'string') return next;
    const out = deltaQuote(next, st.from, st.liquidity, false);
    if (typeof out === 'string') return out;
    const t = add64(st.totalBefore, out);
    if (typeof t === 'string') return t;
    return { amountLeft: 0n, amount: t, nextSqrtPrice: next };
  }
  return belowFirstSegment(s, amountIn - table.endCumMax, table.endTotal, table.endPrice);
}

/**
 * `calculate_quote_to_base_from_amount_in` on the state's walk table, up to the migration price (the only stop the
 * swap uses); same results as the loop with `stopSqrtPrice = migrationSqrtPrice`.
 */
export function quoteToBaseFromAmountIn(s: DbcCurveState, amountIn: bigint): Walk | DbcError {
  const table = buyInWalk(s);
  const k = stepFor(table, amountIn);
  if (typeof k === 'string') return k;
  if (k === null) return { amountLeft: amountIn - table.endCumMax, amount: table.endTotal, nextSqrtPrice: table.endPrice };
  const st = table.steps[k]!;
  const left = k === 0 ? amountIn : amountIn - table.steps[k - 1]!.cumMax;
  const next = nextSqrtPriceFromInput(st.from, st.liquidity, left, false);
  if (typeof next === 'string') return next;
  const out = deltaBase(st.from, next, st.liquidity, false);
  if (typeof out === 'string') return out;
  const t = add64(st.totalBefore, out);
  if (typeof t === 'string') return t;
  return { amountLeft: 0n, amount: t, nextSqrtPrice: next };
}

/** `calculate_base_to_quote_from_amount_out` on the state's walk table; same results as the loop. */
export function baseToQuoteFromAmountOut(s: DbcCurveState, amountOut: bigint): Walk | DbcError {
  const table = sellOutWalk(s);
  const k = stepFor(table, amountOut);
  if (typeof k === 'string') return k;
  if (k !== null) {
    const st = table.steps[k]!;
    const left = k === 0 ? amountOut : amountOut - table.steps[k - 1]!.cumMax;
    const next = nextSqrtPriceFromOutput(st.from, st.liquidity, left, true);
    if (typeof next === 'string') return next;
    const inAmount = deltaBase(next, st.from, st.liquidity, true);
    if (typeof inAmount === 'string') return inAmount;
    const t = add64(st.totalBefore, inAmount);
    if (typeof t === 'string') return t;
    return { amountLeft: 0n, amount: t, nextSqrtPrice: next };
  }
  const left = amountOut - table.endCumMax;
  let total = table.endTotal;
  let cur = table.endPrice;
  if (left !== 0n) {
    const liq = seg(s.curve, 0).liquidity;
    const maxOut = deltaQuote256(s.sqrtStartPrice, cur, liq, false);
    if (typeof maxOut === 'string') return maxOut;
    if (left > maxOut) return 'InsufficientLiquidity';
    const next = nextSqrtPriceFromOutput(cur, liq, left, true);
    if (typeof next === 'string') return next;
    if (next < s.sqrtStartPrice) return 'InsufficientLiquidity';
    const inAmount = deltaBase(next, cur, liq, true);
    if (typeof inAmount === 'string') return inAmount;
    const t = add64(total, inAmount);
    if (typeof t === 'string') return t;
    total = t;
    cur = next;
  }
  return { amountLeft: 0n, amount: total, nextSqrtPrice: cur };
}

/** `calculate_quote_to_base_from_amount_out` on the state's walk table; same results as the loop. */
export function quoteToBaseFromAmountOut(s: DbcCurveState, amountOut: bigint): Walk | DbcError {
  const table = buyOutWalk(s);
  const k = stepFor(table, amountOut);
  if (typeof k === 'string') return k;
  if (k === null) return amountOut === table.endCumMax ? { amountLeft: 0n, amount: table.endTotal, nextSqrtPrice: table.endPrice } : 'AmountLeftIsNotZero';
  const st = table.steps[k]!;
  const left = k === 0 ? amountOut : amountOut - table.steps[k - 1]!.cumMax;
  const next = nextSqrtPriceFromOutput(st.from, st.liquidity, left, false);
  if (typeof next === 'string') return next;
  const inAmount = deltaQuote(st.from, next, st.liquidity, true);
  if (typeof inAmount === 'string') return inAmount;
  const t = add64(st.totalBefore, inAmount);
  if (typeof t === 'string') return t;
  return { amountLeft: 0n, amount: t, nextSqrtPrice: next };
}

/**
 * The base-in walk's last stretch, shared by the table walk and the loop: what is `left` after the curve's lowest
 * segment swaps at its liquidity down to the start price (the rest stays unswapped).
 */
function belowFirstSegment(s: DbcCurveState, left: bigint, total: bigint, cur: bigint): Walk | DbcError {
  if (left === 0n) return { amountLeft: left, amount: total, nextSqrtPrice: cur };
  const liq = seg(s.curve, 0).liquidity;
  let next = nextSqrtPriceFromInput(cur, liq, left, true);
  if (typeof next === 'string') return next;
  if (next < s.sqrtStartPrice) {
    next = s.sqrtStartPrice;
    const used = deltaBase(next, cur, liq, true);
    if (typeof used === 'string') return used;
    if (used > left) return 'MathOverflow';
    left -= used;
  } else {
    left = 0n;
  }
  const out = deltaQuote(next, cur, liq, false);
  if (typeof out === 'string') return out;
  const t = add64(total, out);
  if (typeof t === 'string') return t;
  return { amountLeft: left, amount: t, nextSqrtPrice: next };
}

function add64(a: bigint, b: bigint): bigint | DbcError {
  const s = a + b;
  return s > U64_MAX ? 'MathOverflow' : s;
}

/** `calculate_base_to_quote_from_amount_in` as the program loops it (sell base down the curve, stopping at sqrt_start_price): the reference for {@link baseToQuoteFromAmountIn}'s walk table. */
export function baseToQuoteFromAmountInLoop(s: DbcCurveState, amountIn: bigint): Walk | DbcError {
  let total = 0n;
  let cur = s.sqrtPrice;
  let left = amountIn;
  for (let i = POINTS - 2; i >= 0; i--) {
    const p = seg(s.curve, i);
    if (p.sqrtPrice === 0n || p.liquidity === 0n) continue;
    if (p.sqrtPrice < cur) {
      const liq = seg(s.curve, i + 1).liquidity;
      const maxIn = deltaBase256(p.sqrtPrice, cur, liq, true);
      if (typeof maxIn === 'string') return maxIn;
      if (left < maxIn) {
        const next = nextSqrtPriceFromInput(cur, liq, left, true);
        if (typeof next === 'string') return next;
        const out = deltaQuote(next, cur, liq, false);
        if (typeof out === 'string') return out;
        const t = add64(total, out);
        if (typeof t === 'string') return t;
        return { amountLeft: 0n, amount: t, nextSqrtPrice: next };
      }
      const out = deltaQuote(p.sqrtPrice, cur, liq, false);
      if (typeof out === 'string') return out;
      const t = add64(total, out);
      if (typeof t === 'string') return t;
      total = t;
      cur = p.sqrtPrice;
      left -= maxIn;
    }
  }
  return belowFirstSegment(s, left, total, cur);
}

/** `calculate_quote_to_base_from_amount_in` as the program loops it (buy base up the curve, stopping at `stopSqrtPrice` (migration)): the reference for {@link quoteToBaseFromAmountIn}'s walk table. */
export function quoteToBaseFromAmountInLoop(s: DbcCurveState, amountIn: bigint, stopSqrtPrice: bigint): Walk | DbcError {
  let total = 0n;
  let cur = s.sqrtPrice;
  let left = amountIn;
  for (let i = 0; i < POINTS; i++) {
    const p = seg(s.curve, i);
    if (p.sqrtPrice === 0n || p.liquidity === 0n) break;
    const ref = stopSqrtPrice < p.sqrtPrice ? stopSqrtPrice : p.sqrtPrice;
    if (ref > cur) {
      const maxIn = deltaQuote256(cur, ref, p.liquidity, true);
      if (typeof maxIn === 'string') return maxIn;
      if (left < maxIn) {
        const next = nextSqrtPriceFromInput(cur, p.liquidity, left, false);
        if (typeof next === 'string') return next;
        const out = deltaBase(cur, next, p.liquidity, false);
        if (typeof out === 'string') return out;
        const t = add64(total, out);
        if (typeof t === 'string') return t;
        return { amountLeft: 0n, amount: t, nextSqrtPrice: next };
      }
      const out = deltaBase(cur, ref, p.liquidity, false);
      if (typeof out === 'string') return out;
      const t = add64(total, out);
      if (typeof t === 'string') return t;
      total = t;
      cur = ref;
      left -= maxIn;
      if (ref === stopSqrtPrice) break;
    }
  }
  return { amountLeft: left, amount: total, nextSqrtPrice: cur };
}

/** `calculate_base_to_quote_from_amount_out` as the program loops it (the base input that buys `amountOut` quote): the reference for {@link baseToQuoteFromAmountOut}'s walk table. */
export function baseToQuoteFromAmountOutLoop(s: DbcCurveState, amountOut: bigint): Walk | DbcError {
  let cur = s.sqrtPrice;
  let left = amountOut;
  let total = 0n;
  for (let i = POINTS - 2; i >= 0; i--) {
    const p = seg(s.curve, i);
    if (p.sqrtPrice === 0n || p.liquidity === 0n) continue;
    if (p.sqrtPrice < cur) {
      const liq = seg(s.curve, i + 1).liquidity;
      const maxOut = deltaQuote256(p.sqrtPrice, cur, liq, false);
      if (typeof maxOut === 'string') return maxOut;
      if (left < maxOut) {
        const next = nextSqrtPriceFromOutput(cur, liq, left, true);
        if (typeof next === 'string') return next;
        const inAmount = deltaBase(next, cur, liq, true);
        if (typeof inAmount === 'string') return inAmount;
        const t = add64(total, inAmount);
        if (typeof t === 'string') return t;
        return { amountLeft: 0n, amount: t, nextSqrtPrice: next };
      }
      const inAmount = deltaBase(p.sqrtPrice, cur, liq, true);
      if (typeof inAmount === 'string') return inAmount;
      const t = add64(total, inAmount);
      if (typeof t === 'string') return t;
      total = t;
      cur = p.sqrtPrice;
      left -= maxOut;
    }
  }
  if (left !== 0n) {
    const liq = seg(s.curve, 0).liquidity;
    const maxOut = deltaQuote256(s.sqrtStartPrice, cur, liq, false);
    if (typeof maxOut === 'string') return maxOut;
    if (left > maxOut) return 'InsufficientLiquidity';
    const next = nextSqrtPriceFromOutput(cur, liq, left, true);
    if (typeof next === 'string') return next;
    if (next < s.sqrtStartPrice) return 'InsufficientLiquidity';
    const inAmount = deltaBase(next, cur, liq, true);
    if (typeof inAmount === 'string') return inAmount;
    const t = add64(total, inAmount);
    if (typeof t === 'string') return t;
    total = t;
    cur = next;
  }
  return { amountLeft: 0n, amount: total, nextSqrtPrice: cur };
}

/** `calculate_quote_to_base_from_amount_out` as the program loops it (the quote input that buys `amountOut` base): the reference for {@link quoteToBaseFromAmountOut}'s walk table. */
export function quoteToBaseFromAmountOutLoop(s: DbcCurveState, amountOut: bigint): Walk | DbcError {
  let total = 0n;
  let left = amountOut;
  let cur = s.sqrtPrice;
  for (let i = 0; i < POINTS; i++) {
    const p = seg(s.curve, i);
    if (p.sqrtPrice === 0n || p.liquidity === 0n) break;
    if (p.sqrtPrice > cur) {
      const maxOut = deltaBase256(cur, p.sqrtPrice, p.liquidity, false);
      if (typeof maxOut === 'string') return maxOut;
      if (left < maxOut) {
        const next = nextSqrtPriceFromOutput(cur, p.liquidity, left, false);
        if (typeof next === 'string') return next;
        const inAmount = deltaQuote(cur, next, p.liquidity, true);
        if (typeof inAmount === 'string') return inAmount;
        const t = add64(total, inAmount);
        if (typeof t === 'string') return t;
        return { amountLeft: 0n, amount: t, nextSqrtPrice: next };
      }
      const inAmount = deltaQuote(cur, p.sqrtPrice, p.liquidity, true);
      if (typeof inAmount === 'string') return inAmount;
      const t = add64(total, inAmount);
      if (typeof t === 'string') return t;
      total = t;
      cur = p.sqrtPrice;
      left -= maxOut;
    }
  }
  if (left !== 0n) return 'AmountLeftIsNotZero';
  return { amountLeft: 0n, amount: total, nextSqrtPrice: cur };
}

/** Which side pays the fee: one frozen object per case (a quote reads it, never allocates it). */
export interface FeeMode {
  readonly feesOnInput: boolean;
  readonly feesOnBaseToken: boolean;
}

const FEES_ON_OUTPUT: FeeMode = Object.freeze({ feesOnInput: false, feesOnBaseToken: false });
const FEES_ON_QUOTE_INPUT: FeeMode = Object.freeze({ feesOnInput: true, feesOnBaseToken: false });
const FEES_ON_BASE_OUTPUT: FeeMode = Object.freeze({ feesOnInput: false, feesOnBaseToken: true });

/** Which side pays the fee (`FeeMode::get_fee_mode`): only quote-to-base can pay it on the input. */
export function feeMode(collectFeeMode: number, baseToQuote: boolean): FeeMode {
  if (baseToQuote) return FEES_ON_OUTPUT;
  return collectFeeMode === 0 ? FEES_ON_QUOTE_INPUT : FEES_ON_BASE_OUTPUT;
}

/** Total fee numerator for a swap whose fee-bearing amount includes the fee (exact-in). */
export function feeNumeratorFromIncluded(s: DbcCurveState, baseToQuote: boolean, included: bigint): bigint | DbcError {
  let base = s.baseFeeNumerator;
  if (s.rateLimiter && !baseToQuote) {
    const r = rateLimiterFeeFromIncluded(s.rateLimiter, included);
    if (typeof r === 'string') return r;
    base = r;
  }
  return totalFeeNumerator(base, s.variableFeeNumerator);
}

/** Total fee numerator for a swap whose fee-bearing amount excludes the fee (exact-out). */
export function feeNumeratorFromExcluded(s: DbcCurveState, baseToQuote: boolean, excluded: bigint): bigint | DbcError {
  let base = s.baseFeeNumerator;
  if (s.rateLimiter && !baseToQuote) {
    const r = rateLimiterFeeFromExcluded(s.rateLimiter, excluded);
    if (typeof r === 'string') return r;
    base = r;
  }
  return totalFeeNumerator(base, s.variableFeeNumerator);
}

/**
 * `get_excluded_fee_amount`'s fee: ceil(included * numerator / 1e9), which may not exceed `included` (the same
 * checks as `excludedFeeAmount`, without its tuple).
 */
function feeOnIncluded(numerator: bigint, included: bigint): bigint | DbcError {
  const fee = mulDivU64(included, numerator, FEE_DENOMINATOR, true);
  if (typeof fee === 'string') return fee;
  return fee > included ? 'MathOverflow' : fee;
}

/** `get_included_fee_amount`'s included amount: ceil(excluded * 1e9 / (1e9 - numerator)) (as `includedFeeAmount`). */
function includedOfExcluded(numerator: bigint, excluded: bigint): bigint | DbcError {
  if (numerator > FEE_DENOMINATOR) return 'MathOverflow';
  return mulDivU64(excluded, FEE_DENOMINATOR, FEE_DENOMINATOR - numerator, true);
}

/** The reserve updates of apply_swap_result: the input reserve grows, the output reserve pays (checked). */
function reservesOk(s: DbcCurveState, baseToQuote: boolean, excludedIn: bigint, reserveOut: bigint): DbcError | null {
  const rin = baseToQuote ? s.baseReserve : s.quoteReserve;
  const rout = baseToQuote ? s.quoteReserve : s.baseReserve;
  if (rin + excludedIn > U64_MAX || reserveOut > rout) return 'MathOverflow';
  return null;
}

/** The program's exact-in swap (get_swap_result_from_exact_input + the reserve checks of apply_swap_result). */
export function swapExactIn(s: DbcCurveState, baseToQuote: boolean, amountIn: bigint): DbcSwapResult | DbcError {
  if (amountIn === 0n) return 'AmountIsZero';
  const mode = feeMode(s.collectFeeMode, baseToQuote);
  const num = feeNumeratorFromIncluded(s, baseToQuote, amountIn);
  if (typeof num === 'string') return num;
  let excluded = amountIn;
  let fee = 0n;
  if (mode.feesOnInput) {
    const f = feeOnIncluded(num, amountIn);
    if (typeof f === 'string') return f;
    fee = f;
    excluded = amountIn - f;
  }
  const walk = baseToQuote ? baseToQuoteFromAmountIn(s, excluded) : quoteToBaseFromAmountIn(s, excluded);
  if (typeof walk === 'string') return walk;
  if (walk.amountLeft !== 0n) return 'InsufficientLiquidity';
  let out = walk.amount;
  if (!mode.feesOnInput) {
    const f = feeOnIncluded(num, walk.amount);
    if (typeof f === 'string') return f;
    fee = f;
    out = walk.amount - f;
  }
  const bad = reservesOk(s, baseToQuote, excluded, walk.amount);
  if (bad) return bad;
  // split_fees (no referral): the protocol takes 20% (floor), the rest is the trading fee.
  const protocolFee = fee === 0n ? 0n : (fee * PROTOCOL_FEE_PERCENT) / 100n;
  return {
    includedFeeInputAmount: amountIn, excludedFeeInputAmount: excluded, outputAmount: out, reserveOutAmount: walk.amount,
    nextSqrtPrice: walk.nextSqrtPrice, tradingFee: fee - protocolFee, protocolFee, feesOnInput: mode.feesOnInput,
    feesOnBaseToken: mode.feesOnBaseToken, feeNumerator: num,
  };
}

/** The program's exact-out swap (get_swap_result_from_exact_output + the reserve checks of apply_swap_result). */
export function swapExactOut(s: DbcCurveState, baseToQuote: boolean, amountOut: bigint): DbcSwapResult | DbcError {
  if (amountOut === 0n) return 'AmountIsZero';
  const mode = feeMode(s.collectFeeMode, baseToQuote);
  let includedOut = amountOut;
  let fee = 0n;
  let num = 0n;
  if (!mode.feesOnInput) {
    const n = feeNumeratorFromExcluded(s, baseToQuote, amountOut);
    if (typeof n === 'string') return n;
    num = n;
    const inc = includedOfExcluded(num, amountOut);
    if (typeof inc === 'string') return inc;
    includedOut = inc;
    fee = inc - amountOut;
  }
  const walk = baseToQuote ? baseToQuoteFromAmountOut(s, includedOut) : quoteToBaseFromAmountOut(s, includedOut);
  if (typeof walk === 'string') return walk;
  if (walk.nextSqrtPrice > s.migrationSqrtPrice) return 'InsufficientLiquidity';
  const excluded = walk.amount;
  let included = excluded;
  if (mode.feesOnInput) {
    const n = feeNumeratorFromExcluded(s, baseToQuote, excluded);
    if (typeof n === 'string') return n;
    num = n;
    const inc = includedOfExcluded(num, excluded);
    if (typeof inc === 'string') return inc;
    included = inc;
    fee = inc - excluded;
  }
  const bad = reservesOk(s, baseToQuote, excluded, includedOut);
  if (bad) return bad;
  const protocolFee = fee === 0n ? 0n : (fee * PROTOCOL_FEE_PERCENT) / 100n;
  return {
    includedFeeInputAmount: included, excludedFeeInputAmount: excluded, outputAmount: amountOut, reserveOutAmount: includedOut,
    nextSqrtPrice: walk.nextSqrtPrice, tradingFee: fee - protocolFee, protocolFee, feesOnInput: mode.feesOnInput,
    feesOnBaseToken: mode.feesOnBaseToken, feeNumerator: num,
  };
}
