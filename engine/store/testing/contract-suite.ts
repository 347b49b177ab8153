/**
 * The store contract as one test suite, run unchanged on every driver (`store.pglite.test.ts`,
 * `store.postgres.test.ts`): same SQL, same results, same JS types. Tests share one database, so each makes its
 * own keys and filters by them; only the pending-window test uses dates before 2000.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { isEngineError } from '../../errors.js';
import { KEY_TIERS, type Tier } from '../../tiers/tier.js';
import { MIGRATIONS } from '../migrations/index.js';
import type { ApiKeyRecord, NewApiKey, Repos, Store, UsageDelta } from '../types.js';

/** A new key with a random hash and referral code. */
export function newKey(over: Partial<NewApiKey> = {}): NewApiKey {
  const id = randomUUID().replaceAll('-', '');
  return { keyHash: `h${id}`, prefix: `svc_${id.slice(0, 4)}`, tier: 'free', referralCode: `R${id.slice(0, 12)}`, ...over };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function delta(apiKeyId: number, iso: string, n: Partial<UsageDelta> = {}): UsageDelta {
  return { apiKeyId, windowStart: new Date(iso), apiSuccessful: 0, rpcSuccessful: 0, rateLimited: 0, requests: 0, ...n };
}

/**
 * Registers the contract tests. `openFresh` opens a store on this suite's database (fresh for the suite; each call
 * is a new connection to the same database, so opening twice checks that migrations are idempotent).
 */
export function runStoreContract(label: string, openFresh: () => Promise<Store>): void {
  describe(`store contract: ${label}`, () => {
    let store: Store;
    const key = (over: Partial<NewApiKey> = {}): Promise<ApiKeyRecord> => store.keys.create(newKey(over));

    before(async () => {
      // Opened twice, one after the other: the second open must find every migration applied and change nothing.
      const first = await openFresh();
      const rows1 = await first.sql.query<{ id: number; name: string }>('SELECT id, name FROM schema_migrations ORDER BY id');
      await first.close();
      store = await openFresh();
      const rows2 = await store.sql.query<{ id: number; name: string; applied_at: Date }>(
        'SELECT id, name, applied_at FROM schema_migrations ORDER BY id',
      );
      assert.deepEqual(rows1, rows2.map(({ id, name }) => ({ id, name })));
      assert.deepEqual(rows2.map((r) => r.id), MIGRATIONS.map((m) => m.id));
      assert.ok(rows2[0]!.applied_at instanceof Date);
    });
    after(async () => {
      await store?.close();
    });

    test('migrations: opening twice applies each migration once', async () => {
      const n = await store.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
      assert.equal(n[0]!.n, MIGRATIONS.length);
    });

    test('driver: both drivers return the same JS types (int8 and numeric as strings, as the contract says)', async () => {
      const [r] = await store.sql.query<Record<string, unknown>>(
        `SELECT 1::int4 AS i4, 9007199254740993::int8 AS i8, 2.5::float8 AS f8, 1.10::numeric AS num, true AS b, 'x'::text AS t,
                now() AS ts, '{"a":[1,{"b":null}]}'::jsonb AS j, NULL::text AS n, ARRAY[1,2]::int[] AS arr`,
      );
      assert.deepEqual({ ...r, ts: r!['ts'] instanceof Date }, {
        i4: 1,
        i8: '9007199254740993',
        f8: 2.5,
        num: '1.10',
        b: true,
        t: 'x',
        ts: true,
        j: { a: [1, { b: null }] },
        n: null,
        arr: [1, 2],
      });
      const [p] = await store.sql.query<{ d: Date; arr: number[] }>('SELECT $1::timestamptz AS d, $2::int[] AS arr', [new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678)), [3, 4]]);
      assert.equal(p!.d.toISOString(), '2024-01-02T03:04:05.678Z');
      assert.deepEqual(p!.arr, [3, 4]);
    });

    test('keys: create returns the stored row with JS types', async () => {
      const nk = newKey({ tier: 'starter', label: 'ci' });
      const k = await store.keys.create(nk);
      assert.equal(typeof k.id, 'number');
      assert.equal(k.keyHash, nk.keyHash);
      assert.equal(k.prefix, nk.prefix);
      assert.equal(k.tier, 'starter');
      assert.equal(k.label, 'ci');
      assert.equal(k.referralCode, nk.referralCode);
      assert.equal(k.referrerId, null);
      assert.ok(k.createdAt instanceof Date && k.updatedAt instanceof Date);
      assert.equal(k.revokedAt, null);
      const unlabelled = await key();
      assert.equal(unlabelled.label, null);
    });

    test('keys: every key tier is accepted; anonymous and unknown tiers are refused (code and CHECK)', async () => {
      for (const tier of KEY_TIERS) assert.equal((await key({ tier })).tier, tier);
      await assert.rejects(key({ tier: 'anonymous' }), (e) => isEngineError(e, 'BAD_TIER'));
      await assert.rejects(
        store.sql.query("INSERT INTO api_keys (key_hash, prefix, tier, referral_code) VALUES ($1, 'p', 'anonymous', $2)", [
          randomUUID(),
          randomUUID(),
        ]),
        (e) => (e as { code?: string }).code === '23514',
      );
    });

    test('keys: a duplicate hash or referral code is rejected', async () => {
      const a = await key();
      await assert.rejects(key({ keyHash: a.keyHash }), (e) => isEngineError(e, 'STORE_DUPLICATE_KEY'));
      await assert.rejects(key({ referralCode: a.referralCode }), (e) => isEngineError(e, 'STORE_DUPLICATE_KEY'));
      await assert.rejects(key({ referrerId: 2_000_000_000 }), (e) => (e as { code?: string }).code === '23503');
    });

    test('keys: upsertByHash inserts a new hash, else resets the tier and clears the revocation', async () => {
      const nk = newKey({ tier: 'free', label: 'first' });
      const created = await store.keys.upsertByHash(nk);
      assert.equal(created.tier, 'free');
      await store.keys.revoke(created.id);
      const again = await store.keys.upsertByHash({ ...nk, tier: 'pro', label: 'second', referralCode: 'IGNORED' + randomUUID() });
      assert.equal(again.id, created.id);
      assert.equal(again.tier, 'pro');
      assert.equal(again.revokedAt, null);
      assert.equal(again.label, 'first');
      assert.equal(again.referralCode, nk.referralCode);
    });

    test('keys: find by id, hash and referral code', async () => {
      const k = await key();
      assert.deepEqual(await store.keys.findById(k.id), k);
      assert.deepEqual(await store.keys.findByHash(k.keyHash), k);
      assert.deepEqual(await store.keys.findByReferralCode(k.referralCode), k);
      assert.equal(await store.keys.findById(1_999_999_999), null);
      assert.equal(await store.keys.findByHash('nope'), null);
      assert.equal(await store.keys.findByReferralCode('nope'), null);
    });

    test('keys: list by id, revoked only when asked', async () => {
      const a = await key();
      const b = await key();
      await store.keys.revoke(b.id);
      const live = await store.keys.list();
      const all = await store.keys.list({ includeRevoked: true });
      assert.ok(live.some((k) => k.id === a.id));
      assert.ok(!live.some((k) => k.id === b.id));
      assert.ok(all.some((k) => k.id === b.id && k.revokedAt instanceof Date));
      assert.deepEqual(all.map((k) => k.id), [...all.map((k) => k.id)].sort((x, y) => x - y));
    });

    test('keys: revoke is idempotent, setTier changes the tier; both null for an unknown key', async () => {
      const k = await key();
      const r1 = await store.keys.revoke(k.id);
      assert.ok(r1?.revokedAt instanceof Date);
      const r2 = await store.keys.revoke(k.id);
      assert.equal(r2?.revokedAt?.getTime(), r1.revokedAt.getTime());
      assert.equal(await store.keys.revoke(1_999_999_999), null);
      const t = await store.keys.setTier(k.id, 'growth');
      assert.equal(t?.tier, 'growth');
      assert.ok(t!.updatedAt.getTime() >= k.updatedAt.getTime());
      assert.equal(await store.keys.setTier(1_999_999_999, 'pro'), null);
      await assert.rejects(store.keys.setTier(k.id, 'anonymous' as Tier), (e) => isEngineError(e, 'BAD_TIER'));
    });

    test('keys: changedSince(null) returns every key and the database clock; a later revoke shows up after it', async () => {
      const a = await key();
      const b = await key();
      const all = await store.keys.changedSince(null);
      assert.ok(all.now instanceof Date);
      const ids = all.rows.map((r) => r.id);
      assert.ok(ids.includes(a.id) && ids.includes(b.id));
      assert.equal(all.rows.length, (await store.keys.list({ includeRevoked: true })).length);
      await sleep(5);
      await store.keys.revoke(b.id);
      const next = await store.keys.changedSince(all.now);
      const changed = next.rows.find((r) => r.id === b.id);
      assert.ok(changed?.revokedAt instanceof Date, 'the revocation is seen by the next poll');
      assert.ok(!next.rows.some((r) => r.id === a.id), 'an unchanged key is not returned again');
      assert.ok(next.now.getTime() >= all.now.getTime());
      const tierChange = await store.keys.setTier(a.id, 'pro');
      const third = await store.keys.changedSince(next.now);
      assert.ok(third.rows.some((r) => r.id === a.id && r.tier === 'pro'));
      assert.ok(tierChange!.updatedAt.getTime() >= next.now.getTime());
    });

    test('keys: changedSince on an empty result still reads the clock', async () => {
      const r = await store.keys.changedSince(new Date(Date.now() + 3_600_000));
      assert.deepEqual(r.rows, []);
      assert.ok(r.now instanceof Date);
    });

    test('keys: referralCount counts keys created with the code', async () => {
      const ref = await key();
      assert.equal(await store.keys.referralCount(ref.id), 0);
      const c1 = await key({ referrerId: ref.id });
      await key({ referrerId: ref.id });
      assert.equal(c1.referrerId, ref.id);
      assert.equal(await store.keys.referralCount(ref.id), 2);
    });

    test('points: append is idempotent per (key, kind, sourceId)', async () => {
      const k = await key();
      const e = { apiKeyId: k.id, kind: 'signup' as const, points: 100, sourceId: 'signup', meta: { tier: 'free' } };
      const first = await store.points.append(e);
      assert.equal(first.inserted, true);
      assert.equal(typeof first.id, 'number');
      assert.deepEqual(await store.points.append({ ...e, points: 999 }), { inserted: false, id: null });
      assert.equal((await store.points.append({ ...e, kind: 'referral' })).inserted, true);
      await assert.rejects(store.points.append({ ...e, sourceId: 'x', points: 1.5 }), (err) => isEngineError(err, 'BAD_POINTS'));
      assert.deepEqual(await store.points.breakdown(k.id), { apiUsage: 0, signup: 100, referral: 100, wallet: 0 });
    });

    test('points: breakdown sums per kind, negative api_usage included; zero without events', async () => {
      const k = await key();
      assert.deepEqual(await store.points.breakdown(k.id), { apiUsage: 0, signup: 0, referral: 0, wallet: 0 });
      const add = (kind: 'api_usage' | 'signup' | 'referral', points: number, sourceId: string) =>
        store.points.append({ apiKeyId: k.id, kind, points, sourceId, meta: {} });
      await add('api_usage', 40, 'u1');
      await add('api_usage', -15, 'u2');
      await add('api_usage', 3_000_000_000, 'u3');
      await add('signup', 100, 'signup');
      await add('referral', 250, 'referral:1');
      await add('referral', 250, 'referral:2');
      const b = await store.points.breakdown(k.id);
      assert.deepEqual(b, { apiUsage: 3_000_000_025, signup: 100, referral: 500, wallet: 0 });
      assert.equal(typeof b.apiUsage, 'number');
    });

    test('points: recent is newest first (created_at, then id), limited; meta and dates round-trip', async () => {
      const k = await key();
      const t = (m: number) => new Date(Date.UTC(2024, 0, 1, 0, m));
      await store.points.append({ apiKeyId: k.id, kind: 'api_usage', points: 1, sourceId: 'a', meta: { n: 1, s: 'x', nested: { ok: true } }, createdAt: t(5) });
      await store.points.append({ apiKeyId: k.id, kind: 'api_usage', points: 2, sourceId: 'b', meta: {}, createdAt: t(10) });
      await store.points.append({ apiKeyId: k.id, kind: 'api_usage', points: 3, sourceId: 'c', meta: {}, createdAt: t(10) });
      await store.points.append({ apiKeyId: k.id, kind: 'signup', points: 4, sourceId: 'signup', meta: {}, createdAt: t(1) });
      const all = await store.points.recent(k.id, 25);
      assert.deepEqual(all.map((e) => e.sourceId), ['c', 'b', 'a', 'signup']);
      assert.deepEqual(all[2]!.meta, { n: 1, s: 'x', nested: { ok: true } });
      assert.ok(all[0]!.createdAt instanceof Date);
      assert.equal(all[0]!.createdAt.getTime(), t(10).getTime());
      assert.equal(typeof all[0]!.id, 'number');
      assert.equal(all[0]!.points, 3);
      assert.equal(all[0]!.apiKeyId, k.id);
      assert.equal(all[0]!.kind, 'api_usage');
      assert.deepEqual((await store.points.recent(k.id, 2)).map((e) => e.sourceId), ['c', 'b']);
    });

    test('points: hasRecord and sumBetween [from, to) of one kind', async () => {
      const k = await key();
      assert.equal(await store.points.hasRecord(k.id), false);
      const at = (h: number) => new Date(Date.UTC(2024, 5, 1, h));
      for (const [h, p] of [[0, 10], [1, 20], [2, -5], [3, 40]] as const) {
        await store.points.append({ apiKeyId: k.id, kind: 'api_usage', points: p, sourceId: `u${h}`, meta: {}, createdAt: at(h) });
      }
      await store.points.append({ apiKeyId: k.id, kind: 'signup', points: 100, sourceId: 'signup', meta: {}, createdAt: at(1) });
      assert.equal(await store.points.hasRecord(k.id), true);
      assert.equal(await store.points.sumBetween(k.id, 'api_usage', at(0), at(3)), 25);
      assert.equal(await store.points.sumBetween(k.id, 'api_usage', at(1), at(4)), 55);
      assert.equal(await store.points.sumBetween(k.id, 'signup', at(0), at(4)), 100);
      assert.equal(await store.points.sumBetween(k.id, 'referral', at(0), at(4)), 0);
    });

    test('usage: addBatch adds onto existing rows, many keys and windows in one batch', async () => {
      const a = await key();
      const b = await key();
      const w1 = '2024-02-01T10:00:00.000Z';
      const w2 = '2024-02-01T10:05:00.000Z';
      const batch = [
        delta(a.id, w1, { apiSuccessful: 3, rpcSuccessful: 1, rateLimited: 2, requests: 7 }),
        delta(a.id, w2, { apiSuccessful: 1, requests: 1 }),
        delta(b.id, w1, { apiSuccessful: 10, requests: 12 }),
        delta(a.id, w1, { apiSuccessful: 1, requests: 1 }),
      ];
      await store.usage.addBatch(batch);
      const got = await store.usage.get(a.id, new Date(w1));
      assert.deepEqual(got, {
        apiKeyId: a.id,
        windowStart: new Date(w1),
        apiSuccessful: 4,
        rpcSuccessful: 1,
        rateLimited: 2,
        requests: 8,
        reconciledAt: null,
      });
      await store.usage.addBatch(batch);
      assert.equal((await store.usage.get(a.id, new Date(w1)))!.apiSuccessful, 8);
      assert.equal((await store.usage.get(a.id, new Date(w1)))!.requests, 16);
      assert.equal((await store.usage.get(a.id, new Date(w2)))!.apiSuccessful, 2);
      assert.equal((await store.usage.get(b.id, new Date(w1)))!.requests, 24);
      await store.usage.addBatch([]);
      assert.equal(await store.usage.get(b.id, new Date(w2)), null);
    });

    test('usage: a batch of 2000 rows is one statement', async () => {
      const k = await key();
      const base = Date.UTC(2023, 0, 1);
      const deltas = Array.from({ length: 2000 }, (_, i) => delta(k.id, new Date(base + i * 300_000).toISOString(), { requests: 1 }));
      await store.usage.addBatch(deltas);
      const n = await store.sql.query<{ n: number; s: number }>(
        'SELECT count(*)::int AS n, sum(requests)::int AS s FROM usage_windows WHERE api_key_id = $1',
        [k.id],
      );
      assert.deepEqual(n[0], { n: 2000, s: 2000 });
    });

    test('usage: pending is unreconciled windows before a time, oldest first, limited; markReconciled', async () => {
      const a = await key();
      const b = await key();
      const at = (m: number) => new Date(Date.UTC(1990, 0, 1, 0, m)).toISOString();
      await store.usage.addBatch([
        delta(b.id, at(5), { requests: 1 }),
        delta(a.id, at(10), { requests: 1 }),
        delta(a.id, at(5), { requests: 1 }),
        delta(a.id, at(0), { requests: 1 }),
        delta(a.id, at(15), { requests: 1 }),
      ]);
      const mine = (ws: { apiKeyId: number; windowStart: Date }[]) => ws.map((w) => `${w.apiKeyId === a.id ? 'a' : 'b'}@${w.windowStart.toISOString().slice(11, 16)}`);
      const before = new Date(at(15));
      assert.deepEqual(mine(await store.usage.pending(before, 100)), ['a@00:00', 'a@00:05', 'b@00:05', 'a@00:10']);
      assert.deepEqual(mine(await store.usage.pending(before, 2)), ['a@00:00', 'a@00:05']);
      await store.usage.markReconciled(a.id, new Date(at(5)));
      const w = await store.usage.get(a.id, new Date(at(5)));
      assert.ok(w?.reconciledAt instanceof Date);
      await store.usage.markReconciled(a.id, new Date(at(5)));
      assert.equal((await store.usage.get(a.id, new Date(at(5))))!.reconciledAt!.getTime(), w.reconciledAt.getTime());
      assert.deepEqual(mine(await store.usage.pending(before, 100)), ['a@00:00', 'b@00:05', 'a@00:10']);
    });

    test('prices: upsert merges a minute written twice (first open, widest range, latest close); since and deleteBefore', async () => {
      const mint = `M${randomUUID().replaceAll('-', '')}`;
      const other = `${mint}x`;
      const m0 = 1_700_000_040_000 - (1_700_000_040_000 % 60_000);
      await store.prices.upsert([
        { mint, minuteMs: m0, open: 10, high: 12, low: 9, close: 11, samples: 4 },
        { mint, minuteMs: m0 + 60_000, open: 11, high: 11.5, low: 10.5, close: 11.25, samples: 2 },
        { mint: other, minuteMs: m0, open: 1, high: 1, low: 1, close: 1, samples: 1 },
        // The same minute twice in one batch: merged before the statement (one INSERT cannot touch a row twice).
        { mint, minuteMs: m0 + 60_000, open: 99, high: 13, low: 10.75, close: 12, samples: 1 },
      ]);
      await store.prices.upsert([{ mint, minuteMs: m0, open: 50, high: 20, low: 8.5, close: 10.5, samples: 3 }]);
      const mine = (await store.prices.since(m0)).filter((b) => b.mint === mint);
      assert.deepEqual(mine, [
        { mint, minuteMs: m0, open: 10, high: 20, low: 8.5, close: 10.5, samples: 7 },
        { mint, minuteMs: m0 + 60_000, open: 11, high: 13, low: 10.5, close: 12, samples: 3 },
      ]);
      assert.equal(typeof mine[0]!.minuteMs, 'number');
      assert.deepEqual((await store.prices.since(m0 + 60_000)).filter((b) => b.mint === mint || b.mint === other).map((b) => b.minuteMs), [m0 + 60_000]);
      assert.deepEqual((await store.prices.range(mint, m0, m0 + 60_000)).map((b) => [b.mint, b.minuteMs]), [[mint, m0]]);
      assert.deepEqual((await store.prices.range(other, m0, m0 + 120_000)).map((b) => b.minuteMs), [m0]);
      await assert.rejects(store.prices.upsert([{ mint, minuteMs: m0 + 1, open: 1, high: 1, low: 1, close: 1, samples: 1 }]), 'a bar off the minute is refused');
      assert.ok((await store.prices.deleteBefore(m0 + 60_000)) >= 2);
      assert.deepEqual((await store.prices.since(0)).filter((b) => b.mint === mint || b.mint === other).map((b) => b.minuteMs), [m0 + 60_000]);
    });

    test('transaction: commits when the callback resolves, rolls back everything when it throws', async () => {
      const kept = newKey();
      const out = await store.transaction(async (tx) => {
        const k = await tx.keys.create(kept);
        await tx.points.append({ apiKeyId: k.id, kind: 'signup', points: 100, sourceId: 'signup', meta: {} });
        return k.id;
      });
      assert.equal((await store.keys.findById(out))?.keyHash, kept.keyHash);
      assert.equal(await store.points.hasRecord(out), true);

      const lost = newKey();
      let lostId = 0;
      await assert.rejects(
        store.transaction(async (tx) => {
          const k = await tx.keys.create(lost);
          lostId = k.id;
          await tx.points.append({ apiKeyId: k.id, kind: 'signup', points: 100, sourceId: 'signup', meta: {} });
          await tx.usage.addBatch([delta(k.id, '2024-03-01T00:00:00Z', { requests: 1 })]);
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.equal(await store.keys.findByHash(lost.keyHash), null);
      assert.equal(await store.points.hasRecord(lostId), false);
      assert.equal(await store.usage.get(lostId, new Date('2024-03-01T00:00:00Z')), null);
    });

    test('transaction: a failed statement inside aborts the whole transaction', async () => {
      const a = await key();
      const fresh = newKey();
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.keys.create(fresh);
          await tx.keys.create({ ...newKey(), keyHash: a.keyHash });
        }),
        (e) => isEngineError(e, 'STORE_DUPLICATE_KEY'),
      );
      assert.equal(await store.keys.findByHash(fresh.keyHash), null);
    });

    test('transaction: nested transaction is a savepoint', async () => {
      const outer = newKey();
      const inner = newKey();
      await store.sql.transaction(async (tx) => {
        await tx.query('INSERT INTO api_keys (key_hash, prefix, tier, referral_code) VALUES ($1, $2, $3, $4)', [outer.keyHash, 'p', 'free', outer.referralCode]);
        await assert.rejects(
          tx.transaction(async (sp) => {
            await sp.query('INSERT INTO api_keys (key_hash, prefix, tier, referral_code) VALUES ($1, $2, $3, $4)', [inner.keyHash, 'p', 'free', inner.referralCode]);
            throw new Error('inner');
          }),
          /inner/,
        );
      });
      assert.ok(await store.keys.findByHash(outer.keyHash));
      assert.equal(await store.keys.findByHash(inner.keyHash), null);
    });

    test('transaction: using the store itself inside a transaction throws; a leaked tx client throws after', async () => {
      const leaked: { tx?: Repos } = {};
      await store.transaction(async (tx) => {
        leaked.tx = tx;
        await assert.rejects(store.keys.findById(1), (e) => isEngineError(e, 'STORE_OUTSIDE_TX'));
        await assert.rejects(store.transaction(async () => 1), (e) => isEngineError(e, 'STORE_OUTSIDE_TX'));
      });
      await assert.rejects(leaked.tx!.keys.findById(1), (e) => isEngineError(e, 'STORE_TX_CLOSED'));
      assert.equal(typeof (await store.keys.findById(1)), 'object');
    });

    test('transaction: a statement on the store while a transaction runs never sees it half done', async () => {
      const a = newKey();
      const b = newKey();
      let inside!: () => void;
      const started = new Promise<void>((r) => (inside = r));
      const tx = store.transaction(async (t) => {
        await t.keys.create(a);
        inside();
        await sleep(150);
        await t.keys.create(b);
      });
      await started;
      const seen = await store.sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM api_keys WHERE key_hash = $1 OR key_hash = $2',
        [a.keyHash, b.keyHash],
      );
      await tx;
      // PGlite: the query waited for the commit (2). PostgreSQL: it ran beside the transaction and saw nothing (0).
      assert.equal(seen[0]!.n, store.driver === 'pglite' ? 2 : 0);
    });
  });
}
