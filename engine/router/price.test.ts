import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BONK, LONELY, ORPHAN, pools, PRICE_UNIVERSE_ACCOUNTS, USD } from '../../fixtures/synthetic/price-universe.js';
import { ADAPTERS_BY_DEX_INDEX } from '../adapters/by-dex-index.js';
import { raydiumCpmmAdapter } from '../adapters/raydium-cpmm/adapter.js';
import { Catalog } from '../catalog/catalog.js';
import { WSOL_MINT } from '../catalog/tokens.js';
import { IngestCore } from '../ingest/ingest-core.js';
import { MintTable } from '../slab/mint-table.js';
import { PoolSlab } from '../slab/pool-slab.js';
import { Topology } from '../slab/topology.js';
import { PriceDeriver } from './price.js';
import { isPrice, type PriceObject } from './price-types.js';

function setup() {
  const slab = PoolSlab.create(16, 64);
  const mints = MintTable.create(16, 64);
  const core = new IngestCore({ slab, mints, adapters: [raydiumCpmmAdapter], onChange: () => undefined });
  core.applySnapshot(PRICE_UNIVERSE_ACCOUNTS, 10n);
  const deriver = new PriceDeriver({ slab, mints, topology: new Topology(slab), adapters: ADAPTERS_BY_DEX_INDEX }, new Catalog());
  return { core, deriver };
}

/** Independent marginal prices of a CPMM pool (creator fee off): rate = Rout/Rin × (1 − fee). */
function expected(baseRes: number, quoteRes: number, baseDec: number, quoteDec: number, fee: number) {
  const spot = (quoteRes / baseRes) * 10 ** (baseDec - quoteDec);
  return { bid: spot * (1 - fee), ask: spot / (1 - fee) };
}

test('direct price: best bid and ask across valid pools, outliers, dust and disabled pools excluded', () => {
  const { deriver } = setup();
  const p = deriver.price('SOL', WSOL_MINT, false, 1_000) as PriceObject;
  assert.ok(isPrice(p));
  const a = expected(1000e9, 150_000e6, 9, 6, 0.0025);
  const b = expected(100e9, 15_100e6, 9, 6, 0.01);
  const c = expected(500e9, 74_900e6, 9, 6, 0.0004);
  const bestBid = Math.max(a.bid, b.bid, c.bid);
  const bestAsk = Math.min(a.ask, b.ask, c.ask);
  assert.ok(Math.abs(p.bestBid / bestBid - 1) < 1e-12, `${p.bestBid} vs ${bestBid}`);
  assert.ok(Math.abs(p.bestAsk / bestAsk - 1) < 1e-12, `${p.bestAsk} vs ${bestAsk}`);
  assert.equal(p.priceUsd, (p.bestBid + p.bestAsk) / 2);
  assert.equal(p.bestBidPool, pools.c.address);
  assert.equal(p.bestBidDex, 'raydium-cpmm');
  assert.equal(p.bestBidFeeBps, 4);
  assert.equal(p.poolCount, 3, 'a, b, c; not the outlier, the dust pool or the disabled one');
  assert.equal(p.route, 'direct');
  assert.equal(p.confidence, 'confirmed');
  assert.equal(p.token, 'SOL');
  assert.equal(p.mint, WSOL_MINT);
});

test('multi-hop through SOL when the token has no USD pool', () => {
  const { deriver } = setup();
  const sol = deriver.price('SOL', WSOL_MINT, false) as PriceObject;
  const p = deriver.price('BONK', BONK, false) as PriceObject;
  assert.ok(isPrice(p));
  const leg = expected(75_000_000e5, 10e9, 5, 9, 0.01);
  assert.ok(Math.abs(p.bestBid / (leg.bid * sol.bestBid) - 1) < 1e-12);
  assert.ok(Math.abs(p.bestAsk / (leg.ask * sol.bestAsk) - 1) < 1e-12);
  assert.ok(p.priceUsd > 0.000015 && p.priceUsd < 0.000025, String(p.priceUsd));
  assert.equal(p.route, 'BONK/SOL × SOL/USDT');
  assert.equal(p.bestBidPool, pools.bonk.address);
  assert.equal(p.poolCount, 4);
});

test('without SOL, the connector with a USD price is the intermediate; two intermediates are not priced', () => {
  const { deriver } = setup();
  const p = deriver.price(LONELY, LONELY, false);
  assert.ok(isPrice(p));
  assert.equal(p.route, `PYTH/JUP × JUP/USDC`, 'catalog symbols label the route');
  assert.ok(Math.abs(p.priceUsd / 2 - 1) < 0.02, String(p.priceUsd));
  const orphan = deriver.price(ORPHAN, ORPHAN, false);
  assert.equal(isPrice(orphan), false, 'ORPHAN/BONK: BONK itself needs an intermediate');
  const none = deriver.price('x', 'So11111111111111111111111111111111111111111', false);
  assert.deepEqual(Object.keys(none).sort(), ['reason', 'status', 'token']);
});

test('optimistic view reports optimistic state until its slot is confirmed', () => {
  const { core, deriver } = setup();
  const vault = pools.a.accounts[2]!;
  const data = vault.data.slice();
  new DataView(data.buffer).setBigUint64(64, 160_000n * USD, true);
  core.pushAccount({ ...vault, data, slot: 11n, writeVersion: 1n });
  core.endTurn();
  core.slotStatus(11n, 'processed');
  const opt = deriver.price('SOL', WSOL_MINT, true) as PriceObject;
  const conf = deriver.price('SOL', WSOL_MINT, false) as PriceObject;
  assert.equal(opt.confidence, 'optimistic');
  assert.equal(typeof opt.optimisticAgeMs, 'number');
  assert.equal(conf.confidence, 'confirmed');
  assert.equal(conf.optimisticAgeMs, undefined);
  core.slotStatus(11n, 'confirmed');
  const after = deriver.price('SOL', WSOL_MINT, true) as PriceObject;
  assert.equal(after.confidence, 'confirmed');
  assert.equal((deriver.price('SOL', WSOL_MINT, false) as PriceObject).bestAsk, after.bestAsk);
});
