/**
 * Raydium AMM v4 exact quote: our bigint port (engine/adapters/raydium-amm-v4) against the official SDK's
 * LiquidityModule.computeAmountOut (exact-in) and computeAmountIn (exact-out; the SDK floors where the program
 * ceils, see the adapter README), bn.js, on the same 1,000 tradable states with the 25/10000 fee (the only fee the
 * SDK knows). Each task runs all 1,000 quotes per iteration (the functions are far below tinybench's timer
 * resolution on their own).
 * Run: `npx tsc -p tsconfig.json && node dist/bench/raydium-amm-v4-quote.bench.js`. Results: bench/README.md.
 */
import { Bench } from 'tinybench';
import { printQuoteReport } from './quote-report.js';
import { ammV4Quote } from '../engine/adapters/raydium-amm-v4/quote.js';
import { randomAmmV4States } from '../engine/adapters/raydium-amm-v4/testing/random-states.js';
import { type BnLike, bn, loadAmmV4Sdk, sdkAmountIn, sdkAmountOut, sdkPoolInfo } from '../engine/adapters/raydium-amm-v4/testing/sdk-oracle.js';
import { AMM_V4_STATUS_OK, type AmmV4State } from '../engine/adapters/raydium-amm-v4/state.js';

const N = 1000;
const TIME_MS = 1500;

interface Case {
  readonly state: AmmV4State;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  /** The same inputs as bn.js values, converted once outside the timed body. */
  readonly sdk: { poolInfo: ReturnType<typeof sdkPoolInfo>; ain: BnLike; aout: BnLike };
}

/** 1,000 states on which both implementations succeed in both modes (coin -> pc), so no path ends early. */
function cases(): Case[] {
  const out: Case[] = [];
  for (const s of randomAmmV4States(7, 20 * N, [25n, 10_000n])) {
    if (out.length === N) break;
    if (s.needTakePnlCoin > s.coinVaultAmount || s.needTakePnlPc > s.pcVaultAmount) continue;
    const state: AmmV4State = {
      status: AMM_V4_STATUS_OK, reserveCoin: s.coinVaultAmount - s.needTakePnlCoin, reservePc: s.pcVaultAmount - s.needTakePnlPc,
      vaultCoin: s.coinVaultAmount, vaultPc: s.pcVaultAmount,
      swapFeeNumerator: 25n, swapFeeDenominator: 10_000n, ammStatus: 6n, poolOpenTime: 0n,
    };
    if (ammV4Quote(state, true, s.amountInCoinToPc, 'ExactIn').status !== 'OK') continue;
    if (ammV4Quote(state, true, s.amountOutCoinToPc, 'ExactOut').status !== 'OK') continue;
    const poolInfo = sdkPoolInfo(state.reserveCoin, state.reservePc);
    if (sdkAmountOut(poolInfo, true, bn(s.amountInCoinToPc)) === null || sdkAmountIn(poolInfo, true, bn(s.amountOutCoinToPc)) === null) continue;
    out.push({ state, amountIn: s.amountInCoinToPc, amountOut: s.amountOutCoinToPc, sdk: { poolInfo, ain: bn(s.amountInCoinToPc), aout: bn(s.amountOutCoinToPc) } });
  }
  if (out.length < N) throw new Error(`only ${out.length} usable states`);
  return out;
}

const input = cases();
const { proto } = loadAmmV4Sdk();
// computeAmountIn logs through `this` (debug level: no output); a silent stand-in, as in the oracle.
const THIS = { logDebug: (): void => undefined, logAndCreateError: (m: string): never => { throw new Error(m); } };
// Every result is stored (same cost on both sides) so that the optimizer cannot drop the calls.
const sink: unknown[] = new Array<unknown>(N);

const bench = new Bench({ time: TIME_MS, warmupTime: 300 });
bench
  .add('ours ExactIn (bigint)', () => {
    for (let i = 0; i < N; i++) { const c = input[i]!; sink[i] = ammV4Quote(c.state, true, c.amountIn, 'ExactIn'); }
  })
  .add('SDK computeAmountOut (bn.js)', () => {
    for (let i = 0; i < N; i++) {
      const c = input[i]!.sdk;
      sink[i] = proto.computeAmountOut.call(THIS, { poolInfo: c.poolInfo, amountIn: c.ain, mintIn: 'coin', mintOut: 'pc', slippage: 0 });
    }
  })
  .add('ours ExactOut (bigint)', () => {
    for (let i = 0; i < N; i++) { const c = input[i]!; sink[i] = ammV4Quote(c.state, true, c.amountOut, 'ExactOut'); }
  })
  .add('SDK computeAmountIn (bn.js)', () => {
    for (let i = 0; i < N; i++) {
      const c = input[i]!.sdk;
      sink[i] = proto.computeAmountIn.call(THIS, { poolInfo: c.poolInfo, amountOut: c.aout, mintIn: 'coin', mintOut: 'pc', slippage: 0 });
    }
  });

await bench.run();

printQuoteReport(bench, 'SDK LiquidityModule', [
  ['ExactIn', 'ours ExactIn (bigint)', 'SDK computeAmountOut (bn.js)'],
  ['ExactOut', 'ours ExactOut (bigint)', 'SDK computeAmountIn (bn.js)'],
], N);
if (sink.length !== N) console.log('unreachable');
