/**
 * The cost of quoting one pool, our exact CPMM quote beside the official Raydium SDK's
 * `CurveCalculator.swapBaseInput` (bn.js) on the same state: the per-pool baseline the route and quote benches print
 * beside their rows, measured in their own run. Timed in batches of 100 (one call is below the timer's resolution).
 */
import { raydiumCpmmAdapter } from '../engine/adapters/raydium-cpmm/adapter.js';
import { bn, loadSdk } from '../engine/adapters/raydium-cpmm/testing/sdk-oracle.js';
import { cpmmState } from '../engine/router/testing/synthetic-universe.js';
import { percentiles, type Percentiles } from './percentiles.js';

let sink: unknown = null;

/** µs per quote (p50 / p99 / max over 2,000 batches of 100), ours and the SDK's. */
export function onePoolQuoteCost(): { ours: Percentiles; sdk: Percentiles } {
  const { CurveCalculator } = loadSdk();
  const s = cpmmState(100_000n * 10n ** 9n, 15_000_000n * 10n ** 6n, 2500n);
  const amount = 10n ** 10n;
  const a = { ain: bn(amount), rin: bn(s.reserve0), rout: bn(s.reserve1), t: bn(s.rates.tradeFeeRate), c: bn(0n), p: bn(s.rates.protocolFeeRate), f: bn(s.rates.fundFeeRate) };
  const batch = (f: () => unknown): number[] => {
    const xs: number[] = [];
    for (let j = 0; j < 2000; j++) {
      const t0 = performance.now();
      for (let i = 0; i < 100; i++) sink = f();
      xs.push(((performance.now() - t0) * 1000) / 100);
    }
    return xs;
  };
  const ours = (): unknown => raydiumCpmmAdapter.quote(s, true, amount, 'ExactIn');
  const sdk = (): unknown => CurveCalculator.swapBaseInput(a.ain, a.rin, a.rout, a.t, a.c, a.p, a.f, true);
  batch(ours);
  batch(sdk);
  return { ours: percentiles(batch(ours)), sdk: percentiles(batch(sdk)) };
}

/** Keeps the results alive (the optimizer cannot drop the calls). */
export function onePoolSink(): unknown {
  return sink;
}
