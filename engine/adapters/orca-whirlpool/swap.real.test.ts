/**
 * Quotes on the real mainnet pools of the shared set against `@orca-so/whirlpools-core` on the same state.
 * No set holds a pool with the tick arrays around its price, so:
 * - the Carbon splash pool (tick spacing 32,896) is quoted over its real fixed tick array (start -2,894,848; its one
 *   initialized tick is the full-range position's lower tick, with liquidity_net equal to the pool's liquidity, so
 *   the array is this pool's) and the array at 0 rebuilt from that position (its upper tick, net -liquidity);
 * - the SOL/USDC and SOL/USDT pools are quoted over all-uninitialized arrays (their real price, liquidity and fee
 *   rate; the range any quote reaches stays inside the three arrays or ends there).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeTickArray, decodeWhirlpool } from './layout.js';
import { computeWhirlpoolSwap, swapTickArrayStarts, type WhirlpoolSwapParams } from './swap.js';
import { TICK_ARRAY_SIZE } from './tick-math.js';
import { ArrayTickSource, type TickArrayTicks } from './tick-source.js';
import { realWhirlpoolAccounts } from './testing/real-accounts.js';
import { sdkQuote, tickArrayFacade } from './testing/sdk-oracle.js';

function emptyArray(start: number): TickArrayTicks {
  return { startTickIndex: start, bitmap: new Uint32Array(3), liquidityNet: new Array<bigint>(TICK_ARRAY_SIZE).fill(0n) };
}

test('real mainnet pools quote as the SDK does, both directions and modes, amounts from 1 atom to u64', () => {
  const accounts = realWhirlpoolAccounts();
  const realArray = decodeTickArray(accounts.find((a) => a.set.endsWith('carbon-tick-array-account'))!.data);
  let compared = 0;
  let ok = 0;
  let splashRefused = 0;
  for (const acc of accounts.filter((a) => a.role === 'pool')) {
    const w = decodeWhirlpool(acc.data);
    assert.equal(w.feeTierIndexSeed, w.tickSpacing, `${acc.set}: a static-fee pool (no Oracle in the set)`);
    const pool: WhirlpoolSwapParams = {
      sqrtPrice: w.sqrtPrice, liquidity: w.liquidity, tickCurrentIndex: w.tickCurrentIndex, tickSpacing: w.tickSpacing,
      feeRate: w.feeRate, adaptiveFee: null,
    };
    const arrays = new Map<number, TickArrayTicks>();
    for (const aToB of [true, false]) {
      for (const s of swapTickArrayStarts(w.tickCurrentIndex, w.tickSpacing, aToB)) {
        if (s === realArray.startTickIndex && w.tickSpacing === 32_896) arrays.set(s, realArray);
        else if (!arrays.has(s)) arrays.set(s, emptyArray(s));
      }
    }
    if (w.tickSpacing === 32_896) {
      // The full-range position's upper tick (427,648 = 13 x 32,896) in the array at 0.
      const a = emptyArray(0);
      a.bitmap[0] = 1 << 13;
      (a.liquidityNet as bigint[])[13] = -w.liquidity;
      arrays.set(0, a);
    }
    const src = new ArrayTickSource(w.tickSpacing, [...arrays.values()]);
    const timestamp = 1_760_000_000n;
    for (const aToB of [true, false]) {
      const facades = swapTickArrayStarts(w.tickCurrentIndex, w.tickSpacing, aToB).map((s) => tickArrayFacade(arrays.get(s)!));
      for (const exactIn of [true, false]) {
        for (let bits = 0; bits <= 64; bits += 2) {
          const amount = bits === 64 ? 0xffff_ffff_ffff_ffffn : (1n << BigInt(bits)) + BigInt(bits);
          const ours = computeWhirlpoolSwap(pool, src, aToB, amount, exactIn, timestamp);
          const sdk = sdkQuote(pool, w.feeTierIndexSeed, facades, aToB, amount, exactIn, timestamp);
          const where = `${acc.set} aToB=${aToB} exactIn=${exactIn} amount=${amount}`;
          compared++;
          if (sdk !== null && sdk.full) {
            assert.equal(ours.status, 'OK', where);
            assert.deepEqual([ours.amountIn, ours.amountOut, ours.feeAmount, ours.feeRateMin, ours.feeRateMax],
              [sdk.amountIn, sdk.amountOut, sdk.fee, sdk.feeRateMin, sdk.feeRateMax], where);
            ok++;
          } else {
            assert.notEqual(ours.status, 'OK', where);
            // Past the full-range ticks the splash pool has no liquidity: the SDK fills part, ours refuses.
            if (w.tickSpacing === 32_896 && sdk !== null) splashRefused++;
          }
        }
      }
    }
  }
  assert.ok(ok > compared / 3, `${ok} OK of ${compared}`);
  assert.ok(splashRefused > 0, 'large splash-pool quotes walk to its real full-range tick and past it');
});
