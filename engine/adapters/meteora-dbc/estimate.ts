/**
 * Float-only readers of a DBC record for ranking and marginal prices: no BigInt, no allocation. The estimate
 * walks the curve segments of the record's extension (f64 mirrors) with the program's formulas written so that
 * no step cancels, and the program's floors and ceilings, so it tracks the exact quote to float precision.
 */
import type { RecordF64 } from '../types.js';
import {
  EXT_F64_PER_POINT,
  F64_BASE_FEE,
  F64_BASE_VAULT,
  F64_MIGRATION_SQRT,
  F64_QUOTE_VAULT,
  F64_RATE_LIMITER_REFERENCE,
  F64_SQRT_PRICE,
  F64_SQRT_START,
  f64CollectFeeMode,
  f64RateLimiterIncrement,
  f64VariableFee,
} from './record.js';
import { DBC_STATUS_OK } from './state.js';

const DEN = 1e9;
const MAX_FEE = 990e6;
/** Number of curve points the program walks. */
const POINTS = 20;
const TWO64 = 2 ** 64;

/**
 * Ceiling of a float that approximates an exact ratio: segment capacities are usually whole amounts (curves are
 * built from round quote amounts) computed a hair below; float error must not push them to the next atom.
 */
function ceilNear(v: number): number {
  return Math.ceil(v - v * 4e-15);
}

function total(base: number, variable: number): number {
  const t = base + variable;
  return t > MAX_FEE ? MAX_FEE : t;
}

/** The rate limiter's fee numerator for an input that includes the fee (float mirror of the program's). */
function rateLimiterFee(c: number, inc: number, ref: number, x: number): number {
  if (x <= ref) return c;
  const a = Math.floor((x - ref) / ref);
  const b = x - ref - a * ref;
  const mi = Math.floor((MAX_FEE - c) / inc);
  const num = a < mi
    ? ref * (c + c * a + Math.floor((inc * a * (a + 1)) / 2)) + b * (c + inc * (a + 1))
    : ref * (c + c * mi + Math.floor((inc * mi * (mi + 1)) / 2)) + ((a - mi) * ref + b) * MAX_FEE;
  return Math.ceil((Math.ceil(num / DEN) * DEN) / x);
}

/** The total fee numerator (per 1e9) of an exact-in swap of `x` in this direction. */
function feeNumerator(rec: RecordF64, aToB: boolean, x: number): number {
  const f = rec.f64;
  const ref = f[F64_RATE_LIMITER_REFERENCE]!;
  const base = !aToB && ref > 0 ? rateLimiterFee(f[F64_BASE_FEE]!, f64RateLimiterIncrement(f), ref, x) : f[F64_BASE_FEE]!;
  return total(base, f64VariableFee(f));
}

/**
 * Output atoms per input atom for an infinitesimal input after the fee: price s^2 (quote per base) or its inverse,
 * times (1 - fee): the price the curve sets. A sell at the start price (a fresh pool) has nothing to be paid from
 * yet; the rate is still the curve's price and `dbcEffectiveReserve` gives the depth. 0 when not tradable or when
 * a buy would start at the migration price.
 */
export function dbcMarginalRate(rec: RecordF64, aToB: boolean): number {
  if (rec.status !== DBC_STATUS_OK) return 0;
  const f = rec.f64;
  const s = f[F64_SQRT_PRICE]!;
  if (!(s > 0)) return 0;
  const keep = 1 - total(f[F64_BASE_FEE]!, f64VariableFee(f)) / DEN;
  if (aToB) return s * s * keep;
  return s < f[F64_MIGRATION_SQRT]! ? keep / (s * s) : 0;
}

/**
 * Reserves of the equivalent constant-product pool at the current price: the virtual reserves L / s (base) and
 * L x s (quote) of the curve segment the price sits in.
 */
export function dbcEffectiveReserve(rec: RecordF64, sideA: boolean): number {
  const ext = rec.ext;
  const s = rec.f64[F64_SQRT_PRICE]!;
  if (!ext || !(s > 0)) return 0;
  const n = Math.floor(ext.length / EXT_F64_PER_POINT);
  let liq = 0;
  for (let i = 0; i < n; i++) {
    const p = ext[i * EXT_F64_PER_POINT]!;
    const l = ext[i * EXT_F64_PER_POINT + 1]!;
    if (p === 0 || l === 0) break;
    liq = l;
    if (p > s) break;
  }
  const r = sideA ? liq / s : liq * s;
  return Number.isFinite(r) && r > 0 ? r : 0;
}

/** Base in, quote out along the curve (calculate_base_to_quote_from_amount_in); -1 when the curve runs out. */
function walkBaseIn(ext: ArrayLike<number>, n: number, start: number, s0: number, x: number): number {
  let cur = s0;
  let left = x;
  let out = 0;
  for (let i = Math.min(n, POINTS - 1) - 1; i >= 0; i--) {
    const p = ext[i * EXT_F64_PER_POINT]!;
    if (p === 0 || ext[i * EXT_F64_PER_POINT + 1] === 0) continue;
    if (p < cur) {
      const liq = i + 1 < n ? ext[(i + 1) * EXT_F64_PER_POINT + 1]! : 0;
      const maxIn = ceilNear((liq * (cur - p)) / (p * cur));
      if (left < maxIn) return out + baseInStep(liq, cur, left);
      out += Math.floor(liq * (cur - p));
      cur = p;
      left -= maxIn;
    }
  }
  if (left > 0) {
    const liq = ext[1]!;
    if (!(liq > 0)) return -1;
    const next = (liq * cur) / (liq + left * cur);
    if (next < start) {
      // The program stops at the start price and needs the input to be exactly used up there.
      if (Math.ceil((liq * (cur - start)) / (start * cur)) < left) return -1;
      return out + Math.floor(liq * (cur - start));
    }
    out += baseInStep(liq, cur, left);
  }
  return out;
}

/** Quote out of a base-in step inside one segment: the price falls by x s^2 / (L + x s), floored to a Q64 unit. */
function baseInStep(liq: number, cur: number, x: number): number {
  const drop = Math.floor(((x * cur * cur) / (liq + x * cur)) * TWO64) / TWO64;
  return Math.floor(liq * drop);
}

/** Quote in, base out along the curve up to the migration price; -1 when the input does not fit. */
function walkQuoteIn(ext: ArrayLike<number>, n: number, stop: number, s0: number, x: number): number {
  let cur = s0;
  let left = x;
  let out = 0;
  for (let i = 0; i < n; i++) {
    const p = ext[i * EXT_F64_PER_POINT]!;
    const liq = ext[i * EXT_F64_PER_POINT + 1]!;
    if (p === 0 || liq === 0) break;
    const ref = stop < p ? stop : p;
    if (ref > cur) {
      const maxIn = ceilNear(liq * (ref - cur));
      if (left < maxIn) {
        // The program's next price is cur + floor(x << 128 / L) Q64 units.
        const rise = Math.floor((left / liq) * TWO64) / TWO64;
        const next = cur + rise;
        return out + Math.floor((liq * rise) / (cur * next));
      }
      out += Math.floor((liq * (ref - cur)) / (cur * ref));
      left -= maxIn;
      cur = ref;
      if (ref === stop) break;
    }
  }
  return left > 0 ? -1 : out;
}

/**
 * Float mirror of the exact exact-in quote (fees, curve walk, floors), 0 when not tradable, when the curve or
 * the migration price is reached before the input is spent, when the output rounds to zero, or when the input
 * would take its vault to 2^64.
 */
export function dbcEstimateOut(rec: RecordF64, aToB: boolean, amountIn: number): number {
  if (rec.status !== DBC_STATUS_OK || !(amountIn >= 1) || !Number.isFinite(amountIn)) return 0;
  const ext = rec.ext;
  if (!ext) return 0;
  const f = rec.f64;
  const s = f[F64_SQRT_PRICE]!;
  if (!(s > 0)) return 0;
  const x = Math.floor(amountIn);
  // The whole input goes into its vault (the exact quote refuses it past u64; float precision near 2^64).
  if ((aToB ? f[F64_BASE_VAULT]! : f[F64_QUOTE_VAULT]!) + x >= TWO64) return 0;
  const keep = 1 - feeNumerator(rec, aToB, x) / DEN;
  const n = Math.floor(ext.length / EXT_F64_PER_POINT);
  const feeOnInput = !aToB && f64CollectFeeMode(f) === 0;
  const net = feeOnInput ? Math.floor(x * keep) : x;
  const raw = aToB ? walkBaseIn(ext, n, f[F64_SQRT_START]!, s, net) : walkQuoteIn(ext, n, f[F64_MIGRATION_SQRT]!, s, net);
  if (!(raw > 0)) return 0;
  if (raw > (aToB ? rec.reserveB : rec.reserveA)) return 0;
  const out = feeOnInput ? raw : Math.floor(raw * keep);
  return out > 0 && Number.isFinite(out) ? out : 0;
}

/** Fee in basis points as shown in the API: min(base + variable, 99%) (the rate limiter's cliff fee). */
export function dbcFeeBps(rec: RecordF64): number {
  const f = rec.f64;
  return total(f[F64_BASE_FEE]!, f64VariableFee(f)) / 1e5;
}
