import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import bs58 from 'bs58';
import { ADAPTERS_BY_DEX_INDEX } from '../engine/adapters/by-dex-index.js';
import { ADAPTERS, adapterByDex } from '../engine/adapters/registry.js';
import { accountsPerSwapOf } from '../engine/adapters/capabilities.js';
import type { DexId } from '../engine/dex-ids.js';
import { routeAccounts } from '../engine/router/route-accounts.js';
import { USDC_MINT, WSOL_MINT } from '../engine/catalog/tokens.js';
import { IngestCore } from '../engine/ingest/ingest-core.js';
import { searchRoutes } from '../engine/router/route-search.js';
import type { RouteRequest } from '../engine/router/route-types.js';
import { MintTable } from '../engine/slab/mint-table.js';
import { PoolSlab } from '../engine/slab/pool-slab.js';
import { Topology } from '../engine/slab/topology.js';
import { BONK, PRICE_UNIVERSE_ACCOUNTS, SOL, USD, pools } from '../fixtures/synthetic/price-universe.js';
import { QuotePool } from './quote-pool.js';
import type { RouteResult, RouteTask } from './protocol.js';

const slab = PoolSlab.create(64, 64);
const mints = MintTable.create(64, 64);
new IngestCore({ slab, mints, adapters: ADAPTERS, onChange: () => undefined }).applySnapshot(PRICE_UNIVERSE_ACCOUNTS, 10n);
const src = { slab, mints, topology: new Topology(slab), adapters: ADAPTERS_BY_DEX_INDEX };
const quotes = new QuotePool({ poolSab: slab.sab, extSab: slab.ext.sab, mintSab: mints.sab, threads: 1 });
after(() => quotes.close());

const task = (over: Partial<Omit<RouteTask, 'v' | 'kind'>>): Omit<RouteTask, 'v' | 'kind'> => ({
  inputMint: WSOL_MINT,
  outputMint: USDC_MINT,
  amount: SOL,
  mode: 'ExactIn',
  maxHops: 3,
  onlyDirectRoutes: false,
  dexes: [],
  excludeDexes: [],
  restrictIntermediateTokens: true,
  deadlineEpochMs: Date.now() + 5000,
  ...over,
});

/** The same search on this thread, addresses as the worker writes them. */
function here(t: Omit<RouteTask, 'v' | 'kind'>): { pools: string[][]; out: bigint[]; inn: bigint[] } {
  const req: RouteRequest = {
    inputMint: mints.idOf(t.inputMint)!, outputMint: mints.idOf(t.outputMint)!, amount: t.amount, mode: t.mode,
    maxHops: t.maxHops, restrictIntermediateTokens: t.restrictIntermediateTokens,
  };
  const r = searchRoutes(src, req);
  assert.ok(r.ok);
  return {
    pools: r.routes.map((rt) => rt.hops.map((h) => bs58.encode(slab.address(h.pool)))),
    out: r.routes.map((rt) => rt.outAmount),
    inn: r.routes.map((rt) => rt.inAmount),
  };
}

for (const [name, t] of [
  ['direct SOL -> USDC, ExactIn', task({})],
  ['BONK -> USDC through SOL, ExactIn', task({ inputMint: BONK, amount: 1_000_000n * 100_000n })],
  ['SOL -> USDC, ExactOut', task({ mode: 'ExactOut', amount: 100n * USD })],
] as const) {
  test(`a route task in the worker reads the shared slabs and answers what this thread finds: ${name}`, async () => {
    const r = await quotes.route(t);
    assert.ok(r.ok, JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? String(v) : v)));
    const mine = here(t);
    assert.deepEqual(r.routes.map((rt) => rt.hops.map((h) => h.poolAddress)), mine.pools);
    assert.deepEqual(r.routes.map((rt) => rt.outAmount), mine.out);
    assert.deepEqual(r.routes.map((rt) => rt.inAmount), mine.inn);
    assert.equal(r.contextSlot, slab.processedSlot());
    for (const rt of r.routes) {
      assert.equal(rt.hops[0]!.inputMint, t.inputMint);
      assert.equal(rt.hops.at(-1)!.outputMint, t.outputMint);
      assert.ok(!rt.hops.some((h) => h.poolAddress === pools.disabled.address), 'a disabled pool never appears');
      assert.ok(rt.poolCacheAgeMs >= 0 && rt.poolCacheAgeMs < 60_000);
    }
  });
}

test('route task failures: an unindexed mint is NO_ROUTE, a passed deadline ROUTE_TIMEOUT', async () => {
  const unknown = await quotes.route(task({ outputMint: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin' }));
  assert.equal(unknown.ok, false);
  assert.equal(!unknown.ok && unknown.code, 'NO_ROUTE');
  const late = await quotes.route(task({ deadlineEpochMs: Date.now() - 1 }));
  assert.equal(!late.ok && late.code, 'ROUTE_TIMEOUT');
});

test('maxAccounts travels with the route task: a bound below every route is NO_ROUTE, a generous one changes nothing', async () => {
  const free = await quotes.route(task({ inputMint: BONK, amount: 1_000_000n * 100_000n }));
  assert.ok(free.ok);
  const shape = (r: RouteResult): unknown => (r.ok ? r.routes.map((rt) => [rt.hops.map((h) => h.poolAddress), rt.outAmount]) : r.code);
  const wide = await quotes.route(task({ inputMint: BONK, amount: 1_000_000n * 100_000n, maxAccounts: 256 }));
  assert.deepEqual(shape(wide), shape(free));
  const accounts = (hops: readonly { dex: DexId }[]): number => routeAccounts(hops.reduce((n, h) => n + accountsPerSwapOf(adapterByDex(h.dex)!), 0));
  const most = Math.max(...free.routes.map((rt) => accounts(rt.hops)));
  const cut = await quotes.route(task({ inputMint: BONK, amount: 1_000_000n * 100_000n, maxAccounts: most - 1 }));
  assert.ok(!cut.ok || cut.routes.every((rt) => accounts(rt.hops) < most), 'a bound one below the largest route drops it');
  const tight = await quotes.route(task({ inputMint: BONK, amount: 1_000_000n * 100_000n, maxAccounts: 8 }));
  assert.equal(!tight.ok && tight.code, 'NO_ROUTE');
});

test('an aborted signal cancels a route task: never sent when aborted first; a queued one stops at its cancel word', async () => {
  // One worker, one task at a time: the second task waits in piscina's queue behind the first.
  const single = new QuotePool({ poolSab: slab.sab, extSab: slab.ext.sab, mintSab: mints.sab, threads: 1, tasksPerWorker: 1 });
  try {
    const before = new AbortController();
    before.abort();
    const notSent = await single.route(task({}), before.signal);
    assert.deepEqual([notSent.ok, !notSent.ok && notSent.code, !notSent.ok && notSent.message], [false, 'CANCELLED', 'route task abandoned before it was sent']);
    const first = single.route(task({}));
    const abandon = new AbortController();
    const queued = single.route(task({}), abandon.signal);
    // Synchronously: the queued task cannot reach the worker before the first one's answer is handled here.
    abandon.abort();
    const [a, b] = await Promise.all([first, queued]);
    assert.ok(a.ok, 'the task ahead is untouched');
    assert.deepEqual([b.ok, !b.ok && b.code, !b.ok && b.message], [false, 'CANCELLED', 'route task cancelled before it started'], 'the worker read the raised word before searching');
    // The slot went back and the worker lives: the next cancellable task runs normally.
    const after = await single.route(task({}), new AbortController().signal);
    assert.ok(after.ok);
  } finally {
    await single.close();
  }
});
