/**
 * The f64 fast path of the sell against the bigint port, field for field, over seeded states crowded at the fast
 * path's edges: amounts and reserves around 2^53, zero, one atom, u64::MAX, amounts at and around real_a, real_a
 * above virtual_a, fee rates 0 and summing to 1e6, all three curves (the linear one always declines).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SeededRandom } from '../testing/seeded-random.js';
import { commonEdge } from '../testing/edge-values.js';
import { constantProductCurve, fixedPriceCurve, linearPriceCurve } from './curves.js';
import { sellExactInF64 } from './fast-math.js';
import { randomLaunchlabStates } from './testing/random-states.js';
import { type LaunchlabCurveState, type LaunchlabRates, sellExactIn, sellExactInBig } from './math.js';

function edgy(rng: SeededRandom): bigint {
  const kind = rng.int(8);
  const common = commonEdge(rng, kind);
  if (common !== null) return common;
  switch (kind) {
    case 4: return 10n ** BigInt(6 + rng.int(12)) * rng.range(1n, 9n);
    default: return rng.magnitude(1, 56);
  }
}

function rate(rng: SeededRandom): bigint {
  return rng.pick([0n, 0n, 1n, 2500n, 10_000n, 999_999n, 1_000_000n, rng.range(0n, 400_000n)]);
}

test('the sell fast path equals the bigint port or declines, at its edges, on all three curves', () => {
  const rng = new SeededRandom(53_002);
  let fast = 0;
  let cases = 0;
  for (let i = 0; i < 150_000; i++) {
    const vA = edgy(rng);
    const s: LaunchlabCurveState = {
      virtualA: vA, virtualB: edgy(rng), realA: rng.int(4) === 0 ? edgy(rng) : vA > 0n ? rng.range(0n, vA) : 0n, realB: edgy(rng),
      totalSellA: edgy(rng),
    };
    const rates: LaunchlabRates = { tradeFeeRate: rate(rng), platformFeeRate: rate(rng), creatorFeeRate: rate(rng) };
    const amount = rng.pick([edgy(rng), s.realA, s.realA + 1n, s.realA >> BigInt(rng.int(30))]);
    for (const curve of [constantProductCurve, fixedPriceCurve, linearPriceCurve]) {
      cases++;
      const big = sellExactInBig(curve, s, rates, amount);
      const where = `amount=${amount} s=${JSON.stringify(s, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))} rates=${rates.tradeFeeRate}/${rates.platformFeeRate}/${rates.creatorFeeRate}`;
      assert.deepEqual(sellExactIn(curve, s, rates, amount), big, `dispatch ${where}`);
      const q = sellExactInF64(curve, s, rates, amount);
      if (curve === linearPriceCurve) assert.equal(q, null);
      if (q === null) continue;
      fast++;
      assert.deepEqual(q, big, where);
    }
  }
  assert.ok(fast > 3000, `${fast} of ${cases} on the fast path`);
});

test('the sell fast path equals the bigint port on the differential test states (amounts around real_a too)', () => {
  const rng = new SeededRandom(53_003);
  let fast = 0;
  for (const curveType of [0, 1, 2]) {
    const curve = [constantProductCurve, fixedPriceCurve, linearPriceCurve][curveType]!;
    for (const st of randomLaunchlabStates(53, 4000, curveType)) {
      for (const amount of [st.sellIn, st.realA, st.realA - 1n, st.realA + 1n, 1n, st.realA >> BigInt(rng.int(40))]) {
        if (amount < 0n) continue;
        const big = sellExactInBig(curve, st, st.rates, amount);
        assert.deepEqual(sellExactIn(curve, st, st.rates, amount), big);
        const q = sellExactInF64(curve, st, st.rates, amount);
        if (q === null) continue;
        fast++;
        assert.deepEqual(q, big, `type ${curveType} amount ${amount}`);
      }
    }
  }
  assert.ok(fast > 5000, `${fast} on the fast path`);
});
