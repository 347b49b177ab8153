/**
 * Test and bench support: a seeded generator of Whirlpool swap states that covers the corners: tick spacings
 * 1..256, prices anywhere in the tick range (near both bounds and on array edges too), liquidity from 0 to 2^110,
 * positions whose ticks spread over six tick arrays around the price (so a swap crosses several arrays), static fee
 * rates up to 65,535, adaptive-fee oracles with random constants and variables within the program's rules and
 * clocks before, inside and after the filter and decay periods. Deterministic: replay a case from its index.
 */
import { SeededRandom } from '../../testing/seeded-random.js';
import type { AdaptiveFeeInfo } from '../adaptive-fee.js';
import type { WhirlpoolSwapParams } from '../swap.js';
import { MAX_TICK_INDEX, MIN_TICK_INDEX, TICK_ARRAY_SIZE, isValidTickArrayStart, sqrtPriceToTickIndex, tickIndexToSqrtPrice } from '../tick-math.js';
import type { TickArrayTicks } from '../tick-source.js';

/** One randomized state: the pool, its tick arrays (every valid array within two of the price's), the clock. */
export interface RandomWhirlpoolState {
  readonly pool: WhirlpoolSwapParams;
  readonly feeTierIndexSeed: number;
  /** Tick arrays of the truth, sorted by start. */
  readonly arrays: readonly TickArrayTicks[];
  /** Starts of the arrays the quote is given (the others are not held). */
  readonly held: readonly number[];
  /** Dynamic (true) or fixed account format per array, for encode/decode round trips. */
  readonly dynamic: readonly boolean[];
  readonly timestamp: bigint;
  /** One amount per direction and mode: [aToB in, aToB out, bToA in, bToA out]. */
  readonly amounts: readonly bigint[];
}

const U64_MAX = 0xffff_ffff_ffff_ffffn;

function tickSpacing(rng: SeededRandom): number {
  return rng.int(3) === 0 ? 1 + rng.int(256) : rng.pick([1, 2, 4, 8, 16, 32, 64, 96, 128, 256]);
}

function currentTick(rng: SeededRandom, ts: number): number {
  const span = TICK_ARRAY_SIZE * ts;
  switch (rng.int(8)) {
    case 0: return MIN_TICK_INDEX + rng.int(3 * span);
    case 1: return MAX_TICK_INDEX - 1 - rng.int(3 * span);
    case 2: {
      // On or next to an array edge.
      const s = Math.floor((rng.int(40_001) - 20_000) / span) * span;
      return s + rng.pick([0, -1, ts - 1, -ts, span - 1, span - ts, span - ts - 1]);
    }
    case 3: return rng.int(2001) - 1000;
    default: return rng.int(2 * 300_000 + 1) - 300_000;
  }
}

function sqrtPriceIn(rng: SeededRandom, tick: number): bigint {
  const lo = tickIndexToSqrtPrice(tick);
  const hi = tickIndexToSqrtPrice(tick + 1) - 1n;
  switch (rng.int(5)) {
    case 0: return lo;
    case 1: return hi > lo ? hi : lo;
    default: return hi > lo ? rng.range(lo, hi) : lo;
  }
}

function liquidityMagnitude(rng: SeededRandom): bigint {
  return rng.int(10) === 0 ? 0n : rng.magnitude(1, rng.pick([24, 40, 56, 64, 80, 110]));
}

function adaptiveFee(rng: SeededRandom, ts: number, tick: number, now: bigint): AdaptiveFeeInfo {
  const divisors: number[] = [];
  for (let d = 1; d <= ts; d++) if (ts % d === 0) divisors.push(d);
  const tickGroupSize = rng.pick(divisors);
  const maxVolatilityAccumulator = Math.min(rng.int(3) === 0 ? 1 + rng.int(500_000) : rng.pick([10_000, 88_000, 350_000, 450_000]), Math.floor(0xffff_ffff / tickGroupSize));
  const filterPeriod = rng.pick([1, 10, 30, 60, rng.int(600) + 1]);
  const decayPeriod = filterPeriod + 1 + rng.int(1200);
  const volatilityAccumulator = rng.int(maxVolatilityAccumulator + 1);
  const volatilityReference = rng.int(volatilityAccumulator + 1);
  const age = rng.pick([0, 1, filterPeriod - 1, filterPeriod, decayPeriod - 1, decayPeriod, 3_600, 3_601, rng.int(5_000)]);
  const lastRef = now - BigInt(age);
  const lastMajor = lastRef + BigInt(rng.int(Number(now - lastRef) + 1));
  const group = Math.floor(tick / tickGroupSize);
  return {
    tradeEnableTimestamp: rng.int(10) === 0 ? now + 1n + BigInt(rng.int(100)) : rng.range(0n, now),
    constants: {
      filterPeriod, decayPeriod,
      reductionFactor: rng.pick([0, 5_000, rng.int(10_000)]),
      adaptiveFeeControlFactor: rng.pick([0, 1_500, 4_000, 50_000, rng.int(100_000)]),
      maxVolatilityAccumulator, tickGroupSize,
      majorSwapThresholdTicks: 1 + rng.int(512),
    },
    variables: {
      lastReferenceUpdateTimestamp: lastRef,
      lastMajorSwapTimestamp: lastMajor,
      volatilityReference,
      tickGroupIndexReference: group + rng.int(21) - 10,
      volatilityAccumulator,
    },
  };
}

function amount(rng: SeededRandom): bigint {
  switch (rng.int(8)) {
    case 0: return 1n;
    case 1: return U64_MAX;
    default: return rng.magnitude(1, 64);
  }
}

/** `count` states from the stream of `seed` (same seed, same states). */
export function randomWhirlpoolStates(seed: number, count: number): RandomWhirlpoolState[] {
  const rng = new SeededRandom(seed);
  const out: RandomWhirlpoolState[] = [];
  for (let n = 0; n < count; n++) {
    const ts = tickSpacing(rng);
    const span = TICK_ARRAY_SIZE * ts;
    let tick = currentTick(rng, ts);
    tick = Math.max(MIN_TICK_INDEX, Math.min(MAX_TICK_INDEX - 1, tick));
    const sqrtPrice = sqrtPriceIn(rng, tick);
    const tickCurrentIndex = sqrtPriceToTickIndex(sqrtPrice);
    const base = Math.floor(tickCurrentIndex / span) * span;
    const starts: number[] = [];
    for (let k = -3; k <= 3; k++) {
      const s = base + k * span;
      if (isValidTickArrayStart(s, ts)) starts.push(s);
    }
    const lo = starts[0]!;
    const hi = starts[starts.length - 1]! + span;
    const minInit = Math.ceil(Math.max(lo, MIN_TICK_INDEX) / ts) * ts;
    const maxInit = Math.floor(Math.min(hi - 1, MAX_TICK_INDEX) / ts) * ts;
    // Positions: +L at the lower tick, -L at the upper; the pool's liquidity is what the current tick is inside.
    const net = new Map<number, bigint>();
    let liquidity = rng.int(4) === 0 ? 0n : liquidityMagnitude(rng);
    const positions = 1 + rng.int(16);
    const nearby = (): number => {
      const spread = rng.pick([2, 10, 88, 200, 400]) * ts;
      const t = tickCurrentIndex + rng.int(2 * spread + 1) - spread;
      return Math.min(maxInit, Math.max(minInit, Math.floor(t / ts) * ts));
    };
    for (let p = 0; p < positions; p++) {
      let a = nearby();
      let b = nearby();
      if (a === b) continue;
      if (a > b) [a, b] = [b, a];
      const l = liquidityMagnitude(rng);
      if (l === 0n) continue;
      net.set(a, (net.get(a) ?? 0n) + l);
      net.set(b, (net.get(b) ?? 0n) - l);
      if (a <= tickCurrentIndex && tickCurrentIndex < b) liquidity += l;
    }
    if (rng.int(6) === 0) {
      // An initialized tick with zero net (a position opened and closed leaves it initialized).
      const t = nearby();
      if (!net.has(t)) net.set(t, 0n);
    }
    const arrays: TickArrayTicks[] = starts.map((s) => {
      const bitmap = new Uint32Array(3);
      const liquidityNet = new Array<bigint>(TICK_ARRAY_SIZE).fill(0n);
      for (const [t, v] of net) {
        if (t < s || t >= s + span) continue;
        const i = (t - s) / ts;
        bitmap[i >> 5] = (bitmap[i >> 5]! | (1 << (i & 31))) >>> 0;
        liquidityNet[i] = v;
      }
      return { startTickIndex: s, bitmap, liquidityNet };
    });
    const held = rng.int(4) === 0 ? starts.filter((_s, i) => i !== rng.int(starts.length)) : starts.slice();
    const now = 1_700_000_000n + BigInt(rng.int(100_000_000));
    const adaptive = rng.int(2) === 0 ? adaptiveFee(rng, ts, tickCurrentIndex, now) : null;
    const feeRate = rng.pick([0, 1, 100, 300, 3_000, 10_000, 30_000, 65_535, rng.int(65_536)]);
    // An adaptive-fee pool is one whose fee tier index differs from its tick spacing.
    let feeTierIndexSeed = ts;
    if (adaptive !== null) feeTierIndexSeed = (ts + 1 + rng.int(1024)) & 0xffff || 1;
    let timestamp = now;
    if (adaptive !== null && rng.int(20) === 0) {
      const v = adaptive.variables;
      const max = v.lastReferenceUpdateTimestamp > v.lastMajorSwapTimestamp ? v.lastReferenceUpdateTimestamp : v.lastMajorSwapTimestamp;
      timestamp = max - 1n;
    }
    out.push({
      pool: { sqrtPrice, liquidity, tickCurrentIndex, tickSpacing: ts, feeRate, adaptiveFee: adaptive },
      feeTierIndexSeed,
      arrays, held, dynamic: starts.map(() => rng.int(2) === 0), timestamp,
      amounts: [amount(rng), amount(rng), amount(rng), amount(rng)],
    });
  }
  return out;
}
