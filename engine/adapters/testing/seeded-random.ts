/**
 * The seeded generator of the adapters' randomized test states and benches: splitmix64 over bigint, tiny and
 * deterministic (same seed, same states), good enough for test inputs (not for anything secret).
 */

const U64 = 0xffff_ffff_ffff_ffffn;

/** splitmix64 over bigint. */
export class SeededRandom {
  private state: bigint;

  /** Creates a generator from an integer seed. */
  constructor(seed: number | bigint) {
    this.state = BigInt(seed) & U64;
  }

  /** Next 64 random bits. */
  nextU64(): bigint {
    this.state = (this.state + 0x9e37_79b9_7f4a_7c15n) & U64;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58_476d_1ce4_e5b9n) & U64;
    z = ((z ^ (z >> 27n)) * 0x94d0_49bb_1331_11ebn) & U64;
    return z ^ (z >> 31n);
  }

  /** Uniform integer in [0, n) for n <= 2^32. */
  int(n: number): number {
    return Number(this.nextU64() % BigInt(n));
  }

  /** Uniform float in [0, 1) (53 bits). */
  float(): number {
    return Number(this.nextU64() >> 11n) / 2 ** 53;
  }

  /** Uniform bigint in [lo, hi] (inclusive), hi - lo < 2^64. */
  range(lo: bigint, hi: bigint): bigint {
    return lo + (this.nextU64() % (hi - lo + 1n));
  }

  /** A bigint in [1, 2^bits) for a bit count uniform over `minBits..maxBits` (log-uniform-ish magnitudes). */
  magnitude(minBits: number, maxBits: number): bigint {
    const bits = Math.max(1, minBits + this.int(maxBits - minBits + 1));
    return this.range(1n, (1n << BigInt(bits)) - 1n);
  }

  /** A bigint of exactly `bits` bits, the bit count uniform over `minBits..maxBits` (log-uniform magnitudes). */
  magnitudeBits(minBits: number, maxBits: number): bigint {
    const bits = Math.max(1, minBits + this.int(maxBits - minBits + 1));
    return this.range(1n << BigInt(bits - 1), (1n << BigInt(bits)) - 1n);
  }

  /** Picks one element. */
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
}
