import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  isPointsTier,
  rawDelta,
  scoreWindow,
  TIER_SCORING,
  usageDayRange,
  utcDayStartOf,
  WINDOW_MS,
  windowStartOf,
  type PointsTier,
  type ScoreInput,
} from './scoring.js';

const DAY = Date.UTC(2024, 6, 4);
const base = (over: Partial<ScoreInput> = {}): ScoreInput => ({
  tier: 'free',
  apiSuccessful: 0,
  rpcSuccessful: 0,
  rateLimited: 0,
  windowStartMs: DAY,
  earnedToday: 0,
  ...over,
});

/** Scores one key's windows in order, carrying the day's net like the reconciler does. */
function scoreDay(tier: PointsTier, windows: { at: number; api?: number; rpc?: number; rl?: number }[]): number[] {
  const earned = new Map<number, number>();
  return windows.map((w) => {
    const day = utcDayStartOf(w.at);
    const s = scoreWindow(base({ tier, windowStartMs: w.at, apiSuccessful: w.api ?? 0, rpcSuccessful: w.rpc ?? 0, rateLimited: w.rl ?? 0, earnedToday: earned.get(day) ?? 0 }));
    earned.set(day, (earned.get(day) ?? 0) + s.points);
    return s.points;
  });
}

test('rawDelta = api×1 + rpc×5 − rateLimited×2', () => {
  assert.equal(rawDelta({ apiSuccessful: 7, rpcSuccessful: 3, rateLimited: 4 }), 7 + 15 - 8);
  assert.equal(rawDelta({ apiSuccessful: 0, rpcSuccessful: 0, rateLimited: 0 }), 0);
});

test('multipliers and caps per tier; internal and anonymous do not earn', () => {
  assert.deepEqual(TIER_SCORING, {
    free: { multiplier: 1, dailyCap: 500 },
    starter: { multiplier: 1.25, dailyCap: 2000 },
    growth: { multiplier: 1.5, dailyCap: 5000 },
    pro: { multiplier: 2, dailyCap: 10000 },
  });
  const pts = (tier: PointsTier) => scoreWindow(base({ tier, apiSuccessful: 11, rpcSuccessful: 2 })).points; // raw 21
  assert.deepEqual([pts('free'), pts('starter'), pts('growth'), pts('pro')], [21, 26, 31, 42]);
  assert.equal(isPointsTier('internal'), false);
  assert.equal(isPointsTier('anonymous'), false);
  assert.equal(isPointsTier('growth'), true);
});

test('meta has exactly the documented fields', () => {
  const s = scoreWindow(base({ tier: 'growth', apiSuccessful: 3, rateLimited: 1, windowStartMs: DAY + WINDOW_MS, phase: 'p1' }));
  assert.deepEqual(s, {
    points: 1,
    meta: {
      tier: 'growth',
      rawDelta: 1,
      capped: false,
      dailyCap: 5000,
      multiplier: 1.5,
      phase: 'p1',
      apiSuccessful: 3,
      rpcSuccessful: 0,
      rateLimited: 1,
      windowStart: '2024-07-04T00:05:00.000Z',
      windowEnd: '2024-07-04T00:10:00.000Z',
    },
  });
  assert.equal(scoreWindow(base()).meta.phase, 'beta');
});

test('the cap is spent across the windows of one UTC day', () => {
  const w = (i: number, api: number) => ({ at: DAY + i * WINDOW_MS, api });
  assert.deepEqual(scoreDay('free', [w(0, 200), w(1, 200), w(2, 200), w(3, 50)]), [200, 200, 100, 0]);
  assert.deepEqual(scoreDay('starter', [w(0, 1000), w(1, 1000)]), [1250, 750]);
  const capped = scoreWindow(base({ tier: 'free', apiSuccessful: 200, earnedToday: 400 }));
  assert.equal(capped.points, 100);
  assert.equal(capped.meta.capped, true);
  const spent = scoreWindow(base({ tier: 'free', apiSuccessful: 1, earnedToday: 500 }));
  assert.deepEqual([spent.points, spent.meta.capped], [0, true]);
  // Over the cap already (a tier lowered mid-day): nothing more, never negative.
  assert.equal(scoreWindow(base({ tier: 'free', apiSuccessful: 10, earnedToday: 900 })).points, 0);
});

test('negative windows count as is, uncapped, and make room under the cap', () => {
  const neg = scoreWindow(base({ tier: 'pro', apiSuccessful: 1, rateLimited: 1000, earnedToday: 10000 }));
  assert.equal(neg.points, -1999); // unscaled by the multiplier
  assert.equal(neg.meta.capped, false);
  const w = (i: number, api: number, rl = 0) => ({ at: DAY + i * WINDOW_MS, api, rl });
  assert.deepEqual(scoreDay('free', [w(0, 500), w(1, 0, 100), w(2, 500)]), [500, -200, 200]);
  const zero = scoreWindow(base({ apiSuccessful: 2, rateLimited: 1 }));
  assert.deepEqual([zero.points, zero.meta.rawDelta, zero.meta.capped], [0, 0, false]);
});

test('the cap resets at the next UTC day; the 23:55 window belongs to its start day', () => {
  const late = DAY + 86_400_000 - WINDOW_MS; // 23:55
  const next = DAY + 86_400_000; // 00:00 next day
  assert.deepEqual(
    scoreDay('free', [
      { at: late - WINDOW_MS, api: 400 },
      { at: late, api: 400 },
      { at: next, api: 400 },
      { at: next + WINDOW_MS, api: 400 },
    ]),
    [400, 100, 400, 100],
  );
  // Events are stamped with the window end: the range is the day shifted by one window.
  assert.deepEqual(usageDayRange(late), { from: new Date(DAY + WINDOW_MS), to: new Date(next + WINDOW_MS) });
  assert.deepEqual(usageDayRange(next), { from: new Date(next + WINDOW_MS), to: new Date(next + 86_400_000 + WINDOW_MS) });
  assert.deepEqual(usageDayRange(DAY + 1234 * 1000), usageDayRange(DAY));
});

test('windows are 5 minutes aligned to the epoch', () => {
  assert.equal(windowStartOf(DAY + 299_999), DAY);
  assert.equal(windowStartOf(DAY + 300_000), DAY + WINDOW_MS);
  assert.equal(windowStartOf(0), 0);
  assert.equal(utcDayStartOf(DAY + 86_399_999), DAY);
});
