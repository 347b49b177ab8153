/**
 * Float readers of a Whirlpool record for ranking and prices (no BigInt): the marginal rate after the fee, the
 * exact-in output within the current liquidity (tick crossings are not modelled: an estimate for ranking, the
 * exact quote decides), the fee in basis points and the virtual reserves.
 */
import type { RecordF64 } from '../types.js';
import { F64_FEE_RATE, F64_LIQUIDITY, F64_SQRT_PRICE } from './record.js';

const FEE_DENOMINATOR = 1e6;

/** Output per input atom for an infinitesimal input, after the fee (B per A is sqrtP^2); 0 when not tradable. */
export function whirlpoolMarginalRate(rec: RecordF64, aToB: boolean): number {
  const sp = rec.f64[F64_SQRT_PRICE]!;
  const l = rec.f64[F64_LIQUIDITY]!;
  if (rec.status !== 0 || !(sp > 0) || !(l > 0)) return 0;
  const keep = (FEE_DENOMINATOR - rec.f64[F64_FEE_RATE]!) / FEE_DENOMINATOR;
  return aToB ? sp * sp * keep : keep / (sp * sp);
}

/**
 * Exact-in output estimate on the current liquidity: A -> B moves sqrtP to L sqrtP / (L + dx sqrtP) and pays
 * L (sqrtP - sqrtP'); B -> A moves it to sqrtP + dy / L and pays L (sqrtP' - sqrtP) / (sqrtP sqrtP'); dx, dy after
 * the fee. Rounded down; 0 when not tradable.
 */
export function whirlpoolEstimateOut(rec: RecordF64, aToB: boolean, amountIn: number): number {
  const sp = rec.f64[F64_SQRT_PRICE]!;
  const l = rec.f64[F64_LIQUIDITY]!;
  if (rec.status !== 0 || !(sp > 0) || !(l > 0) || !(amountIn > 0)) return 0;
  const x = Math.floor((amountIn * (FEE_DENOMINATOR - rec.f64[F64_FEE_RATE]!)) / FEE_DENOMINATOR);
  if (x <= 0) return 0;
  let out: number;
  if (aToB) {
    const next = (l * sp) / (l + x * sp);
    out = l * (sp - next);
  } else {
    const next = sp + x / l;
    out = (l * (next - sp)) / (sp * next);
  }
  return Number.isFinite(out) && out > 0 ? Math.floor(out) : 0;
}

/** The fee in basis points: the current total rate (static plus adaptive) / 100. */
export function whirlpoolFeeBps(rec: RecordF64): number {
  return rec.f64[F64_FEE_RATE]! / 100;
}

/** Virtual reserve of A (L / sqrtP) or B (L sqrtP) at the current price. */
export function whirlpoolEffectiveReserve(rec: RecordF64, sideA: boolean): number {
  const sp = rec.f64[F64_SQRT_PRICE]!;
  const l = rec.f64[F64_LIQUIDITY]!;
  if (!(sp > 0) || !(l > 0)) return 0;
  return sideA ? l / sp : l * sp;
}
