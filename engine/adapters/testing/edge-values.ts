/**
 * Test support: u64 amounts crowded at the edges every f64 fast path must get right (0 to 3, within 64 of 2^53 on
 * both sides, within 3 of u64::MAX), shared by the adapters' fast-path tests.
 */
import type { SeededRandom } from './seeded-random.js';

/** 2^53, where integers stop being exact in an f64. */
export const TWO53 = 1n << 53n;
const U64_MAX = (1n << 64n) - 1n;

/** For draws `kind` 0 to 3, an edge value (the caller draws `kind`); null for any other kind (the caller's own). */
export function commonEdge(rng: SeededRandom, kind: number): bigint | null {
  switch (kind) {
    case 0: return rng.range(0n, 3n);
    case 1: return TWO53 - rng.range(0n, 64n);
    case 2: return TWO53 + rng.range(0n, 64n);
    case 3: return U64_MAX - rng.range(0n, 3n);
    default: return null;
  }
}
