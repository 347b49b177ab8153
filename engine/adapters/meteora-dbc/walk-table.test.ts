/**
 * The table-driven walks equal the program's loops (`*Loop` in swap-math.ts), result for result and error for
 * error, over seeded pools and amounts at every segment boundary (each cumulative maximum, one below, one above),
 * zero, one atom, u64::MAX and beyond, in all four walks.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SeededRandom } from '../testing/seeded-random.js';
import { U64_MAX } from './curve-math.js';
import { randomDbcCases } from './testing/random-states.js';
import { dbcStateFrom } from './state.js';
import {
  baseToQuoteFromAmountIn, baseToQuoteFromAmountInLoop, baseToQuoteFromAmountOut, baseToQuoteFromAmountOutLoop,
  quoteToBaseFromAmountIn, quoteToBaseFromAmountInLoop, quoteToBaseFromAmountOut, quoteToBaseFromAmountOutLoop,
} from './swap-math.js';
import { buyInWalk, buyOutWalk, sellInWalk, sellOutWalk } from './walk-table.js';

test('walk tables equal the loops at every segment boundary (3,000 pools x 4 walks)', () => {
  const rng = new SeededRandom(9090);
  let checked = 0;
  for (const c of randomDbcCases(31_337, 3000)) {
    const s = dbcStateFrom(c.pool, c.config, c.clock);
    const walks = [
      [baseToQuoteFromAmountIn, (x: bigint) => baseToQuoteFromAmountInLoop(s, x), sellInWalk(s)],
      [baseToQuoteFromAmountOut, (x: bigint) => baseToQuoteFromAmountOutLoop(s, x), sellOutWalk(s)],
      [quoteToBaseFromAmountIn, (x: bigint) => quoteToBaseFromAmountInLoop(s, x, s.migrationSqrtPrice), buyInWalk(s)],
      [quoteToBaseFromAmountOut, (x: bigint) => quoteToBaseFromAmountOutLoop(s, x), buyOutWalk(s)],
    ] as const;
    for (const [fast, loop, table] of walks) {
      const amounts = [0n, 1n, 2n, U64_MAX, U64_MAX + 1n, rng.range(1n, U64_MAX), table.endCumMax, table.endCumMax + 1n];
      for (const st of table.steps) amounts.push(st.cumMax - 1n, st.cumMax, st.cumMax + 1n, st.cumMax / 2n);
      for (const a of amounts) {
        if (a < 0n) continue;
        checked++;
        assert.deepEqual(fast(s, a), loop(a), `${fast.name} amount ${a}`);
      }
    }
  }
  assert.ok(checked > 50_000, `${checked} walks checked`);
});
