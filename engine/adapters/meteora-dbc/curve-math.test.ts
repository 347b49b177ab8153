/**
 * The rounded-up divisions of curve-math.ts and fee-math.ts ((prod + d - 1) / d, (prod + 2^128 - 1) >> 128) against
 * the reference form (floor, plus one unless the quotient times the divisor gives the product back), on exact
 * multiples, one atom either side of them, zero, and values across u64 / u128 / U256 magnitudes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SeededRandom } from '../testing/seeded-random.js';
import { U128_MAX, U256_MAX, deltaQuote256, mulDivU256, nextSqrtPriceFromOutput } from './curve-math.js';
import { mulDivU64 } from './fee-math.js';

function ref(prod: bigint, d: bigint, up: boolean): bigint {
  const q = prod / d;
  return up && q * d !== prod ? q + 1n : q;
}

test('rounded-up divisions equal floor-plus-remainder-check at exact multiples and around them', () => {
  const rng = new SeededRandom(128_256);
  for (let i = 0; i < 60_000; i++) {
    const bits = rng.pick([8, 64, 128, 192, 255]);
    const d = rng.magnitude(1, bits);
    const k = rng.magnitude(0, 128);
    // x * y at an exact multiple of d, or one off it: y = d and x = k, or a random pair.
    const [x, y] = rng.int(2) === 0 ? [k, d] : [rng.magnitude(0, 128), rng.magnitude(0, 128)];
    for (const up of [true, false]) {
      const want = ref(x * y, d, up);
      assert.equal(mulDivU256(x, y, d, up), want > U256_MAX ? null : want, `${x}*${y}/${d}`);
      if (x * y + 1n <= U256_MAX) {
        const w1 = ref(x * y + 1n, d, up);
        assert.equal(mulDivU256(x * y + 1n, 1n, d, up), w1 > U256_MAX ? null : w1);
      }
      const x64 = x & ((1n << 64n) - 1n);
      const y64 = y & ((1n << 64n) - 1n);
      const d64 = (d & ((1n << 64n) - 1n)) || 1n;
      const p64 = x64 * y64;
      const w64 = ref(p64, d64, up);
      assert.equal(mulDivU64(x64, y64, d64, up), p64 > U128_MAX ? 'MathOverflow' : w64 > (1n << 64n) - 1n ? 'TypeCastFailed' : w64);
    }
    const lower = rng.magnitude(1, 127);
    const upper = lower + rng.pick([0n, 1n, rng.magnitude(0, 127)]);
    const liq = rng.int(3) === 0 ? 1n << 128n : rng.magnitude(0, 128);
    for (const up of [true, false]) assert.equal(deltaQuote256(lower, upper, liq, up), ref(liq * (upper - lower), 1n << 128n, up));
    const sqrt = rng.magnitude(1, 128);
    const out = rng.int(3) === 0 ? liq : rng.magnitude(0, 64);
    if (liq > 0n) {
      const want = sqrt - ref(out << 128n, liq, true);
      assert.equal(nextSqrtPriceFromOutput(sqrt, liq, out, true), want < 0n ? 'MathOverflow' : want);
    }
  }
});
