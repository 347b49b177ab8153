/**
 * Orca Whirlpool exact quote: ours (engine/adapters/orca-whirlpool: the program's swap loop in BigInt over a tick
 * source, over decoded arrays and over the slab's array region read in place) against the official SDK's
 * `swapQuoteByInputToken` / `swapQuoteByOutputToken` (`@orca-so/whirlpools-core`, the program's Rust math in
 * WebAssembly) on the same states: 1,000 swaps that stay inside the current tick array ("in range") and 200 that
 * cross initialized ticks into another of the window's three arrays ("across arrays"), exact-in, and exact-out for
 * the exact-in's output. The SDK's facades (pool, oracle, the window's three tick arrays) are built once outside
 * the timed body. Each task runs its whole set per iteration.
 * Run: `npx tsc -p tsconfig.json && flock /tmp/bench.lock node dist/bench/orca-whirlpool-quote.bench.js`.
 * Results: bench/README.md.
 */
import { Bench } from 'tinybench';
import { printQuoteReport } from './quote-report.js';
import { ArraySlab } from '../engine/slab/array-slab.js';
import { computeWhirlpoolSwap, swapTickArrayStarts, type WhirlpoolSwapParams } from '../engine/adapters/orca-whirlpool/swap.js';
import { ArrayTickSource, type TickSource } from '../engine/adapters/orca-whirlpool/tick-source.js';
import { SlabTickSource, WHIRLPOOL_TICK_ARRAY_KIND, writeTickArrayRecord } from '../engine/adapters/orca-whirlpool/tick-array-record.js';
import { randomWhirlpoolStates } from '../engine/adapters/orca-whirlpool/testing/random-states.js';
import { oracleFacade, sdkCore, sdkQuote, tickArrayFacade, whirlpoolFacade } from '../engine/adapters/orca-whirlpool/testing/sdk-oracle.js';
import type * as Core from '@orca-so/whirlpools-core';

const N_IN = 1000;
const N_CROSS = 200;
const TIME_MS = 1500;

interface Case {
  readonly pool: WhirlpoolSwapParams;
  readonly aToB: boolean;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly timestamp: bigint;
  readonly decoded: TickSource;
  readonly slab: SlabTickSource;
  readonly wp: Core.WhirlpoolFacade;
  readonly oracle: Core.OracleFacade | null;
  readonly arrays: Core.TickArrayFacade[];
}

const slab = ArraySlab.create(288, 64, 1 << 16);

function build(crossing: boolean, want: number, seed: number): Case[] {
  const out: Case[] = [];
  let pool = 0;
  for (let round = 0; out.length < want && round < 40; round++) {
    for (const st of randomWhirlpoolStates(seed + round, 2000)) {
      if (out.length === want) break;
      if (st.held.length !== st.arrays.length) continue;
      if (st.pool.adaptiveFee !== null && st.timestamp < st.pool.adaptiveFee.tradeEnableTimestamp) continue;
      const aToB = out.length % 2 === 0;
      const decoded = new ArrayTickSource(st.pool.tickSpacing, st.arrays);
      const amountIn = st.amounts[aToB ? 0 : 2]!;
      const q = computeWhirlpoolSwap(st.pool, decoded, aToB, amountIn, true, st.timestamp);
      if (q.status !== 'OK' || q.amountOut === 0n) continue;
      const span = 88 * st.pool.tickSpacing;
      const crossedArray = Math.floor(q.endTickIndex / span) !== Math.floor(st.pool.tickCurrentIndex / span);
      if (crossing ? !(q.ticksCrossed > 0 && crossedArray) : (q.ticksCrossed > 0 || crossedArray)) continue;
      if (computeWhirlpoolSwap(st.pool, decoded, aToB, q.amountOut, false, st.timestamp).status !== 'OK') continue;
      const byStart = new Map(st.arrays.map((a) => [a.startTickIndex, a]));
      const arrays = swapTickArrayStarts(st.pool.tickCurrentIndex, st.pool.tickSpacing, aToB).map((s) => tickArrayFacade(byStart.get(s)!));
      const sIn = sdkQuote(st.pool, st.feeTierIndexSeed, arrays, aToB, amountIn, true, st.timestamp);
      const sOut = sdkQuote(st.pool, st.feeTierIndexSeed, arrays, aToB, q.amountOut, false, st.timestamp);
      if (sIn === null || !sIn.full || sIn.amountOut !== q.amountOut || sOut === null || !sOut.full) throw new Error('the SDK disagrees on a bench state');
      const dir = slab.allocDirectory(pool);
      const records = st.arrays.map((a, i) => slab.alloc(pool, WHIRLPOOL_TICK_ARRAY_KIND, new Uint8Array(32).fill(i), a.startTickIndex));
      slab.beginGroup(dir);
      st.arrays.forEach((a, i) => writeTickArrayRecord(slab, records[i]!, a, 1n));
      slab.list(records);
      slab.endGroup(1n);
      pool++;
      out.push({
        pool: st.pool, aToB, amountIn, amountOut: q.amountOut, timestamp: st.timestamp, decoded,
        slab: new SlabTickSource(slab, dir, st.pool.tickSpacing),
        wp: whirlpoolFacade(st.pool, st.feeTierIndexSeed), oracle: st.pool.adaptiveFee === null ? null : oracleFacade(st.pool.adaptiveFee), arrays,
      });
    }
  }
  if (out.length < want) throw new Error(`only ${out.length} ${crossing ? 'crossing' : 'in-range'} states`);
  return out;
}

const inRange = build(false, N_IN, 100);
const across = build(true, N_CROSS, 500);
const core = sdkCore();
const sink: unknown[] = new Array<unknown>(N_IN);

function ours(set: Case[], exactIn: boolean, inPlace: boolean): void {
  for (let i = 0; i < set.length; i++) {
    const c = set[i]!;
    if (inPlace) {
      c.slab.begin();
      sink[i] = computeWhirlpoolSwap(c.pool, c.slab, c.aToB, exactIn ? c.amountIn : c.amountOut, exactIn, c.timestamp, false);
      if (!c.slab.valid()) throw new Error('torn read in a single-threaded bench');
    } else {
      sink[i] = computeWhirlpoolSwap(c.pool, c.decoded, c.aToB, exactIn ? c.amountIn : c.amountOut, exactIn, c.timestamp, false);
    }
  }
}

function sdk(set: Case[], exactIn: boolean): void {
  for (let i = 0; i < set.length; i++) {
    const c = set[i]!;
    sink[i] = exactIn
      ? core.swapQuoteByInputToken(c.amountIn, c.aToB, 0, c.wp, c.oracle, c.arrays, c.timestamp, null, null)
      : core.swapQuoteByOutputToken(c.amountOut, !c.aToB, 0, c.wp, c.oracle, c.arrays, c.timestamp, null, null);
  }
}

for (const [label, set, n] of [['in range', inRange, N_IN], ['across arrays', across, N_CROSS]] as const) {
  const bench = new Bench({ time: TIME_MS, warmupTime: 300 });
  bench
    .add('ours ExactIn', () => ours(set, true, false))
    .add('ours ExactIn, slab in place', () => ours(set, true, true))
    .add('SDK swapQuoteByInputToken', () => sdk(set, true))
    .add('ours ExactOut', () => ours(set, false, false))
    .add('ours ExactOut, slab in place', () => ours(set, false, true))
    .add('SDK swapQuoteByOutputToken', () => sdk(set, false));
  await bench.run();
  console.log(`\n## ${label} (${n} states)`);
  printQuoteReport(bench, 'SDK (wasm)', [
    ['ExactIn', 'ours ExactIn', 'SDK swapQuoteByInputToken'],
    ['ExactIn, slab in place', 'ours ExactIn, slab in place', 'SDK swapQuoteByInputToken'],
    ['ExactOut', 'ours ExactOut', 'SDK swapQuoteByOutputToken'],
    ['ExactOut, slab in place', 'ours ExactOut, slab in place', 'SDK swapQuoteByOutputToken'],
  ], n);
}
if (sink.length !== N_IN) console.log('unreachable');
