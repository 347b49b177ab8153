import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SeededRandom } from '../adapters/testing/seeded-random.js';
import { VIEW_LATEST } from '../slab/pool-slab.js';
import { RouteSearcher } from './route-search.js';
import { DEFAULT_ROUTE_LIMITS } from './route-types.js';
import { addPool, emptyUniverse, randomUniverse, UNIVERSE_NOW_MS } from './testing/random-universe.js';
import { plainCpmm as cpmm } from './testing/synthetic-universe.js';

test('collectPools: every pool of every route is watched once, with the sequence it had when read', () => {
  let withRoutes = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const u = randomUniverse(seed, 8, 30);
    const s = new RouteSearcher(u.src);
    const req = { inputMint: u.mints[0]!, outputMint: u.mints[1]!, amount: 10n ** 6n, mode: 'ExactIn' as const, nowMs: UNIVERSE_NOW_MS };
    const plain = s.search(req);
    assert.ok(!plain.ok || plain.watched === undefined, 'nothing collected unless asked');
    const res = s.search({ ...req, collectPools: true });
    if (!res.ok) continue;
    withRoutes++;
    const w = res.watched!;
    assert.equal(w.pools.length, w.seqs.length);
    assert.equal(new Set(w.pools).size, w.pools.length, 'each pool once');
    for (const r of res.routes) for (const h of r.hops) assert.ok(w.pools.includes(h.pool), `hop pool ${h.pool} watched (seed ${seed})`);
    w.pools.forEach((p, i) => assert.equal(w.seqs[i], u.src.slab.writeSeq(p, VIEW_LATEST), 'nothing written since the read'));
    // A write to a watched record moves its sequence: what the quote stream looks for.
    const p0 = w.pools[0]!;
    u.src.slab.setConfirmed(p0, VIEW_LATEST, true);
    assert.notEqual(u.src.slab.writeSeq(p0), w.seqs[0]);
  }
  assert.ok(withRoutes >= 10, `only ${withRoutes} searches had a route`);
});


test('collectPools: a pool the search never reads (another pair, no path) is not watched', () => {
  const rng = new SeededRandom(3);
  const u = emptyUniverse(rng, 6);
  const [sol, usdc, , x, y, z] = u.mints as [number, number, number, number, number, number];
  const direct = addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 12n), sol, usdc);
  const elsewhere = addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 12n), y, z);
  addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 12n), x, y);
  const res = new RouteSearcher(u.src).search({ inputMint: sol, outputMint: usdc, amount: 1000n, mode: 'ExactIn', nowMs: UNIVERSE_NOW_MS, collectPools: true });
  assert.ok(res.ok);
  assert.ok(res.watched!.pools.includes(direct.pool));
  assert.ok(!res.watched!.pools.includes(elsewhere.pool));
});

test('collectPools watches the pairs candidates trade (past maxPoolsPerPair too) and unusable pools, not dead-end neighbours', () => {
  const rng = new SeededRandom(9);
  const u = emptyUniverse(rng, 6);
  const [sol, usdc, , x, deadEnd] = u.mints as [number, number, number, number, number, number];
  // SOL -> USDC directly (3 pools, cap 2 per pair) and through x; deadEnd trades only with SOL (no path goes on).
  const direct = [1n, 2n, 3n].map((k) => addPool(u, rng, 'raydium-cpmm', cpmm(k * 10n ** 12n), sol, usdc));
  const viaX = [addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 12n), sol, x), addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 12n), x, usdc)];
  const dead = addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 12n), sol, deadEnd);
  const disabled = addPool(u, rng, 'raydium-cpmm', cpmm(10n ** 12n), deadEnd, usdc, { status: 9 });
  const s = new RouteSearcher(u.src, { ...DEFAULT_ROUTE_LIMITS, maxPoolsPerPair: 2 });
  const res = s.search({ inputMint: sol, outputMint: usdc, amount: 1000n, mode: 'ExactIn', nowMs: UNIVERSE_NOW_MS, collectPools: true });
  assert.ok(res.ok);
  const w = new Set(res.watched!.pools);
  for (const p of [...direct, ...viaX]) assert.ok(w.has(p.pool), `pool ${p.pool} of a candidate pair`);
  assert.ok(w.has(disabled.pool), 'an unusable pool may open a path when written');
  assert.ok(!w.has(dead.pool), 'a usable dead-end neighbour cannot make a path');
  assert.equal(res.watched!.pools.length, res.watched!.seqs.length);
});
