/**
 * The slab-record image of a DBC state: which u64 / f64 parameter words mean what, and the extension region that
 * holds the curve (the tables are in this folder's README and must stay in step with these constants).
 */
import { PARAM_F64_WORDS, PARAM_U64_WORDS, type RecordExt, type RecordFields } from '../types.js';
import { FEE_DENOMINATOR } from './fee-math.js';
import type { CurvePoint } from './layout.js';
import type { DbcState } from './state.js';

/** u64 words: sqrt_price (Q64.64) low / high. */
export const U64_SQRT_PRICE_LO = 0;
/** sqrt_price high word. */
export const U64_SQRT_PRICE_HI = 1;
/** sqrt_start_price low / high. */
export const U64_SQRT_START_LO = 2;
/** sqrt_start_price high word. */
export const U64_SQRT_START_HI = 3;
/** migration_sqrt_price low / high. */
export const U64_MIGRATION_SQRT_LO = 4;
/** migration_sqrt_price high word. */
export const U64_MIGRATION_SQRT_HI = 5;
/** migration_quote_threshold. */
export const U64_MIGRATION_QUOTE_THRESHOLD = 6;
/** Base fee numerator as of the clock (scheduler) or the rate limiter's cliff fee, per 1e9. */
export const U64_BASE_FEE_NUMERATOR = 7;
/** Variable fee numerator (capped at 99%), per 1e9. */
export const U64_VARIABLE_FEE_NUMERATOR = 8;
/** Rate limiter reference amount while its window is open; 0 = no rate limiter. */
export const U64_RATE_LIMITER_REFERENCE = 9;
/** Rate limiter fee increment, bps. */
export const U64_RATE_LIMITER_INCREMENT_BPS = 10;
/** collect_fee_mode (0 quote token, 1 output token). */
export const U64_COLLECT_FEE_MODE = 11;
/** creator_trading_fee_percentage. */
export const U64_CREATOR_FEE_PERCENTAGE = 12;
/** Flags: bit 0 = clock sensitive. */
export const U64_FLAGS = 13;
/** Number of curve points in the extension. */
export const U64_CURVE_POINTS = 14;

/** f64 word: current sqrt price as a real number (sqrt_price / 2^64). */
export const F64_SQRT_PRICE = 0;
/** f64 word: sqrt_start_price / 2^64. */
export const F64_SQRT_START = 1;
/** f64 word: migration_sqrt_price / 2^64. */
export const F64_MIGRATION_SQRT = 2;
/** f64 word: base fee numerator (per 1e9). */
export const F64_BASE_FEE = 3;
/** f64 word: variable fee numerator (per 1e9). */
export const F64_VARIABLE_FEE = 4;
/** f64 word: rate limiter reference amount while open, else 0. */
export const F64_RATE_LIMITER_REFERENCE = 5;
/** f64 word: rate limiter fee increment numerator (bps * 1e9 / 1e4, floor). */
export const F64_RATE_LIMITER_INCREMENT = 6;
/** f64 word: collect_fee_mode. */
export const F64_COLLECT_FEE_MODE = 7;

/** Extension layout: u64 words per curve point (sqrt_price lo, hi, liquidity lo, hi). */
export const EXT_U64_PER_POINT = 4;
/** Extension layout: f64 words per curve point (sqrt_price / 2^64, liquidity / 2^64). */
export const EXT_F64_PER_POINT = 2;

const MASK = 0xffff_ffff_ffff_ffffn;
const TWO64 = 2 ** 64;

function lo(v: bigint): bigint {
  return v & MASK;
}

function hi(v: bigint): bigint {
  return v >> 64n;
}

/** Float of a Q64.64 value: the real number it encodes (exact high word, rounded low word). */
export function q64ToFloat(v: bigint): number {
  return Number(v >> 64n) + Number(v & MASK) / TWO64;
}

/** Extension images per curve array (the state's curve is one array per config): the slab interns them by
 * identity first, so a rebuild does not rebuild and re-key the image. */
const extCache = new WeakMap<readonly CurvePoint[], RecordExt>();

function extOf(curve: readonly CurvePoint[]): RecordExt {
  let v = extCache.get(curve);
  if (v === undefined) {
    v = curveToExt(curve);
    extCache.set(curve, v);
  }
  return v;
}

/** The extension image of a curve (the slab stores it once per distinct content). */
export function curveToExt(curve: readonly CurvePoint[]): RecordExt {
  const u64: bigint[] = [];
  const f64: number[] = [];
  for (const p of curve) {
    u64.push(lo(p.sqrtPrice), hi(p.sqrtPrice), lo(p.liquidity), hi(p.liquidity));
    f64.push(q64ToFloat(p.sqrtPrice), q64ToFloat(p.liquidity));
  }
  return { u64, f64 };
}

/** The curve from an extension image. */
export function curveFromExt(ext: RecordExt | null | undefined, points: number): CurvePoint[] {
  const out: CurvePoint[] = [];
  if (!ext) return out;
  for (let i = 0; i < points; i++) {
    const u = ext.u64;
    const o = i * EXT_U64_PER_POINT;
    out.push({ sqrtPrice: u[o]! | (u[o + 1]! << 64n), liquidity: u[o + 2]! | (u[o + 3]! << 64n) });
  }
  return out;
}

/** Writes a DBC state into a slab record image (reserveA = base reserve, reserveB = quote reserve). */
export function dbcToRecord(state: DbcState, out: RecordFields): void {
  out.status = state.status;
  out.reserveA = state.baseReserve;
  out.reserveB = state.quoteReserve;
  const u = out.u64;
  u.fill(0n, 0, PARAM_U64_WORDS);
  u[U64_SQRT_PRICE_LO] = lo(state.sqrtPrice);
  u[U64_SQRT_PRICE_HI] = hi(state.sqrtPrice);
  u[U64_SQRT_START_LO] = lo(state.sqrtStartPrice);
  u[U64_SQRT_START_HI] = hi(state.sqrtStartPrice);
  u[U64_MIGRATION_SQRT_LO] = lo(state.migrationSqrtPrice);
  u[U64_MIGRATION_SQRT_HI] = hi(state.migrationSqrtPrice);
  u[U64_MIGRATION_QUOTE_THRESHOLD] = state.migrationQuoteThreshold;
  u[U64_BASE_FEE_NUMERATOR] = state.baseFeeNumerator;
  u[U64_VARIABLE_FEE_NUMERATOR] = state.variableFeeNumerator;
  u[U64_RATE_LIMITER_REFERENCE] = state.rateLimiter?.referenceAmount ?? 0n;
  u[U64_RATE_LIMITER_INCREMENT_BPS] = BigInt(state.rateLimiter?.feeIncrementBps ?? 0);
  u[U64_COLLECT_FEE_MODE] = BigInt(state.collectFeeMode);
  u[U64_CREATOR_FEE_PERCENTAGE] = BigInt(state.creatorTradingFeePercentage);
  u[U64_FLAGS] = state.clockSensitive ? 1n : 0n;
  u[U64_CURVE_POINTS] = BigInt(state.curve.length);
  const f = out.f64;
  f.fill(0, 0, PARAM_F64_WORDS);
  f[F64_SQRT_PRICE] = q64ToFloat(state.sqrtPrice);
  f[F64_SQRT_START] = q64ToFloat(state.sqrtStartPrice);
  f[F64_MIGRATION_SQRT] = q64ToFloat(state.migrationSqrtPrice);
  f[F64_BASE_FEE] = Number(state.baseFeeNumerator);
  f[F64_VARIABLE_FEE] = Number(state.variableFeeNumerator);
  f[F64_RATE_LIMITER_REFERENCE] = state.rateLimiter ? Number(state.rateLimiter.referenceAmount) : 0;
  f[F64_RATE_LIMITER_INCREMENT] = state.rateLimiter ? Number((BigInt(state.rateLimiter.feeIncrementBps) * FEE_DENOMINATOR) / 10_000n) : 0;
  f[F64_COLLECT_FEE_MODE] = state.collectFeeMode;
  out.ext = extOf(state.curve);
}

/** Reads a DBC state back from a slab record image and its extension (exact path; f64 words not needed). */
export function dbcFromRecord(rec: Readonly<RecordFields>): DbcState {
  const u = rec.u64;
  const q = (l: number, h: number): bigint => u[l]! | (u[h]! << 64n);
  const base = u[U64_BASE_FEE_NUMERATOR]!;
  const ref = u[U64_RATE_LIMITER_REFERENCE]!;
  return {
    status: rec.status,
    sqrtPrice: q(U64_SQRT_PRICE_LO, U64_SQRT_PRICE_HI),
    sqrtStartPrice: q(U64_SQRT_START_LO, U64_SQRT_START_HI),
    migrationSqrtPrice: q(U64_MIGRATION_SQRT_LO, U64_MIGRATION_SQRT_HI),
    migrationQuoteThreshold: u[U64_MIGRATION_QUOTE_THRESHOLD]!,
    baseReserve: rec.reserveA,
    quoteReserve: rec.reserveB,
    curve: curveFromExt(rec.ext, Number(u[U64_CURVE_POINTS]!)),
    collectFeeMode: Number(u[U64_COLLECT_FEE_MODE]!),
    baseFeeNumerator: base,
    variableFeeNumerator: u[U64_VARIABLE_FEE_NUMERATOR]!,
    rateLimiter: ref === 0n ? null : { cliffFeeNumerator: base, feeIncrementBps: Number(u[U64_RATE_LIMITER_INCREMENT_BPS]!), referenceAmount: ref },
    creatorTradingFeePercentage: Number(u[U64_CREATOR_FEE_PERCENTAGE]!),
    clockSensitive: (u[U64_FLAGS]! & 1n) === 1n,
  };
}
