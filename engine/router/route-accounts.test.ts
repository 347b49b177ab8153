import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accountsPerSwapOf } from '../adapters/capabilities.js';
import { adapterByDex } from '../adapters/registry.js';
import { SeededRandom } from '../adapters/testing/seeded-random.js';
import { ROUTE_ACCOUNT_OVERHEAD, routeAccounts } from './route-accounts.js';
import { RouteSearcher } from './route-search.js';
import { DEFAULT_ROUTE_LIMITS, type Route, type RouteSearchResult } from './route-types.js';
import { bestOf, bruteForceRoutes } from './testing/brute-force.js';
import { addPool, emptyUniverse, randomState, randomUniverse, UNIVERSE_NOW_MS } from './testing/random-universe.js';
import { plainCpmm as cpmm } from './testing/synthetic-universe.js';

const OLDEST_MS = UNIVERSE_NOW_MS - DEFAULT_ROUTE_LIMITS.maxPoolAgeMs;

/** The accounts of a returned route, from its hops' DEXes. */
function accountsOf(r: Route): number {
  return routeAccounts(r.hops.reduce((n, h) => n + accountsPerSwapOf(adapterByDex(h.dex)!), 0));
}

function pools(res: RouteSearchResult): number[][] {
  return res.ok ? res.routes.map((r) => r.hops.map((h) => h.pool)) : [];
}

test('property: no returned route exceeds maxAccounts, and the best within it is the brute-force best within it', () => {
  let cases = 0;
  let bounded = 0;
  let cut = 0;
  for (let seed = 1; seed <= 120; seed++) {
    const u = randomUniverse(seed, 6, 14);
    const rng = new SeededRandom(seed * 104_729);
    const all = new RouteSearcher(u.src, { ...DEFAULT_ROUTE_LIMITS, confirmCount: 1_000_000 });
    for (let k = 0; k < 4; k++) {
      const input = u.mints[rng.int(6)]!;
      let output = u.mints[rng.int(5)]!;
      if (output === input) output = u.mints[5]!;
      const mode = rng.int(2) === 0 ? 'ExactIn' as const : 'ExactOut' as const;
      const amount = 10n ** BigInt(rng.int(12)) * rng.range(1n, 9n);
      // From below any route (8) to above every 3-hop route (3 x 27 + 5 = 86).
      const maxAccounts = 8 + rng.int(82);
      const ctx = `seed ${seed} ${mode} ${input}->${output} amount ${amount} maxAccounts ${maxAccounts}`;
      cases++;
      const res = all.search({ inputMint: input, outputMint: output, amount, mode, nowMs: UNIVERSE_NOW_MS, maxAccounts });
      const free = all.search({ inputMint: input, outputMint: output, amount, mode, nowMs: UNIVERSE_NOW_MS });
      if (res.ok) for (const r of res.routes) assert.ok(accountsOf(r) <= maxAccounts, `${ctx}: a route of ${accountsOf(r)} accounts`);
      if (free.ok && free.routes.some((r) => accountsOf(r) > maxAccounts)) cut++;
      const best = bestOf(bruteForceRoutes(u, input, output, amount, mode, OLDEST_MS, 3, maxAccounts), mode);
      if (best === null) {
        assert.equal(res.ok ? 'ok' : res.code, 'NO_ROUTE', ctx);
        continue;
      }
      bounded++;
      assert.ok(res.ok, ctx);
      assert.equal(mode === 'ExactIn' ? res.routes[0]!.outAmount : res.routes[0]!.inAmount, mode === 'ExactIn' ? best.outAmount : best.inAmount, ctx);
    }
  }
  assert.ok(bounded >= cases / 5, `only ${bounded} of ${cases} bounded searches had a route: the property would be vacuous`);
  assert.ok(cut >= cases / 10, `maxAccounts cut a route in only ${cut} of ${cases} searches`);
});


test('a small maxAccounts drops multi-hop routes, the better ones included; the bound is legs plus the overhead', () => {
  const rng = new SeededRandom(41);
  const u = emptyUniverse(rng, 4);
  const [sol, , , x] = u.mints as [number, number, number, number];
  const usdc = u.mints[1]!;
  // Deep CPMM pools X -> SOL -> USDC (13 + 13 accounts) beat a shallow direct CPMM pool X -> USDC (13).
  const hop1 = addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 15n), x, sol);
  const hop2 = addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 15n), sol, usdc);
  const direct = addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 10n), x, usdc);
  const s = new RouteSearcher(u.src);
  const req = { inputMint: x, outputMint: usdc, amount: 10n ** 8n, mode: 'ExactIn' as const, nowMs: UNIVERSE_NOW_MS };
  const twoHop = routeAccounts(2 * 13);
  assert.equal(twoHop, 26 + ROUTE_ACCOUNT_OVERHEAD);
  assert.deepEqual(pools(s.search(req)), [[hop1.pool, hop2.pool], [direct.pool]], 'unbounded: the 2-hop route is best');
  assert.deepEqual(pools(s.search({ ...req, maxAccounts: twoHop })), [[hop1.pool, hop2.pool], [direct.pool]], 'the bound admits a route that fits exactly');
  assert.deepEqual(pools(s.search({ ...req, maxAccounts: twoHop - 1 })), [[direct.pool]], 'one account fewer: direct only');
  assert.deepEqual(pools(s.search({ ...req, maxAccounts: routeAccounts(13) })), [[direct.pool]]);
  const none = s.search({ ...req, maxAccounts: routeAccounts(13) - 1 });
  assert.equal(none.ok ? 'ok' : none.code, 'NO_ROUTE');
  assert.match(none.ok ? '' : none.message, /within 17 accounts/);
  // An AMM v4 leg (8 accounts) fits where a CPMM leg (13) does not.
  const v4 = addPool(u, rng, 'raydium-amm-v4', randomState(new SeededRandom(3), 'raydium-amm-v4'), x, usdc);
  assert.deepEqual(pools(s.search({ ...req, maxAccounts: routeAccounts(8) })), [[v4.pool]]);
});
