/**
 * Raydium LaunchLab exact quote: our bigint port (engine/adapters/raydium-launchlab) against the official SDK's
 * `Curve.buyExactIn / sellExactIn` (bn.js, decimal.js for the linear curve), on the same 1,000 tradable states
 * (all three curve types), buys and sells exact-in. Each task runs all 1,000 quotes per iteration.
 * Run: `npx tsc -p tsconfig.json && node dist/bench/raydium-launchlab-quote.bench.js`.
 */
import { Bench } from 'tinybench';
import { printQuoteReport } from './quote-report.js';
import { launchlabQuote } from '../engine/adapters/raydium-launchlab/quote.js';
import { randomLaunchlabStates } from '../engine/adapters/raydium-launchlab/testing/random-states.js';
import { type SdkCurveArgs, bn, loadSdk, sdkArgs, sdkLaunch } from '../engine/adapters/raydium-launchlab/testing/sdk-oracle.js';
import type { LaunchlabState } from '../engine/adapters/raydium-launchlab/state.js';

const N = 1000;
const TIME_MS = 1500;

interface Case {
  readonly state: LaunchlabState;
  readonly buyIn: bigint;
  readonly sellIn: bigint;
  /** The SDK's argument objects, built once outside the timed body. */
  readonly sdkBuy: SdkCurveArgs;
  readonly sdkSell: SdkCurveArgs;
}

/** 1,000 states (a third per curve type) on which both implementations succeed for the buy and the sell. */
function cases(): Case[] {
  const out: Case[] = [];
  for (const curveType of [0, 1, 2]) {
    const want = curveType === 2 ? N - 2 * Math.floor(N / 3) : Math.floor(N / 3);
    let got = 0;
    for (const s of randomLaunchlabStates(11, 20 * N, curveType)) {
      if (got === want) break;
      const state: LaunchlabState = { ...s, status: 0, poolStatus: 0, vaultB: s.realB };
      if (launchlabQuote(state, false, s.buyIn, 'ExactIn').status !== 'OK' || launchlabQuote(state, true, s.sellIn, 'ExactIn').status !== 'OK') continue;
      const args = sdkArgs(s, s.rates, curveType);
      if (!sdkLaunch('buyExactIn', args, s.buyIn) || !sdkLaunch('sellExactIn', args, s.sellIn)) continue;
      out.push({ state, buyIn: s.buyIn, sellIn: s.sellIn, sdkBuy: { ...args, amountB: bn(s.buyIn) }, sdkSell: { ...args, amountA: bn(s.sellIn) } });
      got++;
    }
  }
  if (out.length < N) throw new Error(`only ${out.length} usable states`);
  return out;
}

const input = cases();
const { Curve } = loadSdk();
// Every result is stored (same cost on both sides) so that the optimizer cannot drop the calls.
const sink: unknown[] = new Array<unknown>(N);

const bench = new Bench({ time: TIME_MS, warmupTime: 300 });
bench
  .add('ours buy ExactIn (bigint)', () => {
    for (let i = 0; i < N; i++) { const c = input[i]!; sink[i] = launchlabQuote(c.state, false, c.buyIn, 'ExactIn'); }
  })
  .add('SDK Curve.buyExactIn (bn.js)', () => {
    for (let i = 0; i < N; i++) sink[i] = Curve.buyExactIn(input[i]!.sdkBuy);
  })
  .add('ours sell ExactIn (bigint)', () => {
    for (let i = 0; i < N; i++) { const c = input[i]!; sink[i] = launchlabQuote(c.state, true, c.sellIn, 'ExactIn'); }
  })
  .add('SDK Curve.sellExactIn (bn.js)', () => {
    for (let i = 0; i < N; i++) sink[i] = Curve.sellExactIn(input[i]!.sdkSell);
  });

await bench.run();

printQuoteReport(bench, 'SDK Curve', [
  ['buy ExactIn', 'ours buy ExactIn (bigint)', 'SDK Curve.buyExactIn (bn.js)'],
  ['sell ExactIn', 'ours sell ExactIn (bigint)', 'SDK Curve.sellExactIn (bn.js)'],
], N);
if (sink.length !== N) console.log('unreachable');
