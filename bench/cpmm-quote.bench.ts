/**
 * Raydium CPMM exact quote: ours (engine/adapters/raydium-cpmm: the program's integer math, exact; bigint results
 * from a fast path on u64 pairs, the bigint port for rejections) against the official SDK's
 * CurveCalculator (bn.js), on the same 1,000 tradable states, exact-in and exact-out. Each task runs all
 * 1,000 quotes per iteration (the functions are far below tinybench's timer resolution on their own).
 * Run: `npx tsc -p tsconfig.json && node dist/bench/cpmm-quote.bench.js`. Results: bench/README.md.
 */
import { Bench } from 'tinybench';
import { printQuoteReport } from './quote-report.js';
import { cpmmQuote } from '../engine/adapters/raydium-cpmm/quote.js';
import { isCreatorFeeOnInput } from '../engine/adapters/raydium-cpmm/math.js';
import { randomCpmmStates } from '../engine/adapters/raydium-cpmm/testing/random-states.js';
import { type BnLike, bn, loadSdk, sdkSwap } from '../engine/adapters/raydium-cpmm/testing/sdk-oracle.js';
import type { CpmmState } from '../engine/adapters/raydium-cpmm/state.js';

const N = 1000;
const TIME_MS = 1500;

interface Case {
  readonly state: CpmmState;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  /** The same inputs as bn.js values, converted once outside the timed body. */
  readonly sdkArgs: { ain: BnLike; aout: BnLike; rin: BnLike; rout: BnLike; t: BnLike; c: BnLike; p: BnLike; f: BnLike; onInput: boolean };
}

/** 1,000 states on which both implementations succeed in both modes (0->1), so no path ends early. */
function cases(): Case[] {
  const out: Case[] = [];
  for (const s of randomCpmmStates(7, 20 * N)) {
    if (out.length === N) break;
    const state: CpmmState = { status: 0, reserve0: s.reserve0, reserve1: s.reserve1, vault0: s.reserve0, vault1: s.reserve1, rates: s.rates, creatorFeeOn: s.creatorFeeOn, openTime: 0n, poolStatusBits: 0, transferFee0: null, transferFee1: null, transferFeeChanges: false };
    const onInput = isCreatorFeeOnInput(s.creatorFeeOn, true);
    if (cpmmQuote(state, true, s.amountIn01, 'ExactIn').status !== 'OK') continue;
    if (cpmmQuote(state, true, s.amountOut01, 'ExactOut').status !== 'OK') continue;
    if (!sdkSwap('in', s.amountIn01, s.reserve0, s.reserve1, s.rates, onInput)) continue;
    if (!sdkSwap('out', s.amountOut01, s.reserve0, s.reserve1, s.rates, onInput)) continue;
    out.push({
      state,
      amountIn: s.amountIn01,
      amountOut: s.amountOut01,
      sdkArgs: {
        ain: bn(s.amountIn01), aout: bn(s.amountOut01), rin: bn(s.reserve0), rout: bn(s.reserve1),
        t: bn(s.rates.tradeFeeRate), c: bn(s.rates.creatorFeeRate), p: bn(s.rates.protocolFeeRate), f: bn(s.rates.fundFeeRate), onInput,
      },
    });
  }
  if (out.length < N) throw new Error(`only ${out.length} usable states`);
  return out;
}

const input = cases();
const { CurveCalculator } = loadSdk();
// Every result is stored (same cost on both sides) so that the optimizer cannot drop the calls.
const sink: unknown[] = new Array<unknown>(N);

const bench = new Bench({ time: TIME_MS, warmupTime: 300 });
bench
  .add('ours ExactIn (bigint)', () => {
    for (let i = 0; i < N; i++) { const c = input[i]!; sink[i] = cpmmQuote(c.state, true, c.amountIn, 'ExactIn'); }
  })
  .add('SDK swapBaseInput (bn.js)', () => {
    for (let i = 0; i < N; i++) {
      const a = input[i]!.sdkArgs;
      sink[i] = CurveCalculator.swapBaseInput(a.ain, a.rin, a.rout, a.t, a.c, a.p, a.f, a.onInput);
    }
  })
  .add('ours ExactOut (bigint)', () => {
    for (let i = 0; i < N; i++) { const c = input[i]!; sink[i] = cpmmQuote(c.state, true, c.amountOut, 'ExactOut'); }
  })
  .add('SDK swapBaseOutput (bn.js)', () => {
    for (let i = 0; i < N; i++) {
      const a = input[i]!.sdkArgs;
      sink[i] = CurveCalculator.swapBaseOutput(a.aout, a.rin, a.rout, a.t, a.c, a.p, a.f, a.onInput);
    }
  });

await bench.run();

printQuoteReport(bench, 'SDK CurveCalculator', [
  ['ExactIn', 'ours ExactIn (bigint)', 'SDK swapBaseInput (bn.js)'],
  ['ExactOut', 'ours ExactOut (bigint)', 'SDK swapBaseOutput (bn.js)'],
], N);
if (sink.length !== N) console.log('unreachable');
