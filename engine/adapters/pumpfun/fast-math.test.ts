/**
 * The f64 fast path against the bigint port, field for field, over seeded curves crowded at the fast path's edges:
 * reserves and amounts around 2^53, zero, one atom, u64::MAX, amounts at and around the real reserves, fee rates
 * 0 and large. The path must either decline (null) or give exactly the bigint result.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SeededRandom } from '../testing/seeded-random.js';
import { commonEdge } from '../testing/edge-values.js';
import { buyExactQuoteInF64, buyExactTokensOutF64, sellExactTokensInF64 } from './fast-math.js';
import type { TradeFeeBps } from './fees.js';
import {
  type CurveReserves, buyExactQuoteIn, buyExactQuoteInBig, buyExactTokensOut, buyExactTokensOutBig, sellExactTokensIn,
  sellExactTokensInBig,
} from './math.js';
import { INITIAL_VIRTUAL_SOL, INITIAL_VIRTUAL_TOKEN } from './testing/random-states.js';

function edgy(rng: SeededRandom): bigint {
  const kind = rng.int(9);
  const common = commonEdge(rng, kind);
  if (common !== null) return common;
  switch (kind) {
    case 4: return (1n << BigInt(20 + rng.int(34))) + rng.range(0n, 8n) - 4n;
    case 5: return INITIAL_VIRTUAL_TOKEN - rng.range(0n, INITIAL_VIRTUAL_TOKEN / 2n);
    case 6: return INITIAL_VIRTUAL_SOL + rng.range(0n, 90_000_000_000n);
    default: return rng.magnitude(1, 56);
  }
}

test('the f64 fast path equals the bigint port or declines, at its edges (2^53, 0, u64::MAX, real reserves)', () => {
  const rng = new SeededRandom(53_001);
  let fast = 0;
  let cases = 0;
  for (let i = 0; i < 100_000; i++) {
    const vT = edgy(rng);
    const r: CurveReserves = {
      virtualTokenReserves: vT, virtualQuoteReserves: edgy(rng),
      realTokenReserves: rng.int(3) === 0 ? edgy(rng) : vT > 1n ? rng.range(0n, vT - 1n) : 0n, realQuoteReserves: edgy(rng),
    };
    const fees: TradeFeeBps = { protocolFeeBps: rng.pick([0n, 1n, 95n, 2000n, 9999n, edgy(rng)]), creatorFeeBps: rng.pick([0n, 30n, 95n, 500n, edgy(rng)]) };
    const amount = rng.pick([edgy(rng), r.realTokenReserves, r.realTokenReserves + 1n, r.realQuoteReserves, r.realTokenReserves >> BigInt(rng.int(30))]);
    for (const [f, b, d] of [
      [buyExactQuoteInF64, buyExactQuoteInBig, buyExactQuoteIn],
      [buyExactTokensOutF64, buyExactTokensOutBig, buyExactTokensOut],
      [sellExactTokensInF64, sellExactTokensInBig, sellExactTokensIn],
    ] as const) {
      cases++;
      const big = b(amount, r, fees);
      const where = `${b.name} amount=${amount} r=${JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))} fees=${fees.protocolFeeBps}/${fees.creatorFeeBps}`;
      assert.deepEqual(d(amount, r, fees), big, `dispatch ${where}`);
      const q = f(amount, r, fees);
      if (q === null) continue;
      fast++;
      assert.deepEqual(q, big, where);
    }
  }
  assert.ok(fast > cases / 10, `${fast} of ${cases} on the fast path`);
});
