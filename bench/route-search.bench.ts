/**
 * Route search latency (engine/router/route-search.ts) on a synthetic universe: 300 tokens, each with 2-4 pools
 * against SOL, a third of them also against USDC, some token-token pools, and deep SOL/USDC/USDT pools (CPMM and
 * AMM v4, about 1,300 pools). Direct (SOL -> USDC, maxHops 1), 2-hop (token -> USDC, maxHops 2) and 3-hop (token ->
 * token, maxHops 3), ExactIn and ExactOut, default limits (8 candidates confirmed), beside one CPMM exact quote
 * (the adapter's `quote`, the unit of the confirmation) in the same run. Latencies per search in µs.
 * Run: `npx tsc -p tsconfig.json && flock /tmp/bench.lock node dist/bench/route-search.bench.js`. Results: bench/README.md.
 */
import { Bench } from 'tinybench';
import { SeededRandom } from '../engine/adapters/testing/seeded-random.js';
import { raydiumCpmmAdapter } from '../engine/adapters/raydium-cpmm/adapter.js';
import type { CpmmState } from '../engine/adapters/raydium-cpmm/state.js';
import type { AmmV4State } from '../engine/adapters/raydium-amm-v4/state.js';
import { RouteSearcher } from '../engine/router/route-search.js';
import type { RouteRequest } from '../engine/router/route-types.js';
import { addPool, emptyUniverse, UNIVERSE_NOW_MS } from '../engine/router/testing/random-universe.js';
import { machineLine } from './quote-report.js';

const TOKENS = 300;
const TIME_MS = 1500;

function cpmm(r0: bigint, r1: bigint, fee: bigint): CpmmState {
  return {
    status: 0, reserve0: r0, reserve1: r1, vault0: r0, vault1: r1, rates: { tradeFeeRate: fee, creatorFeeRate: 0n, protocolFeeRate: 120_000n, fundFeeRate: 40_000n },
    creatorFeeOn: 0, openTime: 0n, poolStatusBits: 0, transferFee0: null, transferFee1: null, transferFeeChanges: false,
  };
}
function ammV4(r0: bigint, r1: bigint): AmmV4State {
  return { status: 0, reserveCoin: r0, reservePc: r1, vaultCoin: r0, vaultPc: r1, swapFeeNumerator: 25n, swapFeeDenominator: 10_000n, ammStatus: 6n, poolOpenTime: 0n };
}

const rng = new SeededRandom(42);
const u = emptyUniverse(rng, 3 + TOKENS);
const [sol, usdc, usdt] = u.mints as [number, number, number];
const jitter = (x: bigint): bigint => (x * rng.range(980n, 1020n)) / 1000n;
const pool = (a: number, b: number, ra: bigint, rb: bigint): void => {
  if (rng.int(2) === 0) addPool(u, rng, 'raydium-cpmm', cpmm(jitter(ra), jitter(rb), rng.pick([2500n, 10_000n, 400n])), a, b);
  else addPool(u, rng, 'raydium-amm-v4', ammV4(jitter(ra), jitter(rb)), a, b);
};
for (let i = 0; i < 6; i++) pool(sol, usdc, 100_000n * 10n ** 9n, 15_000_000n * 10n ** 6n);
for (let i = 0; i < 4; i++) pool(sol, usdt, 50_000n * 10n ** 9n, 7_500_000n * 10n ** 6n);
for (let i = 0; i < 3; i++) pool(usdc, usdt, 5_000_000n * 10n ** 6n, 5_000_000n * 10n ** 6n);
const tokens = u.mints.slice(3);
// Consistent prices (pools within 2% of each other): each token is worth lamportsPerToken SOL atoms per 1e6 atoms.
const lamportsPer1e6 = new Map<number, bigint>(tokens.map((t) => [t, rng.range(10_000n, 100_000_000n)]));
for (const t of tokens) {
  const p = lamportsPer1e6.get(t)!;
  const n = 2 + rng.int(3);
  for (let i = 0; i < n; i++) {
    const solSide = rng.range(100n, 5000n) * 10n ** 9n;
    pool(t, sol, (solSide * 10n ** 6n) / p, solSide);
  }
  if (rng.int(3) === 0) {
    const usdSide = rng.range(10_000n, 500_000n) * 10n ** 6n;
    pool(t, usdc, (usdSide * 10n ** 3n * 10n ** 6n) / (150n * p), usdSide);
  }
  if (rng.int(4) === 0) {
    const o = rng.pick(tokens);
    if (o !== t) {
      const amountT = rng.range(10n ** 12n, 10n ** 14n);
      pool(t, o, amountT, (amountT * p) / lamportsPer1e6.get(o)!);
    }
  }
}

const searcher = new RouteSearcher(u.src);
const base = { nowMs: UNIVERSE_NOW_MS } as const;
const requests: Record<string, RouteRequest> = {
  'direct ExactIn (SOL -> USDC)': { ...base, inputMint: sol, outputMint: usdc, amount: 10n * 10n ** 9n, mode: 'ExactIn', maxHops: 1 },
  '2-hop ExactIn (token -> USDC)': { ...base, inputMint: tokens[1]!, outputMint: usdc, amount: 10n ** 9n, mode: 'ExactIn', maxHops: 2 },
  '3-hop ExactIn (token -> token)': { ...base, inputMint: tokens[1]!, outputMint: tokens[2]!, amount: 10n ** 9n, mode: 'ExactIn', maxHops: 3 },
  '3-hop ExactOut (token -> token)': { ...base, inputMint: tokens[1]!, outputMint: tokens[2]!, amount: 10n ** 8n, mode: 'ExactOut', maxHops: 3 },
  '3-hop ExactIn (SOL -> USDC, hub pair)': { ...base, inputMint: sol, outputMint: usdc, amount: 10n * 10n ** 9n, mode: 'ExactIn', maxHops: 3 },
};
for (const [name, req] of Object.entries(requests)) {
  const r = searcher.search(req);
  if (!r.ok) throw new Error(`${name}: ${r.code}`);
  console.log(`${name}: best ${r.routes[0]!.hops.length} hop(s), ${r.routes.length} routes, out ${r.routes[0]!.outAmount}`);
}

// Baseline: one exact CPMM quote on a state read back from a record, as the confirmation does per leg.
const baseState = cpmm(100_000n * 10n ** 9n, 15_000_000n * 10n ** 6n, 2500n);
let sink: unknown = null;
const bench = new Bench({ time: TIME_MS, warmupTime: 300 });
bench.add('baseline: one CPMM exact quote', () => {
  sink = raydiumCpmmAdapter.quote(baseState, true, 10n ** 10n, 'ExactIn');
});
for (const [name, req] of Object.entries(requests)) bench.add(name, () => { sink = searcher.search(req); });
await bench.run();
void sink;
console.log(machineLine());
console.log(`universe: ${u.src.slab.count()} pools, ${u.mints.length} mints`);
console.log('| task | p50 (µs) | p99 (µs) | mean (µs) | samples |');
console.log('|---|---:|---:|---:|---:|');
for (const t of bench.tasks) {
  const l = (t.result as { latency?: { p50?: number; p99?: number; mean: number; samples?: readonly number[] } } | undefined)?.latency;
  if (!l) continue;
  const us = (ms: number | undefined): string => ((ms ?? NaN) * 1000).toFixed(2);
  console.log(`| ${t.name} | ${us(l.p50)} | ${us(l.p99)} | ${us(l.mean)} | ${l.samples?.length ?? '?'} |`);
}
