/**
 * Whirlpool tick <-> Q64.64 square-root price, bit for bit the program's (and `@orca-so/whirlpools-core`'s)
 * `tick_index_to_sqrt_price` / `sqrt_price_to_tick_index`, in BigInt with the same 128/256-bit truncations.
 */

/** Lowest and highest tick index the program allows. */
export const MIN_TICK_INDEX = -443636;
export const MAX_TICK_INDEX = 443636;
/** Square-root prices (Q64.64) of the tick bounds: the swap's default price limits. */
export const MIN_SQRT_PRICE_X64 = 4295048016n;
export const MAX_SQRT_PRICE_X64 = 79226673515401279992447579055n;
/** Ticks in one tick array, fixed or dynamic. */
export const TICK_ARRAY_SIZE = 88;

const U128_MASK = (1n << 128n) - 1n;

// Multipliers of the program's bit decomposition: positive ticks in Q96 (mul_shift_96), negative in Q64.
const POS: readonly bigint[] = [
  79236085330515764027303304731n, 79244008939048815603706035061n, 79259858533276714757314932305n,
  79291567232598584799939703904n, 79355022692464371645785046466n, 79482085999252804386437311141n,
  79736823300114093921829183326n, 80248749790819932309965073892n, 81282483887344747381513967011n,
  83390072131320151908154831281n, 87770609709833776024991924138n, 97234110755111693312479820773n,
  119332217159966728226237229890n, 179736315981702064433883588727n, 407748233172238350107850275304n,
  2098478828474011932436660412517n, 55581415166113811149459800483533n, 38992368544603139932233054999993551n,
];
const NEG: readonly bigint[] = [
  18444899583751176498n, 18443055278223354162n, 18439367220385604838n, 18431993317065449817n,
  18417254355718160513n, 18387811781193591352n, 18329067761203520168n, 18212142134806087854n,
  17980523815641551639n, 17526086738831147013n, 16651378430235024244n, 15030750278693429944n,
  12247334978882834399n, 8131365268884726200n, 3584323654723342297n, 696457651847595233n,
  26294789957452057n, 37481735321082n,
];

function sqrtPricePositive(tick: number): bigint {
  let ratio = (tick & 1) !== 0 ? 79232123823359799118286999567n : 79228162514264337593543950336n;
  for (let b = 1; b < 19; b++) {
    // mul_shift_96 keeps the low 128 bits of the 256-bit product shifted by 96 (`as_u128`).
    if ((tick & (1 << b)) !== 0) ratio = ((ratio * POS[b - 1]!) >> 96n) & U128_MASK;
  }
  return ratio >> 32n;
}

function sqrtPriceNegative(tick: number): bigint {
  const abs = -tick;
  let ratio = (abs & 1) !== 0 ? 18445821805675392311n : 18446744073709551616n;
  for (let b = 1; b < 19; b++) {
    if ((abs & (1 << b)) !== 0) ratio = (ratio * NEG[b - 1]!) >> 64n;
  }
  return ratio;
}

const cache = new Map<number, bigint>();

/**
 * Q64.64 square-root price of `tick` (the program's `sqrt_price_from_tick_index`; any tick within the bounds).
 * Memoized: a quote asks for the same few boundary ticks again and again.
 */
export function tickIndexToSqrtPrice(tick: number): bigint {
  let v = cache.get(tick);
  if (v === undefined) {
    v = tick >= 0 ? sqrtPricePositive(tick) : sqrtPriceNegative(tick);
    if (cache.size > 65_536) cache.clear();
    cache.set(tick, v);
  }
  return v;
}

const LOG_B_2_X32 = 59543866431248n;
const BIT_PRECISION = 14;
const LOG_B_P_ERR_MARGIN_LOWER_X64 = 184467440737095516n;
const LOG_B_P_ERR_MARGIN_UPPER_X64 = 15793534762490258745n;

function bitLength(v: bigint): number {
  return v.toString(2).length;
}

/** Greatest tick whose square-root price is at most `sqrtPriceX64` (`sqrt_price_to_tick_index`; price > 0). */
export function sqrtPriceToTickIndex(sqrtPriceX64: bigint): number {
  const msb = bitLength(sqrtPriceX64) - 1;
  const log2pIntegerX32 = BigInt(msb - 64) << 32n;
  let bit = 0x8000_0000_0000_0000n;
  let precision = 0;
  let log2pFractionX64 = 0n;
  let r = msb >= 64 ? sqrtPriceX64 >> BigInt(msb - 63) : sqrtPriceX64 << BigInt(63 - msb);
  while (bit > 0n && precision < BIT_PRECISION) {
    r *= r;
    const isMoreThanTwo = r >> 127n;
    r >>= 63n + isMoreThanTwo;
    log2pFractionX64 += bit * isMoreThanTwo;
    bit >>= 1n;
    precision++;
  }
  const log2pX32 = log2pIntegerX32 + (log2pFractionX64 >> 32n);
  const logbpX64 = log2pX32 * LOG_B_2_X32;
  const tickLow = Number((logbpX64 - LOG_B_P_ERR_MARGIN_LOWER_X64) >> 64n);
  const tickHigh = Number((logbpX64 + LOG_B_P_ERR_MARGIN_UPPER_X64) >> 64n);
  if (tickLow === tickHigh) return tickLow;
  return tickIndexToSqrtPrice(tickHigh) <= sqrtPriceX64 ? tickHigh : tickLow;
}

/** Floor division of integers (Rust `div_euclid` for a positive divisor). */
export function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}

/** Start tick of the tick array holding `tick` (`get_tick_array_start_tick_index`). */
export function tickArrayStart(tick: number, tickSpacing: number): number {
  const span = TICK_ARRAY_SIZE * tickSpacing;
  return floorDiv(tick, span) * span;
}

/**
 * The program's `Tick::check_is_valid_start_tick`: a multiple of the array span within the bounds, or the one
 * left-edge array that starts below the minimum tick. (Rust `%` truncates toward zero; so does JS's.)
 */
export function isValidTickArrayStart(start: number, tickSpacing: number): boolean {
  const span = TICK_ARRAY_SIZE * tickSpacing;
  if (start < MIN_TICK_INDEX || start > MAX_TICK_INDEX) {
    if (start > MIN_TICK_INDEX) return false;
    return start === MIN_TICK_INDEX - ((MIN_TICK_INDEX % span) + span);
  }
  return start % span === 0;
}
