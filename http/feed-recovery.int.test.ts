/**
 * The live feed under faults, on real parts (the localnet's Geyser, RPC and slot clock; the whole service with the
 * default napi transport): a resume point gone from the replay window, resyncs that fail, a stalled stream, a
 * cluster that goes down, and a chain that restarts from genesis. Each time /health must tell the truth, prices
 * must keep answering with truthful ages, and the service must come back to the chain's exact state by itself.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { USDC_MINT } from '../engine/catalog/tokens.js';
import { compareWithChain } from '../engine/ingest/testing/chain-reference.js';
import { poolIndexOf } from '../engine/ingest/testing/pool-index.js';
import { newExactSnapshot } from '../engine/slab/pool-snapshot.js';
import { VIEW_LATEST } from '../engine/slab/pool-slab.js';
import type { PriceObject } from '../engine/router/price-types.js';
import { startLocalnet, type Localnet, type LocalnetOptions } from '../fixtures/localnet/start-localnet.js';
import { startServiceUnderTest, TEST_DEMO_KEY, type ServiceUnderTest } from './testing/service-under-test.js';
import { freePort } from '../engine/testing/free-port.js';
import { eventually } from './testing/wait.js';

/** A fast chain with a one-second replay window. */
const NET: LocalnetOptions = { rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 50, historySlots: 20, holders: 50 };
/** Tight freshness bounds for a 50 ms slot. */
const ENV = { CHAIN_POLL_MS: '100', HEALTH_MAX_UPDATE_AGE_MS: '1500', HEALTH_MAX_SLOT_LAG: '20', GEYSER_TRANSPORT: 'napi' };

interface Health {
  readonly httpStatus: number;
  readonly retryAfter: string | null;
  readonly body: Record<string, unknown>;
}

async function health(base: string): Promise<Health> {
  const r = await fetch(`${base}/health`);
  return { httpStatus: r.status, retryAfter: r.headers.get('retry-after'), body: (await r.json()) as Record<string, unknown> };
}

async function healthy(base: string, ms = 15_000): Promise<Health> {
  return eventually(async () => {
    const h = await health(base);
    assert.equal(h.httpStatus, 200, `health: ${JSON.stringify(h.body)}`);
    return h;
  }, ms);
}

async function unhealthy(base: string, ms: number, stepMs: number): Promise<Health> {
  return eventually(async () => {
    const h = await health(base);
    assert.equal(h.httpStatus, 503);
    return h;
  }, ms, stepMs);
}

async function price(base: string, token: string): Promise<{ status: number; body: PriceObject }> {
  const r = await fetch(`${base}/v1/price/${token}`, { headers: { 'x-api-key': TEST_DEMO_KEY } });
  return { status: r.status, body: (await r.json()) as PriceObject };
}

/** A CPMM pool that is its token's only pool, paired with USDC: the token's price comes from it alone. */
function soleUsdcPool(net: Localnet): { pool: string; token: string; tokenIsA: boolean } {
  const pools = net.universe.pools;
  for (const p of pools) {
    const other = p.mintA === USDC_MINT ? p.mintB : p.mintB === USDC_MINT ? p.mintA : null;
    if (!other) continue;
    if (pools.filter((q) => q.mintA === other || q.mintB === other).length === 1) return { pool: p.address, token: other, tokenIsA: p.mintA === other };
  }
  throw new Error('no token with a single USDC pool in the universe');
}

function reserves(s: ServiceUnderTest, pool: string): [bigint, bigint] {
  const i = poolIndexOf(s.svc.slab, pool);
  assert.ok(i >= 0, `pool ${pool} indexed`);
  const snap = newExactSnapshot();
  assert.ok(s.svc.slab.readExact(i, VIEW_LATEST, snap));
  return [snap.reserveA, snap.reserveB];
}

/** Stops the clock once the last writes are confirmed, then compares every pool with the chain. */
async function assertMatchesChain(s: ServiceUnderTest): Promise<void> {
  await new Promise((r) => setTimeout(r, 300));
  s.net.ledger.stop();
  try {
    await eventually(async () => {
      const c = await compareWithChain(s.svc.slab, s.net.rpcUrl);
      assert.ok(c.compared > 50, `compared ${c.compared} pools`);
      assert.deepEqual(c.mismatches.slice(0, 5), [], `${c.mismatches.length} fields differ from the chain`);
    }, 5000, 250);
  } finally {
    s.net.ledger.start();
  }
}

/** Health 200 after exactly one reload. */
async function reloadedOnce(base: string): Promise<Health> {
  return eventually(async () => {
    const h = await health(base);
    assert.equal(h.httpStatus, 200, JSON.stringify(h.body));
    assert.equal(h.body.reloads, 1);
    return h;
  }, 30_000, 100);
}

/**
 * Runs the service on one localnet, then replaces it with another on the same ports (`secondOptions` over the
 * first's): `beforeSwitch` runs on the first once healthy, `afterSwitch` on the second.
 */
async function acrossChains(
  secondOptions: Partial<LocalnetOptions> | ((first: Localnet) => Partial<LocalnetOptions>),
  beforeSwitch: (first: Localnet) => Promise<void>,
  afterSwitch: (second: Localnet, s: ServiceUnderTest) => Promise<void>,
): Promise<void> {
  const opts: LocalnetOptions = { ...NET, rpcPort: await freePort(), grpcPort: await freePort(), blockEnginePort: 0, metadataPort: 0 };
  const first = await startLocalnet(opts);
  const s = await startServiceUnderTest(ENV, first);
  let second: Localnet | undefined;
  let firstRunning = true;
  try {
    await healthy(s.base);
    await beforeSwitch(first);
    firstRunning = false;
    await first.stop();
    const more = typeof secondOptions === 'function' ? secondOptions(first) : secondOptions;
    second = await startLocalnet({ ...opts, ...more });
    await afterSwitch(second, { ...s, net: second });
  } finally {
    await s.stop();
    // A failed step before the switch must not leave the first chain's servers running past the test.
    if (firstRunning) await first.stop();
    await second?.stop();
  }
}

describe('feed recovery', { concurrency: false }, () => {
  test('napi: a resume point gone from the replay window -> subscribe from the present, resync (retried), exact state', async () => {
    const net = await startLocalnet(NET);
    const s = await startServiceUnderTest(ENV, net);
    try {
      const { pool, token } = soleUsdcPool(s.net);
      await healthy(s.base);
      const before = reserves(s, pool);
      // Streams refused for 3 s (three replay windows), then the live stream dropped: the reconnect's from_slot is gone.
      s.net.geyser.refuseStreams(3000);
      s.net.geyser.dropStreams();
      // The first resync attempts fail: every attempt's getProgramAccounts exhausts the client's 5 tries.
      s.net.rpc.failNext(12, 503, ['getProgramAccounts']);
      // A trade while the service cannot see it: only the resync can bring it.
      const missed = s.net.simulator.swapNow(pool, true, 5_000_000n);
      assert.ok(missed.slot !== undefined, 'swap landed');
      // Health goes stale while the feed is away.
      const stale = await unhealthy(s.base, 5000, 50);
      assert.equal(stale.body.code, 'SERVICE_UNAVAILABLE');
      assert.equal(stale.body.status, 'stale');
      assert.ok(['stream-silent', 'slot-lag', 'resyncing'].includes(String(stale.body.reason)), String(stale.body.reason));
      assert.ok(Number(stale.retryAfter) > 0, 'Retry-After');
      // Prices keep answering meanwhile, and say how old they are.
      const during = await price(s.base, token);
      assert.equal(during.status, 200);
      // Failed resync attempts are visible, then it succeeds by itself.
      const failing = await eventually(async () => {
        const h = await health(s.base);
        assert.equal(h.body.reason, 'resyncing');
        assert.ok(Number(h.body.resyncFailures) >= 1, JSON.stringify(h.body));
        return h;
      }, 15_000, 50);
      assert.equal(failing.httpStatus, 503);
      const ok = await healthy(s.base, 30_000);
      assert.ok(Number(ok.body.resyncs) >= 1);
      assert.notDeepEqual(reserves(s, pool), before, 'the trade made while away is in the record');
      // The stream is live again: a new trade shows within a moment.
      const after = reserves(s, pool);
      s.net.simulator.swapNow(pool, false, 3_000_000n);
      await eventually(() => assert.notDeepEqual(reserves(s, pool), after), 3000, 20);
      await assertMatchesChain(s);
    } finally {
      await s.stop();
      await net.stop();
    }
  });

  test('a resync from the present reads the newest state: a trade in the open slot before the stream came back is not lost', async () => {
    const net = await startLocalnet(NET);
    const s = await startServiceUnderTest(ENV, net);
    try {
      const { pool } = soleUsdcPool(s.net);
      await healthy(s.base);
      s.net.geyser.refuseStreams(2500);
      s.net.geyser.dropStreams();
      // Past the replay window, the clock stops; the trade lands in the open slot, which is not confirmed.
      await new Promise((r) => setTimeout(r, 2000));
      s.net.ledger.stop();
      const before = reserves(s, pool);
      assert.ok(s.net.simulator.swapNow(pool, true, 6_000_000n).slot !== undefined);
      // The stream comes back from the present, after the trade: only the resync can bring it.
      await eventually(() => assert.notDeepEqual(reserves(s, pool), before, 'the trade is in the latest view'), 10_000, 50);
      s.net.ledger.start();
      await healthy(s.base);
      await assertMatchesChain(s);
    } finally {
      await s.stop();
      await net.stop();
    }
  });

  test('a stalled stream makes /health 503 at once; data held back is dated when the chain made it; a cluster down is 503', async () => {
    const s = await startServiceUnderTest({ ...ENV, GEYSER_SILENCE_MS: '60000' }, await startLocalnet(NET));
    try {
      const { pool, token } = soleUsdcPool(s.net);
      await healthy(s.base);
      s.net.geyser.stallStreams(5000);
      const stalledAt = Date.now();
      await new Promise((r) => setTimeout(r, 300));
      // Landed on chain while the stream holds everything back.
      const swappedAt = Date.now();
      assert.ok(s.net.simulator.swapNow(pool, true, 4_000_000n).slot !== undefined);
      const stale = await unhealthy(s.base, 3000, 50);
      assert.ok(Date.now() - stalledAt < 3000, 'stale within the bound, not after the silence timeout');
      assert.ok(['slot-lag', 'stream-silent'].includes(String(stale.body.reason)), String(stale.body.reason));
      // The held update arrives when the stall ends; its age counts from when it landed, not from its arrival.
      const before = reserves(s, pool);
      await eventually(() => assert.notDeepEqual(reserves(s, pool), before), 10_000, 20);
      const sentAt = Date.now();
      const p = await price(s.base, token);
      assert.equal(p.status, 200);
      assert.ok(p.body.poolCacheAgeMs >= sentAt - swappedAt, `poolCacheAgeMs ${p.body.poolCacheAgeMs} < ${sentAt - swappedAt} ms since the trade landed`);
      await healthy(s.base);
      // The whole cluster goes down: RPC and Geyser.
      await s.net.stop();
      const down = await unhealthy(s.base, 5000, 100);
      assert.equal(down.body.reason, 'stream-silent');
      const stillPriced = await price(s.base, token);
      assert.equal(stillPriced.status, 200, 'prices keep answering, with their age');
      assert.ok(stillPriced.body.poolCacheAgeMs >= 1500 || stillPriced.body.poolCacheAgeMs === -1);
    } finally {
      await s.stop();
    }
  });

  test('the chain restarts from genesis: detected, reloaded, and the new chain is followed exactly', async () => {
    let pool = '';
    await acrossChains(
      {},
      async (first) => {
        pool = soleUsdcPool(first).pool;
        // Far enough from genesis that the restarted chain is clearly behind.
        await eventually(() => assert.ok(first.ledger.slot - 300_000_000n > 150n), 20_000, 100);
        for (let i = 0; i < 5; i++) first.simulator.swapNow(pool, i % 2 === 0, 7_000_000n);
      },
      async (second, s) => {
        const reloaded = await reloadedOnce(s.base);
        assert.ok(Number(reloaded.body.slot) < 300_000_000 + 150, `follows the new chain (slot ${String(reloaded.body.slot)})`);
        // The state is the new chain's (the first chain's trades are gone), and new trades show.
        const before = reserves(s, pool);
        second.simulator.swapNow(pool, true, 2_000_000n);
        await eventually(() => assert.notDeepEqual(reserves(s, pool), before), 3000, 20);
        await assertMatchesChain(s);
      },
    );
  });

  test('another cluster on the same endpoints (new genesis hash, close slots): reloaded, its state followed exactly', async () => {
    await acrossChains(
      // Its slots start just below the first chain's, well within the regression bound: only the genesis hash tells.
      (first) => ({ seed: 'another-cluster', startSlot: first.ledger.slot - 10n }),
      async (first) => {
        assert.ok(first.ledger.slot > 300_000_000n, `first chain at ${first.ledger.slot}`);
      },
      async (second, s) => {
        await reloadedOnce(s.base);
        const { pool, token } = soleUsdcPool(second);
        const p = await eventually(async () => {
          const r = await price(s.base, token);
          assert.equal(r.status, 200);
          return r.body;
        }, 5000);
        assert.equal(p.bestBidPool, pool, 'priced from the new cluster');
        // Pools the other cluster lacks are retired (compareWithChain counts a tradable absent pool as a mismatch);
        // the rest equal the other cluster's accounts.
        await assertMatchesChain(s);
      },
    );
  });
});
