/**
 * Reconciler tests, run unchanged on PGlite and PostgreSQL (`reconciler.pglite.test.ts`,
 * `reconciler.postgres.test.ts`). The tables are emptied before each test, because a run takes every pending window.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { openStore } from '../../store/open.js';
import type { TestDatabase } from '../../store/testing/test-database.js';
import type { Store, UsageDelta } from '../../store/types.js';
import { PointsReconciler, reconcileOnce, type ReconcileResult, type WindowOutcome } from '../reconciler.js';
import { WINDOW_MS } from '../scoring.js';
import { expectedLedger, pendingCount, seedPlan, seedStore, storedLedger } from './seed.js';

const W0 = Date.UTC(2024, 4, 1, 12, 0);
const iso = (ms: number) => new Date(ms).toISOString();

function usage(apiKeyId: number, startMs: number, apiSuccessful: number, rpcSuccessful = 0, rateLimited = 0): UsageDelta {
  return { apiKeyId, windowStart: new Date(startMs), apiSuccessful, rpcSuccessful, rateLimited, requests: apiSuccessful + rpcSuccessful + rateLimited };
}


let seq = 0;
const makeKey = (store: Store, tier: 'free' | 'starter' | 'growth' | 'pro' | 'internal') => {
  seq++;
  return store.keys.create({ keyHash: `rk-${seq}-${Date.now()}`, prefix: 'svc_r', tier, referralCode: `RK${seq}${Date.now()}` });
};

/** Registers the reconciler tests; `fresh` makes a new empty test database. */
export function runReconcilerSuite(label: string, fresh: () => TestDatabase): void {
  describe(`reconciler: ${label}`, () => {
    let db: TestDatabase;
    let shared: Store;
    before(async () => {
      db = fresh();
      shared = await openStore(db.options);
    });
    beforeEach(() => shared.sql.query('TRUNCATE usage_windows, points_events, api_keys RESTART IDENTITY CASCADE'));
    after(async () => {
      await shared?.close();
      await db?.drop();
    });
    const withStore = (fn: (store: Store, db: TestDatabase) => Promise<void>): Promise<void> => fn(shared, db);

    test('a closed window becomes one api_usage event stamped at the window end, with the exact meta', async () => {
      await withStore(async (store) => {
        const k = await makeKey(store, 'starter');
        await store.usage.addBatch([usage(k.id, W0, 10, 2, 1)]);
        const seen: WindowOutcome[] = [];
        const r = await reconcileOnce(store, W0 + WINDOW_MS + 60_000, { phase: 'test-phase', onWindowDone: (o) => seen.push(o) });
        assert.deepEqual(r, { reconciled: 1, events: 1, points: 22, skipped: 0 });
        assert.deepEqual(seen, [{ apiKeyId: k.id, windowStart: new Date(W0), status: 'scored', points: 22 }]);
        const [e] = await store.points.recent(k.id, 5);
        assert.equal(e!.kind, 'api_usage');
        assert.equal(e!.points, 22); // floor((10 + 10 - 2) × 1.25)
        assert.equal(e!.sourceId, `usage:${iso(W0)}`);
        assert.equal(e!.createdAt.getTime(), W0 + WINDOW_MS);
        assert.deepEqual(e!.meta, {
          tier: 'starter',
          rawDelta: 18,
          capped: false,
          dailyCap: 2000,
          multiplier: 1.25,
          phase: 'test-phase',
          apiSuccessful: 10,
          rpcSuccessful: 2,
          rateLimited: 1,
          windowStart: iso(W0),
          windowEnd: iso(W0 + WINDOW_MS),
        });
        assert.ok((await store.usage.get(k.id, new Date(W0)))!.reconciledAt instanceof Date);
      });
    });

    test('a window waits until its end is graceMs in the past', async () => {
      await withStore(async (store) => {
        const k = await makeKey(store, 'free');
        await store.usage.addBatch([usage(k.id, W0, 5)]);
        const end = W0 + WINDOW_MS;
        assert.equal((await reconcileOnce(store, end + 59_999)).reconciled, 0);
        assert.equal((await reconcileOnce(store, end + 10_000, { graceMs: 10_001 })).reconciled, 0);
        assert.equal((await reconcileOnce(store, end + 60_000)).events, 1);
      });
    });

    test('zero windows and windows of revoked, internal or unknown keys are reconciled without an event', async () => {
      await withStore(async (store) => {
        const zero = await makeKey(store, 'pro');
        const revoked = await makeKey(store, 'pro');
        const internal = await makeKey(store, 'internal');
        await store.keys.revoke(revoked.id);
        await store.usage.addBatch([
          { ...usage(zero.id, W0, 0), requests: 9 },
          usage(zero.id, W0 + WINDOW_MS, 4, 0, 2),
          usage(revoked.id, W0, 50),
          usage(internal.id, W0, 50),
          usage(1_999_999_999, W0, 50),
        ]);
        const r = await reconcileOnce(store, W0 + 10 * WINDOW_MS);
        assert.deepEqual(r, { reconciled: 5, events: 0, points: 0, skipped: 0 });
        assert.equal(await pendingCount(store), 0);
        assert.equal((await storedLedger(store)).count, 0);
      });
    });

    test('the multiplier and cap are those of the tier at reconciliation; negative windows are uncapped', async () => {
      await withStore(async (store) => {
        const k = await makeKey(store, 'free');
        await store.usage.addBatch([
          usage(k.id, W0, 3000),
          usage(k.id, W0 + WINDOW_MS, 0, 0, 4000),
          usage(k.id, W0 + 2 * WINDOW_MS, 6000),
          usage(k.id, W0 + 3 * WINDOW_MS, 10),
        ]);
        await store.keys.setTier(k.id, 'pro');
        await reconcileOnce(store, W0 + 10 * WINDOW_MS);
        const events = (await store.points.recent(k.id, 10)).reverse();
        assert.deepEqual(events.map((e) => e.points), [6000, -8000, 12000, 0]);
        assert.deepEqual(events.map((e) => e.meta['capped']), [false, false, false, true]);
        assert.equal(events[0]!.meta['tier'], 'pro');
        // The penalty made room under the cap: the day's net is exactly the cap.
        assert.equal(await store.points.sumBetween(k.id, 'api_usage', new Date(W0), new Date(W0 + 86_400_000)), 10000);
      });
    });

    test('running twice gives one event per window and the scoring rules total', async () => {
      await withStore(async (store) => {
        const plan = seedPlan(140, 11);
        const ids = await seedStore(store, plan, 'twice');
        const first = await reconcileOnce(store, Date.now(), { batchSize: 25 });
        const second = await reconcileOnce(store, Date.now());
        assert.equal(first.reconciled, plan.windows.length);
        assert.deepEqual(second, { reconciled: 0, events: 0, points: 0, skipped: 0 });
        const expected = expectedLedger(plan, ids);
        const stored = await storedLedger(store);
        assert.equal(first.events, expected.byWindow.size);
        assert.equal(first.points, expected.total);
        assert.deepEqual(stored.byWindow, expected.byWindow);
      });
    });

    test('two reconcilers at once give one event per window, scored in order', async (t) => {
      await withStore(async (store, db) => {
        const plan = seedPlan(210, 5);
        const ids = await seedStore(store, plan, 'race');
        // PostgreSQL: a second instance (own pool). PGlite: one directory per process, so two runs on one store.
        const other = db.multiOpen ? await openStore(db.options) : store;
        let results: ReconcileResult[];
        try {
          results = await Promise.all([reconcileOnce(store, Date.now(), { batchSize: 30 }), reconcileOnce(other, Date.now(), { batchSize: 30 })]);
        } finally {
          if (other !== store) await other.close();
        }
        t.diagnostic(`runs: ${JSON.stringify(results)}`);
        const expected = expectedLedger(plan, ids);
        const stored = await storedLedger(store);
        assert.deepEqual(stored.byWindow, expected.byWindow);
        assert.equal(results[0]!.reconciled + results[1]!.reconciled, plan.windows.length);
        assert.equal(results[0]!.events + results[1]!.events, expected.byWindow.size);
        assert.equal(results[0]!.points + results[1]!.points, expected.total);
        assert.equal(await pendingCount(store), 0);
      });
    });

    test('usage flushed after its window was reconciled is counted but not scored again', async () => {
      await withStore(async (store) => {
        const k = await makeKey(store, 'growth');
        await store.usage.addBatch([usage(k.id, W0, 10)]);
        await reconcileOnce(store, W0 + 10 * WINDOW_MS);
        await store.usage.addBatch([usage(k.id, W0, 10)]);
        assert.deepEqual(await reconcileOnce(store, W0 + 10 * WINDOW_MS), { reconciled: 0, events: 0, points: 0, skipped: 0 });
        assert.equal((await store.usage.get(k.id, new Date(W0)))!.apiSuccessful, 20);
        assert.deepEqual(await store.points.breakdown(k.id), { apiUsage: 15, signup: 0, referral: 0, wallet: 0 });
      });
    });

    test('PointsReconciler runs at start and on its interval, reports each window, stops cleanly', async () => {
      await withStore(async (store) => {
        const k = await makeKey(store, 'pro');
        await store.usage.addBatch([usage(k.id, W0, 1)]);
        const windows: WindowOutcome[] = [];
        const runs: ReconcileResult[] = [];
        let clock = W0 + 10 * WINDOW_MS;
        const r = new PointsReconciler(store, { now: () => clock, onWindowDone: (o) => windows.push(o), onRun: (x) => runs.push(x) });
        r.start(20);
        while (runs.length < 1) await new Promise((res) => setTimeout(res, 5));
        await store.usage.addBatch([usage(k.id, W0 + 20 * WINDOW_MS, 2)]);
        clock = W0 + 30 * WINDOW_MS;
        while (windows.length < 2) await new Promise((res) => setTimeout(res, 5));
        await r.stop();
        assert.deepEqual(windows.map((w) => w.points), [2, 4]);
        assert.equal(await pendingCount(store), 0);
        assert.deepEqual(await r.runOnce(), { reconciled: 0, events: 0, points: 0, skipped: 0 });
      });
    });
  });
}
