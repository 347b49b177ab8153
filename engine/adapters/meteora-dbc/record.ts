/**
 * The slab-record image of a DBC state: which u64 / f64 parameter words mean what, and the extension region that
 * holds the curve (the tables are in this folder's README and must stay in step with these constants).
 */
import { PARAM_F64_WORDS, PARAM_U64_WORDS, type RecordExt, type RecordFields } from '../types.js';
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
/** Flags and counts: bit 0 = clock sensitive; bits 8..15 = number of curve points in the extension. */
export const U64_FLAGS = 13;
/** {@link U64_FLAGS} bit: the quote depends on the clock. */
export const FLAG_CLOCK_SENSITIVE = 1n;
/** {@link U64_FLAGS}: the curve point count sits at this shift (at most 20 points). */
export const CURVE_POINTS_SHIFT = 8n;
/** The base vault as the pool accounts for it (base reserve + unclaimed base fees). */
export const U64_BASE_VAULT = 14;
/** The quote vault as the pool accounts for it (quote reserve + unclaimed quote fees). */
export const U64_QUOTE_VAULT = 15;

/** f64 word: current sqrt price as a real number (sqrt_price / 2^64). */
export const F64_SQRT_PRICE = 0;
/** f64 word: sqrt_start_price / 2^64. */
export const F64_SQRT_START = 1;
/** f64 word: migration_sqrt_price / 2^64. */
export const F64_MIGRATION_SQRT = 2;
/** f64 word: base fee numerator (per 1e9). */
export const F64_BASE_FEE = 3;
/**
 * f64 word: three small integers in one exact float, `variable + 2^30 x (incrementBps + 2^16 x outputFee)`: the
 * variable fee numerator (per 1e9, at most 990,000,000 < 2^30), the rate limiter's fee increment in bps (u16; 0
 * without an open limiter) and 1 when the fee is not collected in the quote token (collect_fee_mode != 0). Read
 * with {@link f64VariableFee}, {@link f64RateLimiterIncrement}, {@link f64CollectFeeMode}.
 */
export const F64_FEE_FIELDS = 4;
/** f64 word: rate limiter reference amount while open, else 0. */
export const F64_RATE_LIMITER_REFERENCE = 5;
/** f64 word: `U64_BASE_VAULT` as a float (`estimateOut` is 0 for a sell that would take it to 2^64). */
export const F64_BASE_VAULT = 6;
/** f64 word: `U64_QUOTE_VAULT` as a float (`estimateOut` is 0 for a buy that would take it to 2^64). */
export const F64_QUOTE_VAULT = 7;

const TWO30 = 2 ** 30;
const TWO16 = 2 ** 16;

/** The variable fee numerator (per 1e9) of {@link F64_FEE_FIELDS}. */
export function f64VariableFee(f: ArrayLike<number>): number {
  return f[F64_FEE_FIELDS]! % TWO30;
}

/** The rate limiter's fee increment numerator (`bps * 1e9 / 1e4`, exact) of {@link F64_FEE_FIELDS}. */
export function f64RateLimiterIncrement(f: ArrayLike<number>): number {
  return (Math.floor(f[F64_FEE_FIELDS]! / TWO30) % TWO16) * 100_000;
}

/** 0 when the fee is collected in the quote token (collect_fee_mode 0), else 1, from {@link F64_FEE_FIELDS}. */
export function f64CollectFeeMode(f: ArrayLike<number>): number {
  return Math.floor(f[F64_FEE_FIELDS]! / (TWO30 * TWO16));
}

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
  u[U64_FLAGS] = (state.clockSensitive ? FLAG_CLOCK_SENSITIVE : 0n) | (BigInt(state.curve.length) << CURVE_POINTS_SHIFT);
  u[U64_BASE_VAULT] = state.baseVault;
  u[U64_QUOTE_VAULT] = state.quoteVault;
  const f = out.f64;
  f.fill(0, 0, PARAM_F64_WORDS);
  f[F64_SQRT_PRICE] = q64ToFloat(state.sqrtPrice);
  f[F64_SQRT_START] = q64ToFloat(state.sqrtStartPrice);
  f[F64_MIGRATION_SQRT] = q64ToFloat(state.migrationSqrtPrice);
  f[F64_BASE_FEE] = Number(state.baseFeeNumerator);
  // bps * 1e9 / 1e4 = bps * 1e5 exactly: the increment is stored as its bps.
  const incrementBps = state.rateLimiter ? state.rateLimiter.feeIncrementBps : 0;
  f[F64_FEE_FIELDS] = Number(state.variableFeeNumerator) + TWO30 * (incrementBps + TWO16 * (state.collectFeeMode === 0 ? 0 : 1));
  f[F64_RATE_LIMITER_REFERENCE] = state.rateLimiter ? Number(state.rateLimiter.referenceAmount) : 0;
  f[F64_BASE_VAULT] = Number(state.baseVault);
  f[F64_QUOTE_VAULT] = Number(state.quoteVault);
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
    curve: curveFromExt(rec.ext, Number((u[U64_FLAGS]! >> CURVE_POINTS_SHIFT) & 0xffn)),
    collectFeeMode: Number(u[U64_COLLECT_FEE_MODE]!),
    baseFeeNumerator: base,
    variableFeeNumerator: u[U64_VARIABLE_FEE_NUMERATOR]!,
    rateLimiter: ref === 0n ? null : { cliffFeeNumerator: base, feeIncrementBps: Number(u[U64_RATE_LIMITER_INCREMENT_BPS]!), referenceAmount: ref },
    creatorTradingFeePercentage: Number(u[U64_CREATOR_FEE_PERCENTAGE]!),
    clockSensitive: (u[U64_FLAGS]! & FLAG_CLOCK_SENSITIVE) !== 0n,
    baseVault: u[U64_BASE_VAULT]!,
    quoteVault: u[U64_QUOTE_VAULT]!,
  };
}
