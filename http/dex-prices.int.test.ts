/**
 * Prices from every constant-product and bonding-curve DEX, end to end on real parts (localnet + whole service):
 * for each DEX, a token that trades only on that DEX is priced from its pool (bestBidDex / bestAskDex name the
 * DEX), and an SSE price frame moves after the simulator lands a swap on that pool.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { DexId } from '../engine/dex-ids.js';
import type { PriceObject } from '../engine/router/price-types.js';
import { startLocalnet, type Localnet } from '../fixtures/localnet/start-localnet.js';
import type { DexSeedContext, DexSeeder } from '../fixtures/localnet/universe/dex-types.js';
import { seedMeteoraDbc } from '../fixtures/localnet/universe/meteora-dbc.js';
import { seedPumpfun } from '../fixtures/localnet/universe/pumpfun.js';
import { seedPumpswap } from '../fixtures/localnet/universe/pumpswap.js';
import { loadConfig } from './config.js';
import { startService, type RunningService } from './service.js';
import { openSse } from './testing/sse-reader.js';

const KEY = 'dex-prices-key-0001';
const DEXES: readonly DexId[] = ['raydium-cpmm', 'raydium-amm-v4', 'raydium-launchlab', 'pumpswap', 'pumpfun', 'meteora-dbc'];

interface Candidate {
  readonly dex: DexId;
  readonly pool: string;
  readonly mint: string;
  readonly symbol: string;
  /** The token is pool token A (buying it is B -> A). */
  readonly isA: boolean;
  readonly quoteDecimals: number;
}

/** A quotable pool of `dex` holding a token that appears in no other pool of the universe. */
function onlyHere(net: Localnet, dex: DexId): Candidate {
  const count = new Map<string, number>();
  const bump = (m: string) => count.set(m, (count.get(m) ?? 0) + 1);
  for (const p of net.universe.pools) [p.mintA, p.mintB].forEach(bump);
  for (const p of net.universe.dexPools) [p.mintA, p.mintB].forEach(bump);
  const pools =
    dex === 'raydium-cpmm'
      ? net.universe.pools.filter((p) => !p.swapsDisabled).map((p) => ({ ...p, quotable: true }))
      : net.universe.dexPools.filter((p) => p.dex === dex && p.quotable);
  for (const p of pools) {
    for (const isA of [true, false]) {
      const mint = isA ? p.mintA : p.mintB;
      if (count.get(mint) !== 1) continue;
      return { dex, pool: p.address, mint, symbol: isA ? p.symbolA : p.symbolB, isA, quoteDecimals: isA ? p.decimalsB : p.decimalsA };
    }
  }
  throw new Error(`no token trades only on ${dex}`);
}

describe('prices from all six constant-product and curve DEXes', () => {
  let net: Localnet;
  let svc: RunningService;
  let base: string;
  before(async () => {
    net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 100 });
    svc = await startService(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        ADMIN_PORT: '0',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-dex-prices-')),
        SVC_DEMO_KEY: KEY,
        RPC_URL: net.rpcUrl,
        GEYSER_ENDPOINT: net.grpcUrl,
        LOG_LEVEL: 'warn',
      }),
    );
    await svc.ready;
    base = `http://127.0.0.1:${svc.port}`;
  });
  after(async () => {
    await svc?.close();
    await net?.stop();
  });

  for (const dex of DEXES) {
    test(`${dex}: a token that trades only there is priced from its pool, and a swap moves the price frame`, async () => {
      const c = onlyHere(net, dex);
      const res = await fetch(`${base}/v1/price/${c.mint}`, { headers: { 'x-api-key': KEY } });
      assert.equal(res.status, 200, `${c.symbol} (${c.mint}): ${res.status} ${await res.clone().text()}`);
      const before = (await res.json()) as PriceObject;
      assert.equal(before.bestBidDex, dex);
      assert.equal(before.bestAskDex, dex);
      assert.equal(before.bestBidPool, c.pool);
      assert.ok(before.bestBid > 0 && before.bestAsk >= before.bestBid, JSON.stringify(before));

      const sse = await openSse(`${base}/v1/stream/prices?tokens=${c.mint}`, { 'x-api-key': KEY });
      try {
        assert.equal((await sse.next(3000)).event, 'ready');
        // Buy the token with its quote token: its price must rise.
        const amount = 10n ** BigInt(c.quoteDecimals);
        const swap = net.simulator.swapNow(c.pool, !c.isA, amount);
        assert.equal(swap.quote.status, 'OK', `swap on ${dex}: ${JSON.stringify(swap.quote, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`);
        assert.ok(swap.signature, 'the swap landed');
        for (;;) {
          const ev = await sse.next(8000);
          if (ev.event !== 'price') continue;
          const f = ev.data as PriceObject;
          if (f.bestAsk === before.bestAsk) continue;
          assert.ok(f.bestAsk > before.bestAsk, `${dex}: ask ${f.bestAsk} > ${before.bestAsk}`);
          assert.equal(f.bestAskDex, dex);
          break;
        }
      } finally {
        sse.close();
      }
    });
  }

  // Launches after the service has started: pools that appear on the stream, not in the snapshot. Each needs
  // the discovery path of its DEX while streaming: the token accounts a pump.fun curve owns, the mint accounts
  // of a PumpSwap pool (decimals), the config of a DBC pool.
  const launches: readonly [DexId, DexSeeder][] = [['pumpfun', seedPumpfun], ['pumpswap', seedPumpswap], ['meteora-dbc', seedMeteoraDbc]];
  for (const [dex, seeder] of launches) {
    test(`${dex}: a pool launched while the service streams is discovered and priced`, async () => {
      const u = net.universe;
      const ctx: DexSeedContext = {
        seed: `late-launch-${dex}`,
        sol: u.token('SOL')!,
        usdc: u.token('USDC')!,
        usdt: u.token('USDT')!,
        tokens: new Map(u.tokens.map((t) => [t.symbol, t])),
        genesisSlot: net.ledger.slot,
        addSupply: () => undefined,
      };
      const r = seeder(ctx);
      const pool = r.pools.find((p) => p.quotable && p.note !== 'fee scheduler active')!;
      // Write what the launch creates (its mint, pool and pool-owned accounts), never an account that exists.
      const fresh = r.accounts.filter((a) => !net.ledger.getAccount(a.address));
      assert.ok(fresh.some((a) => a.address === pool.address), 'the pool is new');
      net.ledger.write(fresh);
      const mint = pool.mintA;
      const until = Date.now() + 10_000;
      let last = '';
      for (;;) {
        const res = await fetch(`${base}/v1/price/${mint}`, { headers: { 'x-api-key': KEY } });
        last = `${res.status} ${await res.text()}`;
        if (res.status === 200) {
          const p = JSON.parse(last.slice(4)) as PriceObject;
          assert.equal(p.bestBidDex, dex);
          assert.equal(p.bestBidPool, pool.address);
          break;
        }
        if (Date.now() > until) assert.fail(`${dex} launch ${pool.address} not priced: ${last}`);
        await new Promise((res2) => setTimeout(res2, 200));
      }
    });
  }
});
