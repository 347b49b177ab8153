/**
 * The whole service with a tiny Subscribe budget (`GEYSER_ADDRESS_BUDGET_BYTES=1200`): the localnet's pools do not
 * fit one request, ingest opens overflow streams, `/health` says how many and that every one is subscribed, and every
 * PumpSwap token's price moves when it is bought (some of those pools are on an overflow stream). With
 * `GEYSER_MAX_STREAMS=1` the same budget leaves pools unwatched, and `/health` says how many.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startLocalnet, type Localnet } from '../fixtures/localnet/start-localnet.js';
import type { PriceObject } from '../engine/router/price-types.js';
import { startServiceUnderTest, TEST_DEMO_KEY, type ServiceUnderTest } from './testing/service-under-test.js';
import { eventually } from './testing/wait.js';

const WSOL = 'So11111111111111111111111111111111111111112';

let net: Localnet;
before(async () => {
  net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 100 });
});
after(async () => {
  await net.stop();
});

interface Health {
  status: string;
  streams?: number;
  streamsConnected?: number;
  streamConnected?: boolean;
  unwatchedPools?: number;
}

async function health(sut: ServiceUnderTest): Promise<Health> {
  return (await (await fetch(`${sut.base}/health`)).json()) as Health;
}

async function price(sut: ServiceUnderTest, mint: string): Promise<PriceObject> {
  const r = await fetch(`${sut.base}/v1/price/${mint}`, { headers: { 'x-api-key': TEST_DEMO_KEY } });
  assert.equal(r.status, 200, `${mint}: ${r.status}`);
  return (await r.json()) as PriceObject;
}

test('overflow streams: /health counts them, all subscribed, nothing unwatched; every PumpSwap token is live', async () => {
  const sut = await startServiceUnderTest({ GEYSER_ADDRESS_BUDGET_BYTES: '1200', GEYSER_MAX_STREAMS: '4' }, net);
  try {
    const h = await eventually(async () => {
      const b = await health(sut);
      assert.equal(b.status, 'ok');
      assert.ok((b.streams ?? 0) >= 2, JSON.stringify(b));
      assert.equal(b.streamsConnected, b.streams);
      return b;
    });
    assert.equal(h.streamConnected, true);
    assert.equal(h.unwatchedPools, undefined, 'every pool watched');
    const pools = net.universe.dexPools.filter((p) => p.dex === 'pumpswap' && p.mintB === WSOL && p.quotable);
    assert.ok(pools.length >= 5);
    for (const p of pools) {
      const before = await price(sut, p.mintA);
      assert.equal(before.bestAskPool, p.address);
      const out = net.simulator.swapNow(p.address, false, 1_000_000_000n);
      assert.equal(out.quote.status, 'OK');
      await eventually(async () => {
        const now = await price(sut, p.mintA);
        assert.ok(now.bestAsk > before.bestAsk, `${p.symbolA}: ask ${before.bestAsk} -> ${now.bestAsk}`);
      }, 5000, 50);
    }
  } finally {
    await sut.stop();
  }
});

test('one stream only: the same budget leaves pools unwatched, and /health says how many', async () => {
  const sut = await startServiceUnderTest({ GEYSER_ADDRESS_BUDGET_BYTES: '1200', GEYSER_MAX_STREAMS: '1' }, net);
  try {
    const h = await eventually(async () => {
      const b = await health(sut);
      assert.equal(b.status, 'ok');
      assert.ok((b.unwatchedPools ?? 0) > 0, JSON.stringify(b));
      assert.equal(b.streamsConnected, 1, 'subscribed');
      return b;
    });
    assert.equal(h.streams, 1);
  } finally {
    await sut.stop();
  }
});
