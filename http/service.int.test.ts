/**
 * End to end on real parts: the localnet (JSON-RPC + Yellowstone gRPC + simulator) and the whole service
 * (ingest worker, slabs, price service, uWebSockets.js shell), checked against prices computed independently
 * from the raw pool accounts with the official Raydium SDK.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { USDC_MINT, USDT_MINT, WSOL_MINT } from '../engine/catalog/tokens.js';
import { startLocalnet, type Localnet } from '../fixtures/localnet/start-localnet.js';
import { loadConfig } from './config.js';
import { startService, type RunningService } from './service.js';
import { bestOf, oraclePools } from './testing/sdk-price-oracle.js';
import { openSse } from './testing/sse-reader.js';
import type { PriceObject } from '../engine/router/price-types.js';

const USD = [USDC_MINT, USDT_MINT];
const DEMO_KEY = 'e2e-demo-key-0001';
const close = (a: number, b: number, rel = 1e-7): boolean => Math.abs(a / b - 1) <= rel;

async function startPair(transport: 'napi' | 'grpc-js'): Promise<{ net: Localnet; svc: RunningService; base: string }> {
  const net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 100 });
  const svc = await startService(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      ADMIN_PORT: '0',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-e2e-')),
      SVC_DEMO_KEY: DEMO_KEY,
      RPC_URL: net.rpcUrl,
      GEYSER_ENDPOINT: net.grpcUrl,
      GEYSER_TRANSPORT: transport,
      LOG_LEVEL: 'warn',
    }),
  );
  await svc.ready;
  return { net, svc, base: `http://127.0.0.1:${svc.port}` };
}

async function getPrice(base: string, token: string): Promise<PriceObject> {
  const res = await fetch(`${base}/v1/price/${token}`, { headers: { 'x-api-key': DEMO_KEY } });
  assert.equal(res.status, 200, `${token}: ${res.status}`);
  return (await res.json()) as PriceObject;
}

/** Polls until `check` passes or the deadline passes (state moves with slots). */
async function eventually(check: () => Promise<void>, ms = 8000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 150));
    }
  }
}

describe('service on the localnet (napi transport)', () => {
  let net: Localnet;
  let svc: RunningService;
  let base: string;
  before(async () => ({ net, svc, base } = await startPair('napi')));
  after(async () => {
    await svc.close();
    await net.stop();
  });

  test('a direct and a multi-hop price match the SDK over the raw accounts', async () => {
    const pools = await oraclePools(net.rpcUrl);
    const sol = bestOf(pools, WSOL_MINT, USD)!;
    const p = await getPrice(base, 'SOL');
    assert.equal(p.route, 'direct');
    assert.ok(close(p.bestBid, sol.bid), `SOL bid ${p.bestBid} vs SDK ${sol.bid}`);
    assert.ok(close(p.bestAsk, sol.ask), `SOL ask ${p.bestAsk} vs SDK ${sol.ask}`);
    assert.equal(p.bestBidPool, sol.bidPool);
    assert.equal(p.bestAskPool, sol.askPool);

    const multi = net.universe.multiHopTokens[0]!;
    const token = net.universe.token(multi)!;
    const leg = bestOf(pools, token.mint, [WSOL_MINT])!;
    const m = await getPrice(base, multi);
    assert.match(m.route, new RegExp(`^${multi}/SOL × SOL/USD[CT]$`));
    assert.ok(close(m.bestBid, leg.bid * sol.bid), `${multi} bid ${m.bestBid} vs ${leg.bid * sol.bid}`);
    assert.ok(close(m.bestAsk, leg.ask * sol.ask), `${multi} ask ${m.bestAsk} vs ${leg.ask * sol.ask}`);
    assert.equal(m.bestBidPool, leg.bidPool);
  });

  test('an SSE price frame changes after the simulator moves a pool', async () => {
    const before = await getPrice(base, 'SOL');
    const sse = await openSse(`${base}/v1/stream/prices?tokens=SOL`, { 'x-api-key': DEMO_KEY });
    try {
      assert.equal((await sse.next(3000)).event, 'ready');
      // Sell a large amount of SOL into the pool that gives the best bid: the bid must fall.
      const pool = net.universe.pools.find((p) => p.address === before.bestBidPool)!;
      const solIsA = pool.mintA === WSOL_MINT;
      const reserve = solIsA ? pool.reserveA : pool.reserveB;
      net.simulator.swapNow(pool.address, solIsA, reserve / 20n);
      for (;;) {
        const ev = await sse.next(8000);
        if (ev.event !== 'price') continue;
        const f = ev.data as PriceObject;
        if (f.bestBid !== before.bestBid) {
          assert.ok(f.bestBid < before.bestBid, `${f.bestBid} < ${before.bestBid}`);
          assert.equal(f.confidence, 'confirmed');
          break;
        }
      }
    } finally {
      sse.close();
    }
  });
});

for (const transport of ['napi', 'grpc-js'] as const) {
  describe(`stream cut mid-run (${transport})`, () => {
    let net: Localnet;
    let svc: RunningService;
    let base: string;
    before(async () => ({ net, svc, base } = await startPair(transport)));
    after(async () => {
      await svc.close();
      await net.stop();
    });

    test('the service reconnects and reflects updates made while it was disconnected', async () => {
      const before = await getPrice(base, 'SOL');
      // Three streams: ingest's Subscribe, and the transaction tracker's SubscribeDeshred (the landed signal) and
      // Subscribe (the later stages of its own submissions).
      await eventually(async () => assert.equal(net.geyser.streamCount, 3, 'the service is streaming'));
      net.geyser.refuseStreams(1500);
      assert.ok(net.geyser.dropStreams() >= 1, 'a stream was live');
      // While the service is cut off, move every SOL/USD pool.
      for (const pool of net.universe.pools) {
        if (pool.swapsDisabled) continue;
        const pair = [pool.mintA, pool.mintB];
        if (!pair.includes(WSOL_MINT) || !pair.some((m) => USD.includes(m))) continue;
        const solIsA = pool.mintA === WSOL_MINT;
        net.simulator.swapNow(pool.address, !solIsA, (solIsA ? pool.reserveB : pool.reserveA) / 10n);
      }
      // The swaps are on chain once the oracle (confirmed commitment) sees a new price. The oracle is re-read on
      // every attempt: its pool and vault reads are separate RPC calls, so one read can straddle a confirmation.
      await eventually(async () => {
        const sol = bestOf(await oraclePools(net.rpcUrl), WSOL_MINT, USD)!;
        assert.notEqual(sol.bid, before.bestBid);
      });
      await eventually(async () => {
        const sol = bestOf(await oraclePools(net.rpcUrl), WSOL_MINT, USD)!;
        const p = await getPrice(base, 'SOL');
        assert.ok(close(p.bestBid, sol.bid), `after reconnect: ${p.bestBid} vs SDK ${sol.bid}`);
        assert.ok(close(p.bestAsk, sol.ask));
      }, 15_000);
      await eventually(async () => assert.ok(Number(svc.ingest.stats().reconnects ?? 0) >= 1, JSON.stringify(svc.ingest.stats())), 3000);
      await eventually(async () => assert.equal(net.geyser.streamCount, 3, 'streaming again'));
    });
  });
}
