/**
 * Pump.fun exact quote: our bigint math (engine/adapters/pumpfun) against the official SDK's
 * `getBuyTokenAmountFromSolAmount` / `getBuySolAmountFromTokenAmount` / `getSellSolAmountFromTokenAmount` (bn.js,
 * fee schedule selection included on both sides), on the same 1,000 tradable SOL-curve states. Our side starts
 * from the state the ingest builds (fee tier resolved when the curve updates, as in production) and, in a second
 * variant, resolves the tier per quote from the decoded curve (`decodeBondingCurve` of the account, as ingest has
 * it) as the SDK does (`pumpfunQuoteResolvingFees`, with the Global and FeeConfig compiled once outside the timed
 * body, as the SDK's decoded Global and FeeConfig are).
 * Each task runs all 1,000 quotes per iteration.
 * Run: `npx tsc -p tsconfig.json && node dist/bench/pumpfun-quote.bench.js`. Results: bench/README.md.
 */
import { Bench } from 'tinybench';
import { machineLine, quotesPerSec as quotesPerSecOf } from './quote-report.js';
import { encodeFeeConfig, tryDecodeFeeConfig, type FeeConfigFields } from '../engine/adapters/pumpfun/fee-config.js';
import { isSolLikeQuoteMint, tradeFeeBps } from '../engine/adapters/pumpfun/fees.js';
import { type BondingCurveFields, decodeBondingCurve, encodeBondingCurve } from '../engine/adapters/pumpfun/layout.js';
import { compileFeeTable, type PumpFeeTable } from '../engine/adapters/pumpfun/fee-table.js';
import { pumpfunQuote, pumpfunQuoteResolvingFees } from '../engine/adapters/pumpfun/quote.js';
import { randomPumpSetups } from '../engine/adapters/pumpfun/testing/random-states.js';
import { type BnLike, type SdkArgs, bn, loadPumpSdk, pk, sdkCurve, sdkFeeConfig, sdkGlobal } from '../engine/adapters/pumpfun/testing/sdk-oracle.js';
import type { PumpfunState } from '../engine/adapters/pumpfun/state.js';

const N = 1000;
const TIME_MS = 1500;

interface Case {
  readonly state: PumpfunState;
  readonly global: { feeBasisPoints: bigint; creatorFeeBasisPoints: bigint; creatorFeeConfigurable: boolean };
  readonly feeConfig: FeeConfigFields | null;
  /** Global + FeeConfig compiled for per-quote tier selection (once, outside the timed body). */
  readonly table: PumpFeeTable;
  readonly curve: BondingCurveFields;
  /** The curve as ingest decodes it from the account (`decodeBondingCurve`): what the per-quote tier variant reads. */
  readonly decoded: BondingCurveFields;
  readonly buyIn: bigint;
  readonly buyOut: bigint;
  readonly sellIn: bigint;
  readonly sdk: SdkArgs & { buyIn: BnLike; buyOut: BnLike; sellIn: BnLike };
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const s of randomPumpSetups(11, 20 * N)) {
    if (out.length === N) break;
    if (!isSolLikeQuoteMint(s.curve.quoteMint) || s.curve.isMayhemMode) continue;
    const feeConfig = s.feeConfig ? tryDecodeFeeConfig(encodeFeeConfig(s.feeConfig)) : null;
    const fees = tradeFeeBps(s.global, feeConfig, s.curve, s.mintSupply);
    if (!fees) continue;
    const state: PumpfunState = { status: 0, ...s.curve, ...fees };
    if (pumpfunQuote(state, false, s.buyQuoteIn, 'ExactIn').status !== 'OK') continue;
    if (pumpfunQuote(state, false, s.buyTokensOut, 'ExactOut').status !== 'OK') continue;
    if (pumpfunQuote(state, true, s.sellTokensIn, 'ExactIn').status !== 'OK') continue;
    out.push({
      state, global: s.global, feeConfig, table: compileFeeTable(s.global, feeConfig), curve: s.curve, decoded: decodeBondingCurve(encodeBondingCurve(s.curve)), buyIn: s.buyQuoteIn, buyOut: s.buyTokensOut, sellIn: s.sellTokensIn,
      sdk: {
        global: sdkGlobal(s.global), feeConfig: feeConfig ? sdkFeeConfig(feeConfig) : null, mintSupply: bn(s.mintSupply),
        bondingCurve: sdkCurve(s.curve), quoteMint: pk(s.curve.quoteMint), buyIn: bn(s.buyQuoteIn), buyOut: bn(s.buyTokensOut), sellIn: bn(s.sellTokensIn),
      },
    });
  }
  if (out.length < N) throw new Error(`only ${out.length} usable states`);
  return out;
}

const input = cases();
const { sdk } = loadPumpSdk();
// Every result is stored (same cost on both sides) so that the optimizer cannot drop the calls.
const sink: unknown[] = new Array<unknown>(N);

const bench = new Bench({ time: TIME_MS, warmupTime: 300 });
bench
  .add('ours buy ExactIn', () => { for (let i = 0; i < N; i++) { const c = input[i]!; sink[i] = pumpfunQuote(c.state, false, c.buyIn, 'ExactIn'); } })
  .add('ours+tier buy ExactIn', () => { for (let i = 0; i < N; i++) { const c = input[i]!; sink[i] = pumpfunQuoteResolvingFees(c.decoded, c.table, null, false, c.buyIn, 'ExactIn'); } })
  .add('SDK getBuyTokenAmountFromSolAmount', () => { for (let i = 0; i < N; i++) { const a = input[i]!.sdk; sink[i] = sdk.getBuyTokenAmountFromSolAmount({ ...a, amount: a.buyIn }); } })
  .add('ours buy ExactOut', () => { for (let i = 0; i < N; i++) { const c = input[i]!; sink[i] = pumpfunQuote(c.state, false, c.buyOut, 'ExactOut'); } })
  .add('ours+tier buy ExactOut', () => { for (let i = 0; i < N; i++) { const c = input[i]!; sink[i] = pumpfunQuoteResolvingFees(c.decoded, c.table, null, false, c.buyOut, 'ExactOut'); } })
  .add('SDK getBuySolAmountFromTokenAmount', () => { for (let i = 0; i < N; i++) { const a = input[i]!.sdk; sink[i] = sdk.getBuySolAmountFromTokenAmount({ ...a, amount: a.buyOut }); } })
  .add('ours sell ExactIn', () => { for (let i = 0; i < N; i++) { const c = input[i]!; sink[i] = pumpfunQuote(c.state, true, c.sellIn, 'ExactIn'); } })
  .add('ours+tier sell ExactIn', () => { for (let i = 0; i < N; i++) { const c = input[i]!; sink[i] = pumpfunQuoteResolvingFees(c.decoded, c.table, null, true, c.sellIn, 'ExactIn'); } })
  .add('SDK getSellSolAmountFromTokenAmount', () => { for (let i = 0; i < N; i++) { const a = input[i]!.sdk; sink[i] = sdk.getSellSolAmountFromTokenAmount({ ...a, amount: a.sellIn }); } });

await bench.run();

const quotesPerSec = (name: string): number => quotesPerSecOf(bench, name, N);
const rows = [
  ['buy ExactIn (buy_exact_sol_in)', 'ours buy ExactIn', 'ours+tier buy ExactIn', 'SDK getBuyTokenAmountFromSolAmount'],
  ['buy ExactOut (buy)', 'ours buy ExactOut', 'ours+tier buy ExactOut', 'SDK getBuySolAmountFromTokenAmount'],
  ['sell ExactIn (sell)', 'ours sell ExactIn', 'ours+tier sell ExactIn', 'SDK getSellSolAmountFromTokenAmount'],
] as const;
// A bench script reports on stdout by design.
console.table(bench.table());
console.log(machineLine());
console.log('| trade | ours (quotes/s) | ours + tier per quote | SDK (quotes/s) | ours / SDK | ours+tier / SDK |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const [mode, a, b, c] of rows) {
  const [x, y, z] = [quotesPerSec(a), quotesPerSec(b), quotesPerSec(c)];
  console.log(`| ${mode} | ${Math.round(x).toLocaleString('en-US')} | ${Math.round(y).toLocaleString('en-US')} | ${Math.round(z).toLocaleString('en-US')} | ${(x / z).toFixed(1)}x | ${(y / z).toFixed(1)}x |`);
}
if (sink.length !== N) console.log('unreachable');
