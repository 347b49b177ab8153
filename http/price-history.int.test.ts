/**
 * change24h and the candles route end to end: a point 24 h old in the store gives `change24h` equal to the change
 * against it (within rounding) on the price routes, the search and the stream's source; the service's own samples
 * reach the store; and both survive a restart of the service on the same store.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { WSOL_MINT } from '../engine/catalog/tokens.js';
import { openStore } from '../engine/store/open.js';
import { startLocalnet, type Localnet } from '../fixtures/localnet/start-localnet.js';
import { loadConfig } from './config.js';
import { startService, type RunningService } from './service.js';

const MIN = 60_000;
const DAY = 86_400_000;
const KEY = 'price-history-key-0001';

describe('price history on the localnet', () => {
  let net: Localnet;
  let svc: RunningService | null = null;
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-history-'));
  const then = Math.floor((Date.now() - DAY - 10 * MIN) / MIN) * MIN;
  const THEN_CLOSE = 120;
  const start = async (): Promise<string> => {
    svc = await startService(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        ADMIN_PORT: '0',
        DATA_DIR: dataDir,
        SVC_DEMO_KEY: KEY,
        RPC_URL: net.rpcUrl,
        GEYSER_ENDPOINT: net.grpcUrl,
        PRICE_SAMPLE_MS: '200',
        LOG_LEVEL: 'warn',
      }),
    );
    await svc.ready;
    return `http://127.0.0.1:${svc.port}`;
  };
  const get = async <T>(base: string, path: string): Promise<T> => (await (await fetch(`${base}${path}`, { headers: { 'x-api-key': KEY } })).json()) as T;

  before(async () => {
    net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 100 });
    // Yesterday's point, in the store the service will open (as if an earlier run had sampled it).
    const store = await openStore({ dataDir: join(dataDir, 'pglite') });
    await store.prices.upsert([{ mint: WSOL_MINT, minuteMs: then, open: 118, high: 121, low: 117, close: THEN_CLOSE, samples: 6 }]);
    await store.close();
  });
  after(async () => {
    await svc?.close();
    await net?.stop();
  });

  test('change24h is the change against the stored point 24 h before, on the price routes and in search', async () => {
    const base = await start();
    const p = await get<{ priceUsd: number; change24h?: number }>(base, '/v1/price/SOL');
    assert.ok(p.change24h !== undefined, 'change24h present');
    assert.ok(Math.abs(p.change24h - (p.priceUsd / THEN_CLOSE - 1) * 100) < 1e-9, `${p.change24h} vs ${p.priceUsd}`);
    const batch = await get<{ prices: Record<string, { change24h?: number; priceUsd: number }> }>(base, '/v1/prices?tokens=SOL,USDC');
    assert.ok(Math.abs(batch.prices.SOL!.change24h! - (batch.prices.SOL!.priceUsd / THEN_CLOSE - 1) * 100) < 1e-9);
    assert.equal(batch.prices.USDC!.change24h, undefined, 'no point 24 h old for USDC: omitted');
    const search = await get<{ results: { symbol: string; change24h: number | null }[] }>(base, '/v1/search?q=SOL');
    assert.ok(Math.abs(search.results[0]!.change24h! - p.change24h) < 1e-6);
  });

  test('the candles route serves the stored bar and the service own samples, and both survive a restart', async () => {
    let base = `http://127.0.0.1:${svc!.port}`;
    // The sampler runs every 200 ms: a bar of the current minute is open by now.
    await new Promise((r) => setTimeout(r, 700));
    const from = then - MIN;
    const before = await get<{ candles: { t: number; close: number }[]; interval: string; count: number }>(base, `/v1/price/SOL/history?interval=1m&from=${from}&to=${Date.now() + MIN}`);
    assert.equal(before.interval, '1m');
    assert.equal(before.candles[0]!.t, then);
    assert.equal(before.candles[0]!.close, THEN_CLOSE);
    assert.ok(before.count >= 2, 'a bar of the service own samples');
    const own = before.candles[before.candles.length - 1]!;
    const p1 = await get<{ priceUsd: number; change24h: number }>(base, '/v1/price/SOL');
    await svc!.close();
    svc = null;
    base = await start();
    const after = await get<{ candles: { t: number; close: number }[] }>(base, `/v1/price/SOL/history?interval=1m&from=${from}&to=${Date.now() + MIN}`);
    assert.equal(after.candles[0]!.close, THEN_CLOSE);
    assert.ok(after.candles.some((c) => c.t === own.t), 'the sampled minute was written at stop and read back');
    const p2 = await get<{ priceUsd: number; change24h: number }>(base, '/v1/price/SOL');
    assert.ok(Math.abs(p2.change24h - (p2.priceUsd / THEN_CLOSE - 1) * 100) < 1e-9);
    assert.equal(p2.priceUsd, p1.priceUsd, 'simulator paused: the same price');
    const bad = await fetch(`${base}/v1/price/SOL/history?interval=2m`);
    assert.equal(bad.status, 400);
    assert.equal((await fetch(`${base}/v1/price/SOL/history?from=0&to=${26 * 3_600_000}`)).status, 400);
  });
});
