import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BONK, JUP, LONELY, ORPHAN, PRICE_UNIVERSE_ACCOUNTS } from '../../fixtures/synthetic/price-universe.js';
import { ADAPTERS_BY_DEX_INDEX } from '../adapters/by-dex-index.js';
import { raydiumCpmmAdapter } from '../adapters/raydium-cpmm/adapter.js';
import { Catalog } from '../catalog/catalog.js';
import { USDC_MINT, WSOL_MINT } from '../catalog/tokens.js';
import { IngestCore } from '../ingest/ingest-core.js';
import { MintTable } from '../slab/mint-table.js';
import { PoolSlab } from '../slab/pool-slab.js';
import type { PriceChange } from './price-service-types.js';
import { SlabPriceService } from './price-service.js';

function setup(connectorsCheckedPerToken?: number) {
  const slab = PoolSlab.create(16, 64);
  const mints = MintTable.create(16, 64);
  new IngestCore({ slab, mints, adapters: [raydiumCpmmAdapter], onChange: () => undefined }).applySnapshot(PRICE_UNIVERSE_ACCOUNTS, 10n);
  const svc = new SlabPriceService({ slab, mints, adapters: ADAPTERS_BY_DEX_INDEX, catalog: new Catalog(), ...(connectorsCheckedPerToken === undefined ? {} : { connectorsCheckedPerToken }) });
  svc.setReady();
  const changes: PriceChange[] = [];
  svc.onChange((c) => changes.push(c));
  /** Index of the pool between two mints. */
  const poolOf = (x: string, y: string): number => {
    for (let i = 0; i < slab.count(); i++) {
      const { mintA, mintB } = slab.poolMints(i);
      const pair = [mints.mintOf(mintA), mints.mintOf(mintB)];
      if (pair.includes(x) && pair.includes(y)) return i;
    }
    throw new Error('no pool');
  };
  return { svc, changes, poolOf };
}

test('a change moves its pools\' mints and, through a non-USD mint, every mint paired with it; USD anchors do not propagate', () => {
  const { svc, changes, poolOf } = setup();
  const affected = (c: PriceChange): string[] =>
    [WSOL_MINT, USDC_MINT, BONK, JUP, LONELY, ORPHAN].filter((m) => c.affects(svc.resolve(m)!));
  svc.poolsChanged([poolOf(WSOL_MINT, USDC_MINT)], false);
  assert.deepEqual(affected(changes[0]!), [WSOL_MINT, USDC_MINT, BONK], 'SOL/USDC moves SOL, USDC and BONK (priced through SOL)');
  assert.equal(changes[0]!.confirmed, false);
  svc.poolsChanged([poolOf(JUP, USDC_MINT)], true);
  assert.deepEqual(affected(changes[1]!), [USDC_MINT, JUP, LONELY], 'JUP/USDC: not SOL, USDC does not propagate');
  svc.poolsChanged([poolOf(ORPHAN, BONK)], true);
  assert.deepEqual(affected(changes[2]!), [WSOL_MINT, BONK, ORPHAN], 'ORPHAN/BONK: BONK propagates to SOL, its pair');
  assert.equal(changes[2]!.affects({ token: 'x', mint: 'So11111111111111111111111111111111111111111', tracked: false, indexed: false }), false);
});

test('a change of many connectors (a resync) gathers the mints they reach once, with the same answers', () => {
  const tokens = [WSOL_MINT, USDC_MINT, BONK, JUP, LONELY, ORPHAN];
  for (const pair of [[WSOL_MINT, USDC_MINT], [JUP, USDC_MINT], [ORPHAN, BONK], [LONELY, JUP]]) {
    const perToken = setup();
    const gathered = setup(0);
    perToken.svc.poolsChanged([perToken.poolOf(pair[0]!, pair[1]!)], true);
    gathered.svc.poolsChanged([gathered.poolOf(pair[0]!, pair[1]!)], true);
    const a = tokens.map((m) => perToken.changes[0]!.affects(perToken.svc.resolve(m)!));
    const b = tokens.map((m) => gathered.changes[0]!.affects(gathered.svc.resolve(m)!));
    assert.deepEqual(b, a, pair.join('/'));
  }
});

test('nothing is notified before the startup snapshot is in', () => {
  const slab = PoolSlab.create(16, 64);
  const mints = MintTable.create(16, 64);
  const svc = new SlabPriceService({ slab, mints, adapters: ADAPTERS_BY_DEX_INDEX, catalog: new Catalog() });
  let calls = 0;
  svc.onChange(() => calls++);
  svc.poolsChanged([0], false);
  assert.equal(calls, 0);
});
