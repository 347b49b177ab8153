/**
 * Test and bench support: a seeded generator of CPMM swap states that covers the corners (reserves from 1
 * to near 2^64, fee rates 0 and near the limit, creator fee on/off and on either side, amounts from one atom
 * to beyond the reserve). Deterministic so that a failing case can be replayed from its index.
 */
import { SeededRandom } from '../../testing/seeded-random.js';

export { SeededRandom };
import type { CpmmFeeRates } from '../math.js';

/** One randomized swap state in the pool's own token order. */
export interface RandomCpmmState {
  readonly reserve0: bigint;
  readonly reserve1: bigint;
  /** Effective rates (creator rate already 0 when the creator fee is disabled). */
  readonly rates: CpmmFeeRates;
  readonly creatorFeeOn: number;
  readonly enableCreatorFee: boolean;
  /** One exact-in amount and one exact-out amount per direction. */
  readonly amountIn01: bigint;
  readonly amountIn10: bigint;
  readonly amountOut01: bigint;
  readonly amountOut10: bigint;
}


const U64_MAX = 0xffff_ffff_ffff_ffffn;

function reserve(rng: SeededRandom): bigint {
  switch (rng.int(8)) {
    case 0: return rng.range(1n, 1000n);
    case 1: return rng.range(U64_MAX - 1000n, U64_MAX);
    default: return rng.magnitude(1, 63);
  }
}

function amountFor(rng: SeededRandom, reserveRef: bigint): bigint {
  switch (rng.int(10)) {
    case 0: return 1n;
    case 1: return reserveRef;
    case 2: return reserveRef > 1n ? reserveRef - 1n : 1n;
    case 3: return reserveRef * 2n > U64_MAX ? U64_MAX : reserveRef * 2n;
    case 4: return rng.magnitude(0, 64);
    default: {
      // Mostly a fraction of the reserve: 2^-k of it for k in 0..40, so that typical trades dominate.
      const v = reserveRef >> BigInt(rng.int(41));
      return v > 0n ? rng.range(1n, v) : 1n;
    }
  }
}

/** `count` states from the stream of `seed` (same seed, same states). */
export function randomCpmmStates(seed: number, count: number): RandomCpmmState[] {
  const rng = new SeededRandom(seed);
  const out: RandomCpmmState[] = [];
  for (let i = 0; i < count; i++) {
    // The program's config invariant: trade + creator < 1e6, protocol + fund <= 1e6.
    const trade = rng.pick([0n, 0n, 1n, 100n, 2500n, 10_000n, 40_000n, rng.range(0n, 999_999n), 999_999n]);
    const creatorMax = 999_999n - trade;
    const creatorRaw = creatorMax === 0n ? 0n : rng.pick([0n, 1n, 500n, 5000n, rng.range(0n, creatorMax), creatorMax]);
    const creator = creatorRaw > creatorMax ? creatorMax : creatorRaw;
    const protocol = rng.pick([0n, 120_000n, 250_000n, rng.range(0n, 1_000_000n), 1_000_000n]);
    const fund = rng.pick([0n, 40_000n, rng.range(0n, 1_000_000n - protocol), 1_000_000n - protocol]);
    const enableCreatorFee = rng.int(3) !== 0;
    const reserve0 = reserve(rng);
    const reserve1 = reserve(rng);
    out.push({
      reserve0,
      reserve1,
      rates: {
        tradeFeeRate: trade,
        creatorFeeRate: enableCreatorFee ? creator : 0n,
        protocolFeeRate: protocol,
        fundFeeRate: fund,
      },
      creatorFeeOn: rng.int(3),
      enableCreatorFee,
      amountIn01: amountFor(rng, reserve0),
      amountIn10: amountFor(rng, reserve1),
      amountOut01: amountFor(rng, reserve1),
      amountOut10: amountFor(rng, reserve0),
    });
  }
  return out;
}
