/**
 * Pools, search and the token routes end to end on the localnet (simulator paused, so the records hold the genesis
 * state the universe was built with): exact raw reserves, USD liquidity from the service's own prices, filters,
 * keyset paging that neither skips nor repeats, one pool by address, search ranking, the token page, and the errors.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Keypair } from '@solana/web3.js';
import { USDC_MINT as USDC, WSOL_MINT as WSOL } from '../engine/catalog/tokens.js';
import type { Localnet } from '../fixtures/localnet/start-localnet.js';
import { startServiceUnderTest, TEST_DEMO_KEY, type ServiceUnderTest } from './testing/service-under-test.js';
import { openSse } from './testing/sse-reader.js';

interface Rec {
  address: string;
  dex: string;
  programId: string;
  mintA: string;
  mintB: string;
  symbolA: string | null;
  symbolB: string | null;
  decimalsA: number;
  decimalsB: number;
  reserveA: string;
  reserveB: string;
  feeBps: number;
  liquidityUsd: number | null;
  priceAInB: number | null;
  slot: number;
  poolCacheAgeMs: number;
  confidence: string;
  discoveredAt: number;
  status: string;
  statusCode: number;
}
interface Page {
  pools: Rec[];
  count: number;
  total: number;
  nextCursor: string | null;
  sort: string;
}


/** Every field present with its type, no NaN or Infinity. */
function assertRecordShape(r: Rec): void {
  for (const k of ['address', 'dex', 'programId', 'mintA', 'mintB', 'reserveA', 'reserveB', 'confidence', 'status'] as const) assert.equal(typeof r[k], 'string', k);
  for (const k of ['decimalsA', 'decimalsB', 'feeBps', 'slot', 'poolCacheAgeMs', 'discoveredAt', 'statusCode'] as const) assert.ok(Number.isFinite(r[k]), `${k} ${String(r[k])}`);
  for (const k of ['liquidityUsd', 'priceAInB'] as const) assert.ok(r[k] === null || Number.isFinite(r[k]), k);
  for (const k of ['symbolA', 'symbolB'] as const) assert.ok(r[k] === null || typeof r[k] === 'string', k);
  assert.match(r.reserveA, /^\d+$/);
  assert.match(r.reserveB, /^\d+$/);
  assert.ok(['active', 'inactive', 'unwatched', 'absent'].includes(r.status));
}

describe('pools, search and tokens on the localnet', () => {
  let sut: ServiceUnderTest;
  let net: Localnet;
  let base: string;
  // A key: its answers bypass the anonymous cache (fresh after a change) and its quota covers the polling below.
  const KEY = TEST_DEMO_KEY;
  const get = async <T>(path: string): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${base}${path}`, { headers: { 'x-api-key': KEY } });
    return { status: res.status, body: (await res.json()) as T };
  };
  before(async () => {
    sut = await startServiceUnderTest();
    net = sut.net;
    base = sut.base;
  });
  after(async () => sut?.stop());

  test('a CPMM pool record holds the exact genesis reserves, and its liquidity is valued at the service prices', async () => {
    const pool = net.universe.pools.find((p) => !p.swapsDisabled && p.mintB === USDC)!;
    const { status, body: r } = await get<Rec>(`/v1/pool/${pool.address}`);
    assert.equal(status, 200);
    assertRecordShape(r);
    assert.equal(r.dex, 'raydium-cpmm');
    assert.equal(r.programId, pool.programId);
    assert.equal(r.mintA, pool.mintA);
    assert.equal(r.mintB, pool.mintB);
    assert.equal(r.reserveA, pool.reserveA.toString());
    assert.equal(r.reserveB, pool.reserveB.toString());
    assert.equal(r.decimalsA, pool.decimalsA);
    assert.equal(r.status, 'active');
    assert.equal(r.confidence, 'confirmed');
    const priceOf = async (mint: string): Promise<number> => (await get<{ priceUsd: number }>(`/v1/price/${mint}`)).body.priceUsd;
    const expected = (Number(pool.reserveA) / 10 ** pool.decimalsA) * (await priceOf(pool.mintA)) + (Number(pool.reserveB) / 10 ** pool.decimalsB) * (await priceOf(pool.mintB));
    assert.ok(Math.abs(r.liquidityUsd! - expected) <= expected * 1e-9, `${r.liquidityUsd} vs ${expected}`);
    assert.ok(Math.abs(r.priceAInB! / pool.priceAInB - 1) < 0.02, `priceAInB ${r.priceAInB} vs genesis ${pool.priceAInB}`);
  });

  test('a token listing holds only its pools, deepest first, and pages by cursor without a gap or a repeat', async () => {
    const all = (await get<Page>('/v1/pools?token=SOL&limit=500')).body;
    assert.ok(all.total >= 4, `SOL has ${all.total} pools`);
    assert.equal(all.count, all.pools.length);
    for (const r of all.pools) {
      assertRecordShape(r);
      assert.ok(r.mintA === WSOL || r.mintB === WSOL);
    }
    for (let i = 1; i < all.pools.length; i++) assert.ok((all.pools[i - 1]!.liquidityUsd ?? -1) >= (all.pools[i]!.liquidityUsd ?? -1), 'sorted by liquidity');
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const p: Page = (await get<Page>(`/v1/pools/SOL?limit=3${cursor ? `&cursor=${cursor}` : ''}`)).body;
      seen.push(...p.pools.map((r) => r.address));
      cursor = p.nextCursor;
      if (cursor === null) break;
    }
    assert.deepEqual(seen, all.pools.map((r) => r.address));
    const byPath = (await get<Page>('/v1/pools/SOL?limit=500')).body;
    assert.deepEqual(byPath.pools.map((r) => r.address), seen);
  });

  test('pair and dex filters, recency order, and the whole listing', async () => {
    const pair = (await get<Page>('/v1/pools?pair=SOL,USDC&limit=500')).body;
    assert.ok(pair.total >= 1);
    for (const r of pair.pools) assert.deepEqual([r.mintA, r.mintB].sort(), [WSOL, USDC].sort());
    const pairPath = (await get<Page>(`/v1/pools/USDC/${WSOL}?limit=500`)).body;
    assert.deepEqual(pairPath.pools.map((r) => r.address), pair.pools.map((r) => r.address));
    const pump = (await get<Page>('/v1/pools?dex=pumpswap&limit=500')).body;
    assert.ok(pump.total >= 1);
    for (const r of pump.pools) assert.equal(r.dex, 'pumpswap');
    const every = (await get<Page>('/v1/pools?limit=500&sort=recency')).body;
    assert.equal(every.sort, 'recency');
    const indexed = net.universe.pools.length + net.universe.dexPools.length;
    assert.ok(every.total >= indexed - 5 && every.total <= indexed + 5, `${every.total} pools listed, the universe has ${indexed}`);
    for (let i = 1; i < every.pools.length; i++) assert.ok(every.pools[i - 1]!.discoveredAt >= every.pools[i]!.discoveredAt);
  });

  test('search ranks the exact symbol first, then prefixes, and finds a pool by address', async () => {
    const exact = (await get<{ query: string; results: { type: string; symbol: string; mint: string; href: string; live: boolean; tradeable: boolean; poolCount: number; priceUsd: number | null; change24h: null }[]; count: number; limit: number }>('/v1/search?q=sol')).body;
    assert.equal(exact.query, 'sol');
    assert.equal(exact.limit, 8);
    assert.equal(exact.results[0]!.symbol, 'SOL');
    assert.equal(exact.results[0]!.type, 'token');
    assert.equal(exact.results[0]!.href, `/v1/token/${WSOL}`);
    assert.ok(exact.results[0]!.live && exact.results[0]!.tradeable && exact.results[0]!.poolCount > 0 && exact.results[0]!.priceUsd! > 0);
    assert.equal(exact.results[0]!.change24h, null);
    assert.equal(exact.count, exact.results.length);
    const pool = net.universe.pools[0]!;
    const byAddress = (await get<{ results: { type: string; id: string; href: string }[] }>(`/v1/search?q=${pool.address}`)).body;
    assert.deepEqual(byAddress.results.map((r) => [r.type, r.id]), [['pool', pool.address]]);
    const none = (await get<{ results: unknown[]; count: number }>('/v1/search?q=zzzznotatoken')).body;
    assert.equal(none.count, 0);
    assert.equal((await get('/v1/search?q=')).status, 400);
    assert.equal((await get('/v1/search?q=sol&limit=21')).status, 400);
    assert.equal((await get('/v1/search?q=sol&limit=1.5')).status, 400);
  });

  test('the token list and a token page with its pools and venues', async () => {
    const list = (await get<{ tokens: { symbol: string; mint: string; decimals: number }[]; count: number }>('/v1/tokens')).body;
    assert.equal(list.count, list.tokens.length);
    assert.ok(list.tokens.some((t) => t.symbol === 'SOL' && t.mint === WSOL && t.decimals === 9));
    const page = (await get<{ token: { symbol: string; mint: string; tracked: boolean }; price: { priceUsd: number }; poolCount: number; pools: Rec[]; venues: { dex: string; poolCount: number; liquidityUsd: number }[] }>('/v1/token/SOL')).body;
    assert.equal(page.token.symbol, 'SOL');
    assert.equal(page.token.mint, WSOL);
    assert.ok(page.price.priceUsd > 0);
    const listed = (await get<Page>('/v1/pools?token=SOL&limit=500')).body;
    assert.equal(page.poolCount, listed.total);
    assert.deepEqual(page.pools.map((r) => r.address), listed.pools.slice(0, 20).map((r) => r.address));
    assert.equal(page.venues.reduce((n, v) => n + v.poolCount, 0), page.poolCount);
  });

  test('new pools: none after the snapshot, then a pool the chain creates, newest first', async () => {
    const before = (await get<Page>('/v1/pools/new')).body;
    assert.equal(before.total, 0, 'the startup snapshot is not new');
    assert.equal(before.sort, 'recency');
    const stream = await openSse(`${base}/v1/stream/pools?apiKey=${KEY}&dex=raydium-cpmm`);
    const other = await openSse(`${base}/v1/stream/pools?apiKey=${KEY}&dex=pumpswap`);
    assert.equal((await stream.next(5000)).event, 'ready');
    assert.equal((await other.next(5000)).event, 'ready');
    // A second pool account of an existing pair (the same vaults), written by the chain: discovered over the stream.
    const model = net.universe.pools.find((p) => !p.swapsDisabled)!;
    const account = net.ledger.getAccount(model.address)!;
    const address = Keypair.generate().publicKey.toBase58();
    net.ledger.write([{ address, owner: account.owner, lamports: account.lamports, data: new Uint8Array(account.data) }]);
    let after: Page | null = null;
    for (let i = 0; i < 150 && (after === null || after.total === 0); i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = (await get<Page>('/v1/pools/new')).body;
    }
    assert.equal(after!.total, 1);
    assert.equal(after!.pools[0]!.address, address);
    assert.ok(after!.pools[0]!.discoveredAt > before.pools.reduce((m, r) => Math.max(m, r.discoveredAt), 0));
    assert.equal((await get<Page>('/v1/pools/new?dex=pumpswap')).body.total, 0);
    const ev = await stream.next(5000);
    assert.equal(ev.event, 'pool');
    const streamed = ev.data as Rec;
    assertRecordShape(streamed);
    assert.equal(streamed.address, address);
    assert.equal(streamed.discoveredAt, after!.pools[0]!.discoveredAt);
    assert.ok(await other.quietFor(300), 'a pumpswap-only stream gets no CPMM pool');
    stream.close();
    other.close();
    assert.equal((await get(`/v1/stream/pools?apiKey=${KEY}&dex=nope`)).status, 400);
  });

  test('dead pools: each not tradable, empty or idle, with why', async () => {
    const dead = (await get<Page & { deadAfterMs: number; pools: (Rec & { deadReason: string })[] }>('/v1/pools/dead?limit=500')).body;
    assert.equal(dead.deadAfterMs, 86_400_000);
    assert.ok(dead.total >= 1, 'the universe has pools that cannot trade');
    for (const r of dead.pools) {
      assertRecordShape(r);
      const why = r.status !== 'active' ? 'not-tradable' : r.reserveA === '0' || r.reserveB === '0' ? 'empty' : 'idle';
      assert.equal(r.deadReason, why, r.address);
    }
    const disabled = net.universe.pools.find((p) => p.swapsDisabled);
    if (disabled) assert.ok(dead.pools.some((r) => r.address === disabled.address), 'a CPMM pool with swaps disabled is dead');
    const every = (await get<Page>('/v1/pools?limit=500')).body.pools;
    assert.equal(dead.total, every.filter((r) => r.status !== 'active' || r.reserveA === '0' || r.reserveB === '0').length);
  });

  test('the bulk export pages in index order, as JSON or MessagePack', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let indexed = 0;
    for (let i = 0; i < 100; i++) {
      const p: { pools: Rec[]; count: number; indexed: number; nextCursor: string | null } = (await get<{ pools: Rec[]; count: number; indexed: number; nextCursor: string | null }>(`/v1/pools/seed?limit=7${cursor ? `&cursor=${cursor}` : ''}`)).body;
      assert.ok(p.count <= 7);
      seen.push(...p.pools.map((r) => r.address));
      indexed = p.indexed;
      cursor = p.nextCursor;
      if (cursor === null) break;
    }
    assert.equal(new Set(seen).size, seen.length);
    assert.equal(seen.length, indexed);
    const every = (await get<Page>('/v1/pools?limit=500')).body;
    assert.deepEqual([...seen].sort(), every.pools.map((r) => r.address).sort());
    const res = await fetch(`${base}/v1/pools/seed?limit=3`, { headers: { accept: 'application/x-msgpack', 'x-api-key': KEY } });
    assert.equal(res.headers.get('content-type'), 'application/x-msgpack');
    const { unpack } = await import('msgpackr');
    const decoded = unpack(Buffer.from(await res.arrayBuffer())) as { pools: Rec[]; count: number; nextCursor: string };
    assert.equal(decoded.count, 3);
    assert.deepEqual(decoded.pools.map((r) => r.address), seen.slice(0, 3));
    assert.equal((await get('/v1/pools/seed?cursor=-1')).status, 400);
    assert.equal((await get('/v1/pools/seed?limit=5001')).status, 400);
  });

  test('errors: bad filters and cursors are 400, unknown pools 404, a mint in no pool TOKEN_NOT_FOUND', async () => {
    assert.equal((await get('/v1/pools?dex=uniswap')).status, 400);
    assert.equal((await get('/v1/pools?sort=volume')).status, 400);
    assert.equal((await get('/v1/pools?limit=0')).status, 400);
    assert.equal((await get('/v1/pools?cursor=!!')).status, 400);
    const recencyCursor = (await get<Page>('/v1/pools?sort=recency&limit=1')).body.nextCursor!;
    assert.equal((await get(`/v1/pools?sort=liquidity&cursor=${recencyCursor}`)).status, 400, 'a cursor of another sort');
    assert.equal((await get('/v1/pools?pair=SOL')).status, 400);
    assert.equal((await get('/v1/pools?token=NOTATOKEN')).status, 400);
    assert.equal((await get('/v1/pool/not-an-address')).status, 400);
    const stranger = Keypair.generate().publicKey.toBase58();
    const missing = await get<{ error: string; code: string }>(`/v1/pool/${stranger}`);
    assert.equal(missing.status, 404);
    const token = await get<{ code: string }>(`/v1/token/${stranger}`);
    assert.equal(token.status, 404);
    assert.equal(token.body.code, 'TOKEN_NOT_FOUND');
    assert.equal((await get('/v1/token/NOTATOKEN')).status, 400);
  });
});
