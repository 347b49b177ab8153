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
});
