/**
 * Test and bench support: seeded LaunchLab states for all three curves, built the way the program launches them
 * (the SDK's `getInitParam` for virtual_a / virtual_b / total_sell_a) and advanced to a random point of the curve
 * (fresh, mid, one atom to a few atoms from the cap, full), with real_b on the curve plus an occasional rounding
 * surplus; fee rates from 0 to a total of exactly 1e6; amounts from one atom to beyond what the pool can pay.
 * Deterministic: a failing case can be replayed from its index.
 */
import { SeededRandom } from '../../testing/seeded-random.js';
import { Q64, ceilDivSdk } from '../curves.js';
import type { LaunchlabCurveState, LaunchlabRates } from '../math.js';

/** One randomized state with one amount per direction and mode. */
export interface RandomLaunchlabState extends LaunchlabCurveState {
  readonly curveType: number;
  readonly rates: LaunchlabRates;
  /** B paid (buy exact-in), A wanted (buy exact-out), A sold (sell exact-in), B wanted (sell exact-out). */
  readonly buyIn: bigint;
  readonly buyOut: bigint;
  readonly sellIn: bigint;
  readonly sellOut: bigint;
}

const U64_MAX = 0xffff_ffff_ffff_ffffn;

function rates(rng: SeededRandom): LaunchlabRates {
  if (rng.int(12) === 0) {
    // A total of exactly 1e6 (the SDK's maximum), split at random.
    const t = rng.range(0n, 1_000_000n);
    const p = rng.range(0n, 1_000_000n - t);
    return { tradeFeeRate: t, platformFeeRate: p, creatorFeeRate: 1_000_000n - t - p };
  }
  return {
    tradeFeeRate: rng.pick([0n, 0n, 2500n, 10_000n, rng.range(0n, 100_000n), rng.range(0n, 600_000n)]),
    platformFeeRate: rng.pick([0n, 1000n, 10_000n, rng.range(0n, 200_000n)]),
    creatorFeeRate: rng.pick([0n, 500n, 5000n, rng.range(0n, 200_000n)]),
  };
}

interface Init { virtualA: bigint; virtualB: bigint; totalSellA: bigint }

/** The SDK's getInitParam of each curve (supply, total sell, fund raising, migrate fee; no locked amount). */
function init(curveType: number, supply: bigint, sellBps: bigint, fund: bigint, migrateFee: bigint): Init | null {
  if (curveType === 0) {
    const totalSell = (supply * sellBps) / 10_000n;
    const rest = supply - totalSell;
    const tfm = fund - migrateFee;
    const den = (tfm * totalSell) / rest - fund;
    if (rest <= 0n || tfm <= 0n || den <= 0n) return null;
    return { virtualA: (tfm * totalSell * totalSell) / rest / den, virtualB: (fund * fund) / den, totalSellA: totalSell };
  }
  if (curveType === 1) {
    const totalSell = (fund * supply) / (2n * fund - migrateFee);
    return { virtualA: totalSell, virtualB: fund, totalSellA: totalSell };
  }
  const totalSell = (2n * fund * supply) / (3n * fund - migrateFee);
  const a = (2n * fund * Q64) / (totalSell * totalSell);
  if (a <= 0n || a >= U64_MAX) return null;
  return { virtualA: a, virtualB: 0n, totalSellA: totalSell };
}

/** B the curve holds after selling `realA` from zero, without fees (what real_b is, rounding aside). */
function curveB(curveType: number, i: Init, realA: bigint): bigint {
  if (curveType === 0) return ceilDivSdk(i.virtualB * realA, i.virtualA - realA) ?? 0n;
  if (curveType === 1) return ceilDivSdk(i.virtualB * realA, i.virtualA) ?? 0n;
  return ceilDivSdk(i.virtualA * realA * realA, 2n * Q64) ?? 0n;
}

function progress(rng: SeededRandom, total: bigint): bigint {
  switch (rng.int(10)) {
    case 0: return 0n;
    case 1: return rng.range(0n, total / 1000n + 1n);
    case 2: return total - rng.range(1n, 3n) > 0n ? total - rng.range(1n, 3n) : 0n; // a few atoms from the cap
    case 3: return total - rng.range(1n, total / 10_000n + 1n) > 0n ? total - rng.range(1n, total / 10_000n + 1n) : 0n;
    case 4: return total; // full, still Fund (the program flips it on the next swap's check)
    default: return rng.range(0n, total);
  }
}

function amount(rng: SeededRandom, ref: bigint): bigint {
  switch (rng.int(9)) {
    case 0: return 1n;
    case 1: return ref > 0n ? ref : 1n;
    case 2: return ref + 1n;
    case 3: return ref * 3n + 7n > U64_MAX ? U64_MAX : ref * 3n + 7n;
    case 4: return rng.magnitude(1, 63);
    default: {
      const v = ref >> BigInt(rng.int(30));
      return v > 0n ? rng.range(1n, v) : 1n;
    }
  }
}

/** `count` states of one curve type from the stream of `seed` (same seed, same states). */
export function randomLaunchlabStates(seed: number, count: number, curveType: number): RandomLaunchlabState[] {
  const rng = new SeededRandom(seed * 7 + curveType);
  const out: RandomLaunchlabState[] = [];
  while (out.length < count) {
    const decimalsA = rng.pick([6n, 6n, 9n, 0n, 3n]);
    const supply = rng.pick([10n ** 9n, 10n ** 10n, rng.range(10n ** 6n, 10n ** 12n)]) * 10n ** decimalsA;
    const fund = rng.pick([85n * 10n ** 9n, 30n * 10n ** 9n, 12_000n * 10n ** 6n, rng.magnitude(20, 58)]);
    const i = init(curveType, supply > U64_MAX / 4n ? U64_MAX / 4n : supply, rng.range(5_500n, 8_500n), fund, fund / rng.range(20n, 1000n));
    if (!i || i.totalSellA <= 0n || i.virtualA <= 0n || (curveType !== 2 && i.virtualB <= 0n)) continue;
    const realA = progress(rng, i.totalSellA);
    const surplus = rng.int(4) === 0 ? rng.range(1n, 1000n) : 0n;
    const realB = curveB(curveType, i, realA) + surplus;
    if (realB > U64_MAX / 2n) continue;
    const left = i.totalSellA - realA;
    out.push({
      ...i,
      curveType,
      realA,
      realB,
      rates: rates(rng),
      buyIn: amount(rng, fund),
      buyOut: amount(rng, left),
      sellIn: amount(rng, realA),
      sellOut: amount(rng, realB),
    });
  }
  return out;
}
