/**
 * Route search latency (engine/router/route-search.ts) on a synthetic universe: 300 tokens, each with 2-4 pools
 * against SOL, a third of them also against USDC, some token-token pools, and deep SOL/USDC/USDT pools (CPMM and
 * AMM v4, about 1,300 pools). Direct (SOL -> USDC, maxHops 1), 2-hop (token -> USDC, maxHops 2) and 3-hop (token ->
 * token, maxHops 3), ExactIn and ExactOut, default limits (8 candidates confirmed), beside one CPMM exact quote
 * (the adapter's `quote`, the unit of the confirmation) in the same run. Latencies per search in µs.
 * Run: `npx tsc -p tsconfig.json && flock /tmp/bench.lock node dist/bench/route-search.bench.js`. Results: bench/README.md.
 */
import { Bench } from 'tinybench';
import { raydiumCpmmAdapter } from '../engine/adapters/raydium-cpmm/adapter.js';
import { RouteSearcher } from '../engine/router/route-search.js';
import type { RouteRequest } from '../engine/router/route-types.js';
import { UNIVERSE_NOW_MS } from '../engine/router/testing/random-universe.js';
import { cpmmState, syntheticRouteUniverse } from '../engine/router/testing/synthetic-universe.js';
import { machineLine } from './quote-report.js';

const TIME_MS = 1500;

const { u, sol, usdc, tokens } = syntheticRouteUniverse(300);

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
const baseState = cpmmState(100_000n * 10n ** 9n, 15_000_000n * 10n ** 6n, 2500n);
let sink: unknown = null;
const bench = new Bench({ time: TIME_MS, warmupTime: 300 });
bench.add('baseline: one CPMM exact quote', () => {
  sink = raydiumCpmmAdapter.quote(baseState, true, 10n ** 10n, 'ExactIn');
});
// ROUTE_BENCH_ONLY=<substring> runs only the matching searches (profiling one case).
const only = process.env.ROUTE_BENCH_ONLY;
for (const [name, req] of Object.entries(requests)) if (!only || name.includes(only)) bench.add(name, () => { sink = searcher.search(req); });
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
