import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import bs58 from 'bs58';
import { ADAPTERS_BY_DEX_INDEX } from '../engine/adapters/by-dex-index.js';
import { ADAPTERS } from '../engine/adapters/registry.js';
import { USDC_MINT, WSOL_MINT } from '../engine/catalog/tokens.js';
import { IngestCore } from '../engine/ingest/ingest-core.js';
import { searchRoutes } from '../engine/router/route-search.js';
import type { RouteRequest } from '../engine/router/route-types.js';
import { MintTable } from '../engine/slab/mint-table.js';
import { PoolSlab } from '../engine/slab/pool-slab.js';
import { Topology } from '../engine/slab/topology.js';
import { BONK, PRICE_UNIVERSE_ACCOUNTS, SOL, USD, pools } from '../fixtures/synthetic/price-universe.js';
import { QuotePool } from './quote-pool.js';
import type { RouteTask } from './protocol.js';

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
