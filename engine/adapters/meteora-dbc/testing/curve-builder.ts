/**
 * Builds a PoolConfig curve the way a partner configures one: a start price and segments that each raise the
 * sqrt price by a factor while holding a chosen amount of quote. Used by the localnet seeding and the tests;
 * not by the engine's hot path.
 */
import { deltaBase, deltaQuote } from '../curve-math.js';
import type { CurvePoint } from '../layout.js';

/** One segment: the sqrt price is multiplied by `sqrtFactorPpm / 1e6` and the segment holds `quoteAmount` quote. */
export interface CurveSegmentSpec {
  readonly sqrtFactorPpm: bigint;
  readonly quoteAmount: bigint;
}

/** A built curve: its points, the price where it ends, the quote it takes to get there and the base it sells. */
export interface BuiltCurve {
  readonly sqrtStartPrice: bigint;
  readonly curve: CurvePoint[];
  readonly migrationSqrtPrice: bigint;
  /** Quote the curve holds from start to end (rounded up): the migration_quote_threshold. */
  readonly migrationQuoteThreshold: bigint;
  /** Base the curve sells from start to end (rounded up): the swap_base_amount. */
  readonly swapBaseAmount: bigint;
}

/** The Q64.64 sqrt price of a price in quote atoms per base atom (float precision, enough for configs). */
export function sqrtPriceQ64(priceAtomsPerAtom: number): bigint {
  const s = Math.sqrt(priceAtomsPerAtom);
  const exp = Math.floor(Math.log2(s));
  // s = m * 2^exp with m in [1, 2): keep 52 bits of m.
  const m = BigInt(Math.round((s / 2 ** exp) * 2 ** 52));
  const shift = 64 + exp - 52;
  return shift >= 0 ? m << BigInt(shift) : m >> BigInt(-shift);
}

/** Quote and base between two sqrt prices on a curve (rounded up, the program's rounding for deposits). */
export function curveHoldings(curve: readonly CurvePoint[], start: bigint, from: bigint, to: bigint): { quote: bigint; base: bigint } {
  let quote = 0n;
  let base = 0n;
  let lower = start;
  for (const p of curve) {
    const a = lower > from ? lower : from;
    const b = p.sqrtPrice < to ? p.sqrtPrice : to;
    if (b > a) {
      const q = deltaQuote(a, b, p.liquidity, true);
      const x = deltaBase(a, b, p.liquidity, true);
      if (typeof q === 'string' || typeof x === 'string') throw new RangeError('curve holds more than u64');
      quote += q;
      base += x;
    }
    lower = p.sqrtPrice;
  }
  return { quote, base };
}

/** Builds the curve points of `segments` above `sqrtStartPrice`. */
export function buildCurve(sqrtStartPrice: bigint, segments: readonly CurveSegmentSpec[]): BuiltCurve {
  if (segments.length === 0 || segments.length > 20) throw new RangeError('1..20 segments');
  const curve: CurvePoint[] = [];
  let lower = sqrtStartPrice;
  for (const s of segments) {
    const upper = (lower * s.sqrtFactorPpm) / 1_000_000n;
    if (upper <= lower) throw new RangeError('a segment must raise the price');
    curve.push({ sqrtPrice: upper, liquidity: (s.quoteAmount << 128n) / (upper - lower) });
    lower = upper;
  }
  const held = curveHoldings(curve, sqrtStartPrice, sqrtStartPrice, lower);
  return { sqrtStartPrice, curve, migrationSqrtPrice: lower, migrationQuoteThreshold: held.quote, swapBaseAmount: held.base };
}
