/**
 * Points end to end on the real service: requests of a key are counted, flushed to the store, reconciled into an
 * `api_usage` event with the spec's meta, and shown by GET /v1/points/me. Reconciliation is driven with a clock
 * past the window's end (the service reconciles every 5 minutes on its own).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { reconcileOnce } from '../engine/points/reconciler.js';
import { startServiceUnderTest, type ServiceUnderTest } from './testing/service-under-test.js';

let sut: ServiceUnderTest;
before(async () => {
  sut = await startServiceUnderTest({ RATE_WINDOW_MS: '60000' });
});
after(async () => sut?.stop());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies are probed field by field
type Json = any;

async function points(key: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${sut.base}/v1/points/me`, { headers: { 'x-api-key': key } });
  return { status: res.status, body: await res.json() };
}

test('signup credit at creation; usage becomes one api_usage event with the spec meta', async () => {
  const { key, id } = await sut.svc.keys.create({ tier: 'free' });
  const first = await points(key);
  assert.equal(first.status, 200);
  assert.equal(first.body.apiKeyId, id);
  assert.equal(first.body.tier, 'free');
  assert.deepEqual(first.body.breakdown, { apiUsage: 0, signup: 100, referral: 0, wallet: 0 });
  assert.equal(first.body.totalPoints, 100);
  assert.equal(typeof first.body.referral.code, 'string');
  assert.equal(first.body.referral.referrerApiKeyId, null);

  // 10 successful price requests and 3 refused swap builds (free: 10 per minute, 13 sent).
  for (let i = 0; i < 10; i++) assert.equal((await fetch(`${sut.base}/v1/price/SOL`, { headers: { 'x-api-key': key } })).status, 200);
  const statuses: number[] = [];
  for (let i = 0; i < 13; i++) statuses.push((await fetch(`${sut.base}/v1/swap/build`, { method: 'POST', headers: { 'x-api-key': key }, body: '{}' })).status);
  assert.equal(statuses.filter((s) => s === 429).length, 3);
  await sut.svc.flushUsage();
  const r = await reconcileOnce(sut.svc.store, Date.now() + 7 * 60_000);
  assert.ok(r.events >= 1);
  const again = await reconcileOnce(sut.svc.store, Date.now() + 7 * 60_000);
  assert.equal(again.events, 0, 'reconciling again adds nothing');

  const after = await points(key);
  const usage = after.body.recentEvents.filter((e: Json) => e.kind === 'api_usage');
  assert.equal(usage.length >= 1, true);
  const total = usage.reduce((a: number, e: Json) => a + e.points, 0);
  const sum = (f: string): number => usage.reduce((a: number, e: Json) => a + e.meta[f], 0);
  // The points/me requests themselves are metered too (2 so far, both 2xx), the 501s are neither.
  assert.equal(sum('apiSuccessful'), 10 + 1);
  assert.equal(sum('rateLimited'), 3);
  assert.equal(sum('rpcSuccessful'), 0);
  assert.equal(total, 11 - 3 * 2, 'free tier: multiplier 1');
  for (const e of usage) {
    assert.deepEqual(Object.keys(e.meta).sort(), ['apiSuccessful', 'capped', 'dailyCap', 'multiplier', 'phase', 'rateLimited', 'rawDelta', 'rpcSuccessful', 'tier', 'windowEnd', 'windowStart']);
    assert.equal(e.meta.tier, 'free');
    assert.equal(e.meta.phase, 'beta');
    assert.match(e.sourceId, /^usage:/);
  }
  assert.equal(after.body.breakdown.apiUsage, total);
  assert.equal(after.body.totalPoints, Math.max(0, 100 + total));
  assert.ok(after.body.recentEvents.length <= 25);
  const times = after.body.recentEvents.map((e: Json) => Date.parse(e.createdAt));
  assert.deepEqual(times, [...times].sort((a, b) => b - a), 'newest first');
});

test('internal keys have no points record: 404 NOT_FOUND', async () => {
  const { key } = await sut.svc.keys.create({ tier: 'internal' });
  const r = await points(key);
  assert.equal(r.status, 404);
  assert.equal(r.body.code, 'NOT_FOUND');
});
