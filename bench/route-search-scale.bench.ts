/**
 * Route search at scale (issue 13's acceptance): a universe of 20,000+ pools of every registered DEX
 * (`engine/router/testing/scale-universe.ts`), direct, 2-hop and 3-hop requests over many different token pairs
 * (not one pair repeated), timed per search: in this thread (the searcher the quote worker runs) and through the
 * quote worker pool (`QuotePool.route`: one task at a time, the round trip a request pays). Beside it, in the same
 * run, the cost of quoting one pool: the official Raydium SDK's `CurveCalculator.swapBaseInput` (bn.js) and our
 * CPMM exact quote, timed in batches of 100 (one call is below the timer's resolution).
 * Run: `npx tsc -p tsconfig.json && flock /tmp/bench.lock node dist/bench/route-search-scale.bench.js [--pools 20000]
 * [--searches 2000]`. Results: bench/README.md.
 */
import { parseArgs } from 'node:util';
import type { SwapMode } from '../engine/adapters/types.js';
import { RouteSearcher } from '../engine/router/route-search.js';
import type { RouteRequest } from '../engine/router/route-types.js';
import { UNIVERSE_NOW_MS } from '../engine/router/testing/random-universe.js';
import { scaleUniverse } from '../engine/router/testing/scale-universe.js';
import { QuotePool } from '../workers/quote-pool.js';
import { percentiles, type Percentiles } from './percentiles.js';
import { machineLine } from './quote-report.js';
import { onePoolQuoteCost } from './one-pool-cost.js';

const { values: args } = parseArgs({ options: { pools: { type: 'string', default: '20000' }, searches: { type: 'string', default: '2000' } } });
const POOLS = Number(args.pools);
const SEARCHES = Number(args.searches);

const built = performance.now();
const { u, sol, usdc, tokens, byDex } = scaleUniverse(POOLS);
const buildMs = performance.now() - built;

// Which tokens have which pools: the request kinds are drawn from real shapes of this universe.
const solPools = new Map<number, number>();
const usdcPools = new Set<number>();
for (const p of u.pools) {
  const other = p.mintA === sol ? p.mintB : p.mintB === sol ? p.mintA : -1;
  if (other >= 0) solPools.set(other, (solPools.get(other) ?? 0) + 1);
  if (p.mintA === usdc) usdcPools.add(p.mintB);
  if (p.mintB === usdc) usdcPools.add(p.mintA);
}
const withSol = tokens.filter((t) => (solPools.get(t) ?? 0) >= 2);
const noUsdc = withSol.filter((t) => !usdcPools.has(t));

interface Kind { readonly name: string; readonly mode: SwapMode; readonly maxHops: number; readonly pairs: [number, number][]; readonly amount: bigint }
const pick = (xs: readonly number[], i: number, stride: number): number => xs[(i * stride) % xs.length]!;
const KINDS: Kind[] = [
  { name: 'direct ExactIn (token -> SOL, maxHops 1)', mode: 'ExactIn', maxHops: 1, amount: 10n ** 9n, pairs: Array.from({ length: 500 }, (_, i) => [pick(withSol, i, 7), sol]) },
  { name: '2-hop ExactIn (token -> USDC, maxHops 2)', mode: 'ExactIn', maxHops: 2, amount: 10n ** 9n, pairs: Array.from({ length: 500 }, (_, i) => [pick(noUsdc, i, 11), usdc]) },
  { name: '3-hop ExactIn (token -> token, maxHops 3)', mode: 'ExactIn', maxHops: 3, amount: 10n ** 9n, pairs: Array.from({ length: 500 }, (_, i) => [pick(withSol, i, 13), pick(noUsdc, i, 17)]) },
  { name: '3-hop ExactOut (token -> token, maxHops 3)', mode: 'ExactOut', maxHops: 3, amount: 10n ** 6n, pairs: Array.from({ length: 500 }, (_, i) => [pick(withSol, i, 19), pick(noUsdc, i, 23)]) },
  { name: '3-hop ExactIn (SOL -> USDC, the hub pair)', mode: 'ExactIn', maxHops: 3, amount: 10n * 10n ** 9n, pairs: [[sol, usdc]] },
];
for (const k of KINDS) for (let i = k.pairs.length - 1; i >= 0; i--) if (k.pairs[i]![0] === k.pairs[i]![1]) k.pairs.splice(i, 1);

function request(k: Kind, i: number): RouteRequest {
  const [a, b] = k.pairs[i % k.pairs.length]!;
  return { inputMint: a, outputMint: b, amount: k.amount, mode: k.mode, maxHops: k.maxHops, nowMs: UNIVERSE_NOW_MS };
}

let sink: unknown = null;
const searcher = new RouteSearcher(u.src);
/** Per-search µs in this thread, plus how many answered with a route and the best route's hop counts. */
function inThread(k: Kind): { lat: Percentiles; ok: number; hops: Record<number, number> } {
  for (let i = 0; i < 300; i++) sink = searcher.search(request(k, i));
  const xs: number[] = [];
  let ok = 0;
  const hops: Record<number, number> = {};
  for (let i = 0; i < SEARCHES; i++) {
    const req = request(k, i);
    const t0 = performance.now();
    const r = searcher.search(req);
    xs.push((performance.now() - t0) * 1000);
    if (r.ok) { ok++; const h = r.routes[0]!.hops.length; hops[h] = (hops[h] ?? 0) + 1; }
    sink = r;
  }
  return { lat: percentiles(xs), ok, hops };
}

const pool = new QuotePool({ poolSab: u.src.slab.sab, extSab: u.src.slab.ext.sab, mintSab: u.src.mints.sab, threads: 1 });
/** Per-request µs through the worker pool (one task in flight). */
async function inWorker(k: Kind): Promise<Percentiles> {
  const task = (i: number): Parameters<QuotePool['route']>[0] => {
    const [a, b] = k.pairs[i % k.pairs.length]!;
    return {
      inputMint: u.src.mints.mintOf(a), outputMint: u.src.mints.mintOf(b), amount: k.amount, mode: k.mode, maxHops: k.maxHops,
      onlyDirectRoutes: false, dexes: [], excludeDexes: [], restrictIntermediateTokens: false, deadlineEpochMs: Date.now() + 10_000,
    };
  };
  for (let i = 0; i < 300; i++) sink = await pool.route(task(i));
  const xs: number[] = [];
  for (let i = 0; i < SEARCHES; i++) {
    const t = task(i);
    const t0 = performance.now();
    sink = await pool.route(t);
    xs.push((performance.now() - t0) * 1000);
  }
  return percentiles(xs);
}

const f = (p: Percentiles): string => `${p.p50.toFixed(2)} | ${p.p99.toFixed(2)} | ${p.max.toFixed(1)}`;
console.log(machineLine());
console.log(`universe: ${u.src.slab.count()} pools (${Object.entries(byDex).map(([d, n]) => `${d} ${n}`).join(', ')}), ${u.mints.length} mints, built in ${buildMs.toFixed(0)} ms; ${SEARCHES} searches per row over up to 500 pairs`);
const base = onePoolQuoteCost();
console.log('\n| one pool, ExactIn | p50 (µs) | p99 (µs) | max (µs) |');
console.log('|---|---:|---:|---:|');
console.log(`| Raydium SDK CurveCalculator.swapBaseInput (bn.js) | ${f(base.sdk)} |`);
console.log(`| ours: raydium-cpmm adapter.quote | ${f(base.ours)} |`);
console.log('\n| search | answered (best route hops) | in thread p50 (µs) | p99 | max | through the worker pool p50 (µs) | p99 | max |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|');
for (const k of KINDS) {
  const t = inThread(k);
  const w = await inWorker(k);
  const hops = Object.entries(t.hops).map(([h, n]) => `${h}: ${n}`).join(', ');
  console.log(`| ${k.name} | ${t.ok}/${SEARCHES} (${hops}) | ${f(t.lat)} | ${f(w)} |`);
}
await pool.close();
void sink;
