/**
 * Meteora DBC exact quote: our bigint port (engine/adapters/meteora-dbc) against the official SDK's
 * swapQuoteExactIn / swapQuoteExactOut (bn.js), on the same 1,000 tradable pools, both directions, exact-in and
 * exact-out. Each task runs all 1,000 quotes per iteration. Run: `npx tsc -p tsconfig.json && node
 * dist/bench/meteora-dbc-quote.bench.js`. Results: bench/README.md.
 */
import { Bench } from 'tinybench';
import { printQuoteReport } from './quote-report.js';
import { dbcQuote } from '../engine/adapters/meteora-dbc/quote.js';
import { randomDbcCases } from '../engine/adapters/meteora-dbc/testing/random-states.js';
import { type BnLike, bn, loadSdk, sdkConfig, sdkPool, sdkQuote } from '../engine/adapters/meteora-dbc/testing/sdk-oracle.js';
import { type DbcState, dbcStateFrom } from '../engine/adapters/meteora-dbc/state.js';

const N = 1000;
const TIME_MS = 1500;

interface Case {
  readonly state: DbcState;
  readonly aToB: boolean;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  /** The same inputs as SDK objects and bn.js values, converted once outside the timed body. */
  readonly sdk: { pool: unknown; config: unknown; ain: BnLike; aout: BnLike; point: BnLike };
}

/** 1,000 (pool, direction) cases on which both implementations succeed in both modes, alternating directions. */
function cases(): Case[] {
  const out: Case[] = [];
  for (const c of randomDbcCases(11, 20 * N)) {
    if (out.length === N) break;
    const aToB = out.length % 2 === 0;
    const state = dbcStateFrom(c.pool, c.config, c.clock);
    const amountIn = aToB ? c.amountIn.aToB : c.amountIn.bToA;
    const amountOut = aToB ? c.amountOut.aToB : c.amountOut.bToA;
    if (dbcQuote(state, aToB, amountIn, 'ExactIn').status !== 'OK' || dbcQuote(state, aToB, amountOut, 'ExactOut').status !== 'OK') continue;
    const pool = sdkPool(c.pool);
    const config = sdkConfig(c.config);
    if (!sdkQuote('in', pool, config, aToB, amountIn, c.point) || !sdkQuote('out', pool, config, aToB, amountOut, c.point)) continue;
    out.push({ state, aToB, amountIn, amountOut, sdk: { pool, config, ain: bn(amountIn), aout: bn(amountOut), point: bn(c.point) } });
  }
  if (out.length < N) throw new Error(`only ${out.length} usable states`);
  return out;
}

const input = cases();
const { swapQuoteExactIn, swapQuoteExactOut } = loadSdk();
// Every result is stored (same cost on both sides) so that the optimizer cannot drop the calls.
const sink: unknown[] = new Array<unknown>(N);

const bench = new Bench({ time: TIME_MS, warmupTime: 300 });
bench
  .add('ours ExactIn (bigint)', () => {
    for (let i = 0; i < N; i++) { const c = input[i]!; sink[i] = dbcQuote(c.state, c.aToB, c.amountIn, 'ExactIn'); }
  })
  .add('SDK swapQuoteExactIn (bn.js)', () => {
    for (let i = 0; i < N; i++) { const c = input[i]!; sink[i] = swapQuoteExactIn(c.sdk.pool, c.sdk.config, c.aToB, c.sdk.ain, 0, false, c.sdk.point, false); }
  })
  .add('ours ExactOut (bigint)', () => {
    for (let i = 0; i < N; i++) { const c = input[i]!; sink[i] = dbcQuote(c.state, c.aToB, c.amountOut, 'ExactOut'); }
  })
  .add('SDK swapQuoteExactOut (bn.js)', () => {
    for (let i = 0; i < N; i++) { const c = input[i]!; sink[i] = swapQuoteExactOut(c.sdk.pool, c.sdk.config, c.aToB, c.sdk.aout, 0, false, c.sdk.point, false); }
  });

await bench.run();

printQuoteReport(bench, 'SDK', [
  ['ExactIn', 'ours ExactIn (bigint)', 'SDK swapQuoteExactIn (bn.js)'],
  ['ExactOut', 'ours ExactOut (bigint)', 'SDK swapQuoteExactOut (bn.js)'],
], N);
if (sink.length !== N) console.log('unreachable');
