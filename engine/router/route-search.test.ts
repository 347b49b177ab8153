import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SwapMode } from '../adapters/types.js';
import { SeededRandom } from '../adapters/testing/seeded-random.js';
import { RouteSearcher } from './route-search.js';
import { DEFAULT_ROUTE_LIMITS, type Route, type RouteSearchResult } from './route-types.js';
import { bestOf, bruteForceRoutes, exactLeg } from './testing/brute-force.js';
import { addPool, emptyUniverse, randomState, randomUniverse, REGISTERED_DEXES, UNIVERSE_NOW_MS, type Universe } from './testing/random-universe.js';
import { plainCpmm as cpmm } from './testing/synthetic-universe.js';

const OLDEST_MS = UNIVERSE_NOW_MS - DEFAULT_ROUTE_LIMITS.maxPoolAgeMs;
/** Property budget: universes until this many ms have passed (or MAX_CASES). */
const TIME_MS = 8_000;
const MAX_CASES = 2000;

/** Asserts every amount of `r` is what chaining the adapters' exact quotes on the record images produces. */
function assertChained(u: Universe, r: Route, amount: bigint, mode: SwapMode): void {
  const byPool = new Map(u.pools.map((p) => [p.pool, p]));
  const n = r.hops.length;
  const check = (i: number, a: bigint): bigint => {
    const h = r.hops[i]!;
    const p = byPool.get(h.pool)!;
    assert.equal(p.dex, h.dex);
    const q = exactLeg(p, h.inputMint, a, mode);
    assert.ok(q !== null, `hop ${i} does not quote`);
    assert.equal(h.inAmount, q.inAmount, `hop ${i} inAmount`);
    assert.equal(h.outAmount, q.outAmount, `hop ${i} outAmount`);
    assert.equal(h.feeAmount, q.feeAmount, `hop ${i} feeAmount`);
    assert.equal(h.feeMint, q.feeOnInput ? h.inputMint : h.outputMint);
    return mode === 'ExactIn' ? q.outAmount : q.inAmount;
  };
  if (mode === 'ExactIn') {
    let x = amount;
    for (let i = 0; i < n; i++) x = check(i, x);
    assert.equal(r.outAmount, x);
  } else {
    let need = amount;
    for (let i = n - 1; i >= 0; i--) need = check(i, need);
    assert.equal(r.inAmount, need);
    assert.equal(r.outAmount, amount);
  }
  assert.equal(r.inAmount, r.hops[0]!.inAmount);
  assert.equal(r.outAmount, r.hops[n - 1]!.outAmount);
  for (let i = 1; i < n; i++) assert.equal(r.hops[i]!.inputMint, r.hops[i - 1]!.outputMint);
  assert.ok(Number.isFinite(r.priceImpactBps) && r.priceImpactBps >= 0);
  assert.ok(Number.isFinite(r.feeBps) && r.feeBps >= 0);
}

/** Asserts no hop of `res` uses a pool that cannot trade (status nonzero or stale). */
function assertOnlyUsable(u: Universe, res: RouteSearchResult): void {
  if (!res.ok) return;
  const byPool = new Map(u.pools.map((p) => [p.pool, p]));
  for (const r of res.routes) {
    for (const h of r.hops) {
      const p = byPool.get(h.pool)!;
      assert.equal(p.fields.status, 0, `pool ${h.pool} is disabled`);
      assert.ok(p.updatedAtMs >= OLDEST_MS, `pool ${h.pool} is stale`);
    }
  }
}

function amountOf(rng: SeededRandom): bigint {
  return 10n ** BigInt(rng.int(13)) * rng.range(1n, 9n);
}

test('property: on random graphs of every DEX, the search finds the brute-force best of all routes up to 3 hops, both modes', (t) => {
  const started = performance.now();
  let cases = 0;
  let found = 0;
  let multiHopBest = 0;
  const defaultKSame = { ExactIn: 0, ExactOut: 0 };
  const foundBy = { ExactIn: 0, ExactOut: 0 };
  const dexesSeen = new Set<string>();
  for (let seed = 1; cases < MAX_CASES && performance.now() - started < TIME_MS; seed++) {
    const u = randomUniverse(seed, 6, 14);
    const rng = new SeededRandom(seed * 7919);
    const all = new RouteSearcher(u.src, { ...DEFAULT_ROUTE_LIMITS, confirmCount: 1_000_000 });
    const dflt = new RouteSearcher(u.src);
    // Hub mode on every end: 3-hop sides from the liquid set (every mint of these small graphs) instead of a scan.
    const hub = new RouteSearcher(u.src, { ...DEFAULT_ROUTE_LIMITS, confirmCount: 1_000_000, neighbourScanLimit: 0 });
    for (let k = 0; k < 3; k++) {
      const input = u.mints[rng.int(6)]!;
      let output = u.mints[rng.int(5)]!;
      if (output === input) output = u.mints[5]!;
      for (const mode of ['ExactIn', 'ExactOut'] as const) {
        cases++;
        const amount = amountOf(rng);
        const req = { inputMint: input, outputMint: output, amount, mode, nowMs: UNIVERSE_NOW_MS };
        const res = all.search(req);
        const brute = bruteForceRoutes(u, input, output, amount, mode, OLDEST_MS);
        const best = bestOf(brute, mode);
        const ctx = `seed ${seed} ${mode} ${input}->${output} amount ${amount}`;
        assertOnlyUsable(u, res);
        if (best === null) {
          assert.equal(res.ok ? 'ok' : res.code, 'NO_ROUTE', ctx);
          continue;
        }
        assert.ok(res.ok, `${ctx}: ${res.ok ? '' : res.message}`);
        found++;
        foundBy[mode]++;
        const top = res.routes[0]!;
        if (mode === 'ExactIn') assert.equal(top.outAmount, best.outAmount, ctx);
        else assert.equal(top.inAmount, best.inAmount, ctx);
        if (top.hops.length > 1) multiHopBest++;
        // Every brute-force route was confirmed: the five best amounts agree too.
        const key = (r: { inAmount: bigint; outAmount: bigint }): bigint => (mode === 'ExactIn' ? r.outAmount : r.inAmount);
        const expected = brute.map(key).sort((x, y) => (x === y ? 0 : (mode === 'ExactIn' ? x < y : x > y) ? 1 : -1)).slice(0, 5);
        assert.deepEqual(res.routes.map(key), expected, ctx);
        const viaHub = hub.search(req);
        assert.ok(viaHub.ok, ctx);
        assert.deepEqual(viaHub.routes.map(key), expected, `${ctx} (liquid-set sides)`);
        for (const r of res.routes) {
          assertChained(u, r, amount, mode);
          for (const h of r.hops) dexesSeen.add(h.dex);
        }
        // The default confirm count (8) never reports a better amount than the exact best, and only exact ones.
        const d = dflt.search(req);
        assertOnlyUsable(u, d);
        if (d.ok) {
          const dTop = d.routes[0]!;
          if (mode === 'ExactIn') assert.ok(dTop.outAmount <= best.outAmount, ctx);
          else assert.ok(dTop.inAmount >= best.inAmount, ctx);
          if (key(dTop) === key(best)) defaultKSame[mode]++;
          for (const r of d.routes) assertChained(u, r, amount, mode);
        }
      }
    }
  }
  t.diagnostic(`${cases} searches, ${found} with a route, ${multiHopBest} best multi-hop, default K=8 found the same best in ${defaultKSame.ExactIn}/${foundBy.ExactIn} ExactIn, ${defaultKSame.ExactOut}/${foundBy.ExactOut} ExactOut; DEXes used: ${[...dexesSeen].sort().join(', ')}`);
  assert.ok(cases >= 100, `only ${cases} cases in the time budget`);
  assert.ok(found >= cases / 5, `only ${found} of ${cases} searches had a route: the property would be vacuous`);
  assert.ok(multiHopBest > 0, 'no best route was multi-hop');
  assert.equal(dexesSeen.size, REGISTERED_DEXES.length, 'every registered DEX appears in some route');
});


test('a pool that cannot trade (disabled, stale) never appears, even when it would be the best', () => {
  const rng = new SeededRandom(5);
  const u = emptyUniverse(rng, 4);
  const [sol, usdc, , x] = u.mints as [number, number, number, number];
  const deepDisabled = addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 15n, 10n ** 15n), sol, usdc, { status: 4 });
  const deepStale = addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 15n, 10n ** 15n), sol, usdc, { updatedAtMs: UNIVERSE_NOW_MS - 3_600_000 });
  const shallow = addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 9n, 10n ** 9n), sol, usdc);
  addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 15n, 10n ** 15n), sol, x, { status: 2 });
  const s = new RouteSearcher(u.src);
  const res = s.search({ inputMint: sol, outputMint: usdc, amount: 10n ** 6n, mode: 'ExactIn', nowMs: UNIVERSE_NOW_MS });
  assert.ok(res.ok);
  assert.deepEqual(res.routes.map((r) => r.hops.map((h) => h.pool)), [[shallow.pool]]);
  assert.ok(![deepDisabled.pool, deepStale.pool].includes(res.routes[0]!.hops[0]!.pool));
  // The stale pool is usable again when the clock says it is fresh; the disabled one never.
  const fresh = s.search({ inputMint: sol, outputMint: usdc, amount: 10n ** 6n, mode: 'ExactIn', nowMs: UNIVERSE_NOW_MS - 3_600_000 });
  assert.ok(fresh.ok);
  assert.equal(fresh.routes[0]!.hops[0]!.pool, deepStale.pool);
  assert.ok(fresh.routes.every((r) => r.hops.every((h) => h.pool !== deepDisabled.pool)));
  // Only a disabled pool to X: no route.
  const none = s.search({ inputMint: sol, outputMint: x, amount: 10n ** 6n, mode: 'ExactIn', nowMs: UNIVERSE_NOW_MS });
  assert.deepEqual(none.ok ? 'ok' : none.code, 'NO_ROUTE');
});

test('exact-out skips a route whose leg cannot deliver exactly the amount (a PumpSwap sell has no exact-out)', () => {
  // A PumpSwap sell exact-out is an inverted exact-in that can overshoot: find a state and amount where it does.
  let found: { state: unknown; amount: bigint; quoteIn: bigint } | null = null;
  const rng = new SeededRandom(11);
  for (let i = 0; i < 10_000 && found === null; i++) {
    const state = randomState(rng, 'pumpswap');
    const u0 = emptyUniverse(rng, 2, false);
    const p = addPool(u0, rng, 'pumpswap', state, u0.mints[0]!, u0.mints[1]!);
    const amount = amountOf(rng);
    const q = p.adapter.quote(p.adapter.fromRecord(p.fields), true, amount, 'ExactOut');
    if (q.status === 'OK' && q.outAmount > amount) found = { state, amount, quoteIn: q.inAmount };
  }
  assert.ok(found !== null, 'no overshooting PumpSwap exact-out sell found');
  const u = emptyUniverse(rng, 3);
  const [base, quote] = [u.mints[0]!, u.mints[1]!];
  const sell = addPool(u, rng, 'pumpswap', found.state, base, quote);
  const s = new RouteSearcher(u.src);
  const out = s.search({ inputMint: base, outputMint: quote, amount: found.amount, mode: 'ExactOut', nowMs: UNIVERSE_NOW_MS });
  assert.equal(out.ok ? 'ok' : out.code, 'NO_ROUTE');
  const inn = s.search({ inputMint: base, outputMint: quote, amount: found.quoteIn, mode: 'ExactIn', nowMs: UNIVERSE_NOW_MS });
  assert.ok(inn.ok && inn.routes[0]!.hops[0]!.pool === sell.pool, 'the same pool quotes exact-in');
  // With a CPMM pool beside it, exact-out returns only routes without the PumpSwap leg.
  const other = addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 18n, 10n ** 18n), base, quote);
  const out2 = s.search({ inputMint: base, outputMint: quote, amount: found.amount, mode: 'ExactOut', nowMs: UNIVERSE_NOW_MS });
  assert.ok(out2.ok);
  assert.deepEqual(out2.routes.map((r) => r.hops.map((h) => h.pool)), [[other.pool]]);
  assert.equal(out2.routes[0]!.outAmount, found.amount);
});

test('a passed deadline answers ROUTE_TIMEOUT; a future one does not', () => {
  const u = randomUniverse(3, 6, 14, 0);
  const s = new RouteSearcher(u.src);
  const req = { inputMint: u.mints[0]!, outputMint: u.mints[1]!, amount: 1000n, mode: 'ExactIn' as const, nowMs: UNIVERSE_NOW_MS };
  const late = s.search({ ...req, deadlineMs: performance.now() - 1 });
  assert.deepEqual(late, { ok: false, code: 'ROUTE_TIMEOUT', message: 'route search deadline passed' });
  const inTime = s.search({ ...req, deadlineMs: performance.now() + 60_000 });
  assert.notEqual(inTime.ok ? 'ok' : inTime.code, 'ROUTE_TIMEOUT');
});

test('restrictIntermediateTokens keeps to SOL, USDC, USDT and the best-connected mints; dexes / excludeDexes filter pools', () => {
  const rng = new SeededRandom(21);
  const u = emptyUniverse(rng, 6);
  const [sol, , , x, y, z] = u.mints as [number, number, number, number, number, number];
  const viaSol = [addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 12n, 10n ** 12n), x, sol), addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 12n, 10n ** 12n), sol, y)];
  const viaZ = [addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 14n, 10n ** 14n), x, z), addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 14n, 10n ** 14n), z, y)];
  const req = { inputMint: x, outputMint: y, amount: 10n ** 9n, mode: 'ExactIn' as const, nowMs: UNIVERSE_NOW_MS };
  const pools = (res: RouteSearchResult): number[][] => (res.ok ? res.routes.map((r) => r.hops.map((h) => h.pool)) : []);
  const open = new RouteSearcher(u.src, { ...DEFAULT_ROUTE_LIMITS, liquidConnectors: 0 });
  assert.deepEqual(pools(open.search(req)), [viaZ.map((p) => p.pool), viaSol.map((p) => p.pool)]);
  assert.deepEqual(pools(open.search({ ...req, restrictIntermediateTokens: true })), [viaSol.map((p) => p.pool)]);
  // X, Y, Z have 2 pools each (ties by id): one connector admits X only, three admit Z as well.
  const one = new RouteSearcher(u.src, { ...DEFAULT_ROUTE_LIMITS, liquidConnectors: 1 });
  assert.equal(pools(one.search({ ...req, restrictIntermediateTokens: true })).length, 1);
  const three = new RouteSearcher(u.src, { ...DEFAULT_ROUTE_LIMITS, liquidConnectors: 3 });
  assert.equal(pools(three.search({ ...req, restrictIntermediateTokens: true })).length, 2);
  assert.deepEqual(pools(open.search({ ...req, onlyDirectRoutes: true })), []);
  const other = addPool(u, rng, 'raydium-amm-v4', randomState(new SeededRandom(1), 'raydium-amm-v4'), x, y);
  assert.ok(pools(open.search({ ...req, dexes: ['raydium-cpmm'] })).every((r) => !r.includes(other.pool)));
  assert.ok(pools(open.search({ ...req, excludeDexes: ['raydium-amm-v4'] })).every((r) => !r.includes(other.pool)));
  assert.deepEqual(pools(open.search({ ...req, dexes: ['pumpfun'] })), []);
});

test('feeBps is the route total fee; priceImpactBps is the shortfall against the marginal rate (constant product)', () => {
  const rng = new SeededRandom(31);
  const u = emptyUniverse(rng, 4);
  const [sol, usdc, , x] = u.mints as [number, number, number, number];
  const r = 10n ** 12n;
  addPool(u, rng, 'raydium-cpmm', cpmm(r, r), x, sol);
  addPool(u, rng, 'raydium-cpmm', cpmm(r, r), sol, usdc);
  const amount = 10n ** 10n; // 1% of the reserve
  const res = new RouteSearcher(u.src).search({ inputMint: x, outputMint: usdc, amount, mode: 'ExactIn', nowMs: UNIVERSE_NOW_MS });
  assert.ok(res.ok);
  const route = res.routes[0]!;
  assert.equal(route.hops.length, 2);
  assert.deepEqual(route.hops.map((h) => h.feeBps), [25, 25]);
  assert.equal(route.feeBps, Math.round((1 - 0.9975 ** 2) * 1e6) / 100);
  // Each leg: out = R·x(1-f)/(R + x(1-f)) against the marginal (1-f): shortfall x(1-f)/(R + x(1-f)).
  const R = Number(r);
  const x1 = Number(amount) * 0.9975;
  const out1 = (R * x1) / (R + x1);
  const x2 = out1 * 0.9975;
  const out2 = (R * x2) / (R + x2);
  const expected = (1 - out2 / (Number(amount) * 0.9975 ** 2)) * 1e4;
  assert.ok(Math.abs(route.priceImpactBps - expected) < 0.05, `${route.priceImpactBps} vs ${expected}`);
  assert.ok(route.priceImpactBps > 150 && route.priceImpactBps < 250);
});

test('between two hubs (both ends above neighbourScanLimit), 2-hop intermediates come from the liquid set only', () => {
  const rng = new SeededRandom(41);
  const u = emptyUniverse(rng, 8);
  const [sol, usdc, usdt, a, b, c, tail, other] = u.mints as [number, number, number, number, number, number, number, number];
  const deep = 10n ** 14n;
  // SOL and USDC each trade with a, b, c (3 pools each): hubs under neighbourScanLimit 2.
  for (const m of [a, b, c]) {
    addPool(u, rng, 'raydium-cpmm', cpmm(deep, deep), sol, m);
    addPool(u, rng, 'raydium-cpmm', cpmm(deep, deep), m, usdc);
  }
  // USDT is liquid (an anchor); `tail` is a long-tail mint with one thin pool to each hub.
  const viaUsdt = [addPool(u, rng, 'raydium-cpmm', cpmm(deep, deep), sol, usdt), addPool(u, rng, 'raydium-cpmm', cpmm(deep, deep), usdt, usdc)];
  addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 10n, 10n ** 10n), sol, tail);
  addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 10n, 10n ** 10n), tail, usdc);
  addPool(u, rng, 'raydium-cpmm', cpmm(deep, deep), other, a);
  const req = { inputMint: sol, outputMint: usdc, amount: 10n ** 9n, mode: 'ExactIn' as const, maxHops: 2, nowMs: UNIVERSE_NOW_MS };
  const mids = (s: RouteSearcher): number[] => {
    const r = s.search({ ...req, confirmCount: 50, maxRoutes: 50 });
    assert.ok(r.ok);
    return r.routes.map((x) => x.hops[0]!.outputMint).sort((x, y) => x - y);
  };
  // Scanned (limit above the degrees): every shared neighbour, the long tail included.
  const scanned = new RouteSearcher(u.src, { ...DEFAULT_ROUTE_LIMITS, neighbourScanLimit: 100 });
  assert.deepEqual(mids(scanned), [usdt, a, b, c, tail].sort((x, y) => x - y));
  // Hubs (limit below both degrees): the liquid set (anchors, then the most liquid: a, b, c tie, a has 3 pools).
  const hubs = new RouteSearcher(u.src, { ...DEFAULT_ROUTE_LIMITS, neighbourScanLimit: 2, liquidConnectors: 1 });
  assert.deepEqual(mids(hubs), [usdt, a].sort((x, y) => x - y));
  assert.ok(mids(hubs).includes(viaUsdt[0]!.mintB));
});

test('connectors rank by the liquidity of their pools against SOL, USDC and USDT, not by pool count', () => {
  const rng = new SeededRandom(43);
  const u = emptyUniverse(rng, 6);
  const [sol, usdc, , many, deep, y] = u.mints as [number, number, number, number, number, number];
  // SOL at 150 USD (1e9 lamports per SOL, 1e6 atoms per USDC).
  addPool(u, rng, 'raydium-cpmm', cpmm(1_000n * 10n ** 9n, 150_000n * 10n ** 6n), sol, usdc);
  // `many`: four thin SOL pools (1 SOL each side); `deep`: one pool of 10,000 USDC.
  for (let i = 0; i < 4; i++) addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 9n, 10n ** 9n), many, sol);
  addPool(u, rng, 'raydium-cpmm', cpmm(10_000n * 10n ** 6n, 10_000n * 10n ** 6n), deep, usdc);
  addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 9n, 10n ** 9n), y, many);
  addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 9n, 10n ** 9n), y, deep);
  const one = new RouteSearcher(u.src, { ...DEFAULT_ROUTE_LIMITS, liquidConnectors: 1 });
  const res = one.search({ inputMint: y, outputMint: sol, amount: 10n ** 6n, mode: 'ExactIn', nowMs: UNIVERSE_NOW_MS, restrictIntermediateTokens: true, confirmCount: 20 });
  assert.ok(res.ok);
  // Only `deep` (20,000 USD of pools against USDC) is a liquid connector; `many` (4 pools, 1,200 USD) is not.
  const mids = new Set(res.routes.flatMap((r) => r.hops.slice(1).map((h) => h.inputMint)));
  assert.ok(mids.has(deep), 'the liquid connector is used');
  assert.ok(!mids.has(many), 'the best-connected but thin mint is not a liquid connector');
});
