import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { newKey } from '../store/testing/contract-suite.js';
import { openStore } from '../store/open.js';
import type { Store } from '../store/types.js';
import { creditReferral, creditSignup, pointsView, RECENT_EVENTS } from './ledger.js';

let store: Store;
before(async () => {
  store = await openStore({ dataDir: 'memory://' });
});
after(() => store.close());

test('creditSignup: +100 once for a points tier, nothing for internal', async () => {
  for (const tier of ['free', 'starter', 'growth', 'pro'] as const) {
    const k = await store.keys.create(newKey({ tier }));
    assert.equal(await creditSignup(store, k), true);
    assert.equal(await creditSignup(store, k), false);
    assert.equal((await store.points.breakdown(k.id)).signup, 100);
    const [e] = await store.points.recent(k.id, 1);
    assert.deepEqual([e!.sourceId, e!.meta], ['signup', { tier }]);
  }
  const internal = await store.keys.create(newKey({ tier: 'internal' }));
  assert.equal(await creditSignup(store, internal), false);
  assert.equal(await store.points.hasRecord(internal.id), false);
});

test('creditReferral: +250 to an active points-tier referrer per new key, once', async () => {
  const ref = await store.keys.create(newKey({ tier: 'free' }));
  const a = await store.keys.create(newKey({ referrerId: ref.id }));
  const b = await store.keys.create(newKey({ referrerId: ref.id }));
  assert.equal(await creditReferral(store, ref.id, a.id), true);
  assert.equal(await creditReferral(store, ref.id, a.id), false);
  assert.equal(await creditReferral(store, ref.id, b.id), true);
  assert.equal((await store.points.breakdown(ref.id)).referral, 500);
  assert.deepEqual((await store.points.recent(ref.id, 5)).map((e) => e.sourceId).sort(), [`referral:${a.id}`, `referral:${b.id}`]);

  const internal = await store.keys.create(newKey({ tier: 'internal' }));
  const revoked = await store.keys.create(newKey({ tier: 'pro' }));
  await store.keys.revoke(revoked.id);
  assert.equal(await creditReferral(store, internal.id, a.id), false);
  assert.equal(await creditReferral(store, revoked.id, a.id), false);
  assert.equal(await creditReferral(store, 1_999_999_999, a.id), false);
});

test('credits commit with the key in one transaction', async () => {
  const ref = await store.keys.create(newKey({ tier: 'growth' }));
  const nk = newKey({ referrerId: ref.id });
  await assert.rejects(
    store.transaction(async (tx) => {
      const k = await tx.keys.create(nk);
      await creditSignup(tx, k);
      await creditReferral(tx, ref.id, k.id);
      throw new Error('abort');
    }),
    /abort/,
  );
  assert.equal(await store.points.hasRecord(ref.id), false);
  assert.equal(await store.keys.findByHash(nk.keyHash), null);
});

test('pointsView: null without a key or without events; the full view otherwise', async () => {
  assert.equal(await pointsView(store, 1_999_999_999), null);
  const quiet = await store.keys.create(newKey({ tier: 'internal' }));
  assert.equal(await pointsView(store, quiet.id), null);

  const ref = await store.keys.create(newKey({ tier: 'free' }));
  const k = await store.keys.create(newKey({ tier: 'pro', referrerId: ref.id }));
  await creditSignup(store, k);
  const child = await store.keys.create(newKey({ referrerId: k.id }));
  await creditReferral(store, k.id, child.id);
  const t = (m: number) => new Date(Date.UTC(2024, 1, 1, 0, m));
  for (let i = 0; i < 30; i++) {
    await store.points.append({ apiKeyId: k.id, kind: 'api_usage', points: i % 3 === 0 ? -1 : 10, sourceId: `usage:${i}`, meta: { i }, createdAt: t(i) });
  }
  const v = await pointsView(store, k.id);
  assert.ok(v);
  assert.equal(v.apiKeyId, k.id);
  assert.equal(v.tier, 'pro');
  assert.deepEqual(v.breakdown, { apiUsage: 190, signup: 100, referral: 250, wallet: 0 });
  assert.equal(v.totalPoints, 540);
  assert.deepEqual(v.referral, { code: k.referralCode, referrerApiKeyId: ref.id, referralCount: 1 });
  assert.equal(v.recentEvents.length, RECENT_EVENTS);
  const times = v.recentEvents.map((e) => e.createdAt);
  assert.deepEqual(times, [...times].sort().reverse(), 'newest first');
  assert.equal(typeof v.recentEvents[0]!.createdAt, 'string');
  assert.ok(!Number.isNaN(Date.parse(v.recentEvents[0]!.createdAt)));
  assert.deepEqual(Object.keys(v.recentEvents[0]!).sort(), ['createdAt', 'id', 'kind', 'meta', 'points', 'sourceId']);
});

test('pointsView: totalPoints never goes below 0', async () => {
  const k = await store.keys.create(newKey({ tier: 'free' }));
  await creditSignup(store, k);
  await store.points.append({ apiKeyId: k.id, kind: 'api_usage', points: -500, sourceId: 'usage:x', meta: {} });
  const v = await pointsView(store, k.id);
  assert.equal(v!.breakdown.apiUsage, -500);
  assert.equal(v!.totalPoints, 0);
});
