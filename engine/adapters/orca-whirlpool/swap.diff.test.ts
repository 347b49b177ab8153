/**
 * Differential test of the exact swap (swap.ts) against `@orca-so/whirlpools-core` (the program's Rust math in
 * WebAssembly) over seeded random states: both directions, exact-in and exact-out.
 *
 * Per (state, direction, mode), the SDK gets the program's swap window (the three tick arrays the program walks,
 * all of them, as the truth) and ours gets the arrays the state holds (sometimes one is missing):
 * - ours OK => the SDK swapped the whole amount and every field is equal: amount in, amount out, trade fee, and
 *   the lowest and highest fee rate applied;
 * - the SDK swapped the whole amount => ours is OK, or DEPTH_UNKNOWN where an array of the window is not held
 *   (never a refusal: a walk that reaches an array it does not hold cannot tell);
 * - ours DEPTH_UNKNOWN only where an array of the window is not held (counted);
 * - ours INACTIVE for a clock before the oracle's trade-enable time, which the SDK does not check (counted apart);
 * - otherwise (the SDK throws or fills only part) ours is not OK.
 * Every fifth state's arrays go through account bytes first: encoded by the SDK's codecs (fixed or dynamic format),
 * decoded by ours.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeTickArray } from './layout.js';
import { computeWhirlpoolSwap, swapTickArrayStarts } from './swap.js';
import { ArrayTickSource, type TickArrayTicks } from './tick-source.js';
import { randomWhirlpoolStates } from './testing/random-states.js';
import { encodeTickArrayWithSdk } from './testing/sdk-accounts.js';
import { sdkQuote, tickArrayFacade } from './testing/sdk-oracle.js';

const STATES = 2500;
const SEED = 20_261_125;

test(`swap.ts matches @orca-so/whirlpools-core over ${STATES} random states x 2 directions x 2 modes, and deep walks`, (t) => {
  const states = randomWhirlpoolStates(SEED, STATES);
  const c = { cases: 0, ok: 0, crossedTicks: 0, crossedArrays: 0, reachedThirdArray: 0, adaptiveOk: 0, depthUnknown: 0, tradeNotEnabled: 0, bothRefused: 0, decoded: 0 };
  const mismatches: string[] = [];
  states.forEach((st, n) => {
    let arrays: readonly TickArrayTicks[] = st.arrays;
    if (n % 5 === 0) {
      arrays = st.arrays.map((a, i) => decodeTickArray(encodeTickArrayWithSdk(a, st.dynamic[i]!)));
      c.decoded += arrays.length;
    }
    const src = new ArrayTickSource(st.pool.tickSpacing, arrays.filter((a) => st.held.includes(a.startTickIndex)));
    const byStart = new Map(st.arrays.map((a) => [a.startTickIndex, a]));
    for (const aToB of [true, false]) {
      const window = swapTickArrayStarts(st.pool.tickCurrentIndex, st.pool.tickSpacing, aToB);
      const windowHeld = window.every((s) => st.held.includes(s));
      const facades = window.map((s) => tickArrayFacade(byStart.get(s)!));
      // Every other state also gets amounts that walk deep into the window: the largest exact-in the walk fills
      // (found by bisection on ours; only the inputs are chosen this way, the SDK still judges the result), and
      // nine tenths and half of it, in both modes (exact-out for the largest fill's output).
      const deep: bigint[] = [];
      if (n % 2 === 1) {
        let lo = 0n;
        let hi = 0xffff_ffff_ffff_ffffn;
        while (lo < hi) {
          const mid = (lo + hi + 1n) >> 1n;
          if (computeWhirlpoolSwap(st.pool, src, aToB, mid, true, st.timestamp).status === 'OK') lo = mid;
          else hi = mid - 1n;
        }
        if (lo > 0n) deep.push(lo, (lo * 9n) / 10n, lo / 2n);
      }
      const plan: { amount: bigint; exactIn: boolean }[] = [
        { amount: st.amounts[aToB ? 0 : 2]!, exactIn: true },
        { amount: st.amounts[aToB ? 1 : 3]!, exactIn: false },
      ];
      for (const a of deep) {
        if (a === 0n) continue;
        plan.push({ amount: a, exactIn: true });
        const out = computeWhirlpoolSwap(st.pool, src, aToB, a, true, st.timestamp);
        if (out.status === 'OK' && out.amountOut > 0n) plan.push({ amount: out.amountOut, exactIn: false });
      }
      for (const { amount, exactIn } of plan) {
        c.cases++;
        const ours = computeWhirlpoolSwap(st.pool, src, aToB, amount, exactIn, st.timestamp);
        const sdk = sdkQuote(st.pool, st.feeTierIndexSeed, facades, aToB, amount, exactIn, st.timestamp);
        const where = `state ${n} aToB=${aToB} exactIn=${exactIn} amount=${amount} ts=${st.pool.tickSpacing} tick=${st.pool.tickCurrentIndex} L=${st.pool.liquidity} fee=${st.pool.feeRate} adaptive=${st.pool.adaptiveFee !== null}`;
        const sdkFull = sdk !== null && sdk.full;
        if (ours.status === 'DEPTH_UNKNOWN') {
          c.depthUnknown++;
          if (windowHeld) mismatches.push(`DEPTH_UNKNOWN with the window held: ${where}`);
          continue;
        }
        if (st.pool.adaptiveFee !== null && st.timestamp < st.pool.adaptiveFee.tradeEnableTimestamp) {
          c.tradeNotEnabled++;
          if (ours.status !== 'INACTIVE') mismatches.push(`trade not enabled but ${ours.status}: ${where}`);
          continue;
        }
        if (ours.status === 'OK') {
          if (!sdkFull) { mismatches.push(`ours OK, SDK ${sdk === null ? 'threw' : 'partial'}: ${where}`); continue; }
          if (ours.amountIn !== sdk.amountIn || ours.amountOut !== sdk.amountOut || ours.feeAmount !== sdk.fee
            || ours.feeRateMin !== sdk.feeRateMin || ours.feeRateMax !== sdk.feeRateMax) {
            mismatches.push(`fields ours=${ours.amountIn}/${ours.amountOut}/${ours.feeAmount}/${ours.feeRateMin}-${ours.feeRateMax} sdk=${sdk.amountIn}/${sdk.amountOut}/${sdk.fee}/${sdk.feeRateMin}-${sdk.feeRateMax}: ${where}`);
            continue;
          }
          c.ok++;
          if (ours.ticksCrossed > 0) c.crossedTicks++;
          if (st.pool.adaptiveFee !== null && sdk.feeRateMax > st.pool.feeRate) c.adaptiveOk++;
          const startArray = Math.floor(st.pool.tickCurrentIndex / (88 * st.pool.tickSpacing));
          const endArray = Math.floor(ours.endTickIndex / (88 * st.pool.tickSpacing));
          if (endArray !== startArray) c.crossedArrays++;
          if (Math.abs(endArray - startArray) >= 2) c.reachedThirdArray++;
          continue;
        }
        if (sdkFull) { mismatches.push(`ours ${ours.status}, SDK OK ${sdk.amountIn}/${sdk.amountOut}: ${where}`); continue; }
        c.bothRefused++;
      }
    }
  });
  t.diagnostic(`whirlpool diff summary ${JSON.stringify({ ...c, mismatches: mismatches.length })}`);
  assert.deepEqual(mismatches.slice(0, 5), []);
  assert.equal(mismatches.length, 0);
  // A test that cannot fail is a defect: the generator must reach the interesting cases.
  assert.ok(c.ok > c.cases / 4, `only ${c.ok} OK of ${c.cases}`);
  assert.ok(c.crossedTicks > 500, `only ${c.crossedTicks} swaps crossed an initialized tick`);
  assert.ok(c.crossedArrays > 1000, `only ${c.crossedArrays} swaps crossed into another array`);
  assert.ok(c.reachedThirdArray > 300, `only ${c.reachedThirdArray} swaps reached the window's third array`);
  assert.ok(c.adaptiveOk > 100, `only ${c.adaptiveOk} swaps with an adaptive fee above the static rate`);
  assert.ok(c.depthUnknown > 50 && c.tradeNotEnabled > 10 && c.bothRefused > 100);
});
