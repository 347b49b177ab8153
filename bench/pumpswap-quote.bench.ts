/**
 * PumpSwap exact quote: our bigint port (engine/adapters/pumpswap) against `@pump-fun/pump-swap-sdk`'s
 * `sellBaseInput` / `buyBaseInput` (bn.js) on the same 1,000 tradable pools, sell (exact base in) and buy (exact
 * base out). Each task runs all 1,000 quotes per iteration. The SDK resolves the fee schedule on every call
 * (market cap, tiers, and for canonical pools the pump pool-authority PDA); ours resolves it once per account
 * update in buildState, so a third pair times buildState + quote against the SDK as well.
 * Run: `npx tsc -p tsconfig.json && node dist/bench/pumpswap-quote.bench.js`. Results: bench/README.md.
 */
import { Bench } from 'tinybench';
import { printQuoteReport } from './quote-report.js';
import { pumpswapAdapter } from '../engine/adapters/pumpswap/adapter.js';
import { pumpswapQuote } from '../engine/adapters/pumpswap/quote.js';
import { randomPumpswapCases } from '../engine/adapters/pumpswap/testing/random-states.js';
import { type SdkPoolContext, bn, loadSdk, sdkCall, sdkContext } from '../engine/adapters/pumpswap/testing/sdk-oracle.js';
import type { PumpswapState } from '../engine/adapters/pumpswap/state.js';
import { pumpswapFixture, testClock } from '../engine/adapters/pumpswap/testing/test-fixture.js';
import { decodeMint, tokenAccountAmount } from '../engine/adapters/common/spl-layouts.js';
import type { PoolDescriptor } from '../engine/adapters/types.js';

const N = 1000;
const TIME_MS = 1500;

interface Case {
  readonly state: PumpswapState;
  readonly desc: PoolDescriptor;
  readonly poolData: Uint8Array;
  readonly accounts: Map<string, Uint8Array>;
  readonly sellIn: bigint;
  readonly buyOut: bigint;
  readonly sdk: SdkPoolContext;
  /** The SDK arguments with the amounts as bn.js values, built once outside the timed body. */
  readonly sellArgs: Record<string, unknown>;
  readonly buyArgs: Record<string, unknown>;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const c of randomPumpswapCases(11, 10 * N)) {
    if (out.length === N) break;
    const fx = pumpswapFixture(c.options, c.label);
    const poolData = fx.accounts.get(fx.poolAddress)!;
    const state = pumpswapAdapter.buildState(fx.descriptor, poolData, fx.accounts, testClock());
    if (!state) continue;
    const sellIn = c.sellIn;
    const buyOut = state.baseReserve / 100n + 1n;
    if (pumpswapQuote(state, true, sellIn, 'ExactIn').status !== 'OK' || pumpswapQuote(state, false, buyOut, 'ExactOut').status !== 'OK') continue;
    const [g, f, m, bv, qv] = fx.descriptor.dependencies as [string, string, string, string, string];
    const sdk = sdkContext(poolData, fx.accounts.get(g)!, fx.accounts.get(f)!, decodeMint(fx.accounts.get(m)!).supply,
      tokenAccountAmount(fx.accounts.get(bv)!), tokenAccountAmount(fx.accounts.get(qv)!));
    if (!sdkCall(sdk, 'sellBaseInput', sellIn) || !sdkCall(sdk, 'buyBaseInput', buyOut)) continue;
    out.push({ state, desc: fx.descriptor, poolData, accounts: fx.accounts, sellIn, buyOut, sdk, sellArgs: { ...sdk.common, base: bn(sellIn) }, buyArgs: { ...sdk.common, base: bn(buyOut) } });
  }
  if (out.length < N) throw new Error(`only ${out.length} usable states`);
  return out;
}

const input = cases();
const { sdk } = loadSdk();
// Every result is stored (same cost on both sides) so that the optimizer cannot drop the calls.
const sink: unknown[] = new Array<unknown>(N);
const clock = testClock();

const bench = new Bench({ time: TIME_MS, warmupTime: 300 });
bench
  .add('ours sell ExactIn (bigint)', () => {
    for (let i = 0; i < N; i++) { const c = input[i]!; sink[i] = pumpswapQuote(c.state, true, c.sellIn, 'ExactIn'); }
  })
  .add('SDK sellBaseInput (bn.js)', () => {
    for (let i = 0; i < N; i++) sink[i] = sdk.sellBaseInput(input[i]!.sellArgs);
  })
  .add('ours buy ExactOut (bigint)', () => {
    for (let i = 0; i < N; i++) { const c = input[i]!; sink[i] = pumpswapQuote(c.state, false, c.buyOut, 'ExactOut'); }
  })
  .add('SDK buyBaseInput (bn.js)', () => {
    for (let i = 0; i < N; i++) sink[i] = sdk.buyBaseInput(input[i]!.buyArgs);
  })
  .add('ours buildState + sell (bigint)', () => {
    for (let i = 0; i < N; i++) {
      const c = input[i]!;
      sink[i] = pumpswapQuote(pumpswapAdapter.buildState(c.desc, c.poolData, c.accounts, clock)!, true, c.sellIn, 'ExactIn');
    }
  });

await bench.run();

printQuoteReport(bench, 'SDK', [
  ['sell ExactIn', 'ours sell ExactIn (bigint)', 'SDK sellBaseInput (bn.js)'],
  ['buy ExactOut', 'ours buy ExactOut (bigint)', 'SDK buyBaseInput (bn.js)'],
  ['sell, buildState + quote', 'ours buildState + sell (bigint)', 'SDK sellBaseInput (bn.js)'],
], N);
if (sink.length !== N) console.log('unreachable');
