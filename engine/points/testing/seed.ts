/**
 * Deterministic usage for reconciler tests: keys of every tier (one revoked, one internal) and a few hundred
 * windows across a UTC midnight, with values that spend the daily caps, penalties, and all-zero windows; plus the
 * ledger the scoring rules give for them, replayed in memory in the reconciler's order.
 */
import type { Tier } from '../../tiers/tier.js';
import type { Store, UsageDelta } from '../../store/types.js';
import { isPointsTier, rawDelta, scoreWindow, utcDayStartOf, WINDOW_MS } from '../scoring.js';

/** A seeded key. */
export interface SeedKey {
  readonly tier: Tier;
  readonly revoked: boolean;
}

/** A seeded window (key by index into {@link SeedPlan.keys}). */
export interface SeedWindow {
  readonly keyIndex: number;
  readonly windowStartMs: number;
  readonly apiSuccessful: number;
  readonly rpcSuccessful: number;
  readonly rateLimited: number;
  readonly requests: number;
}

/** What to seed. */
export interface SeedPlan {
  readonly keys: readonly SeedKey[];
  readonly windows: readonly SeedWindow[];
}

/** 2024-03-09T22:00Z: seeded windows run across midnight into March 10. */
export const SEED_START_MS = Date.UTC(2024, 2, 9, 22, 0);

// mulberry32: a tiny seeded PRNG, so every run seeds the same data.
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** About `count` windows spread over seven keys (free, starter, growth, pro, pro, internal, revoked free). */
export function seedPlan(count = 300, seed = 7): SeedPlan {
  const keys: SeedKey[] = [
    { tier: 'free', revoked: false },
    { tier: 'starter', revoked: false },
    { tier: 'growth', revoked: false },
    { tier: 'pro', revoked: false },
    { tier: 'pro', revoked: false },
    { tier: 'internal', revoked: false },
    { tier: 'free', revoked: true },
  ];
  const rnd = prng(seed);
  const int = (max: number) => Math.floor(rnd() * (max + 1));
  const perKey = Math.ceil(count / keys.length);
  const windows: SeedWindow[] = [];
  for (let k = 0; k < keys.length; k++) {
    for (let i = 0; i < perKey && windows.length < count; i++) {
      const r = rnd();
      const quiet = r < 0.1;
      const penalty = r > 0.9;
      const apiSuccessful = quiet ? 0 : penalty ? int(20) : int(400);
      const rpcSuccessful = quiet ? 0 : int(40);
      const rateLimited = quiet ? 0 : penalty ? 200 + int(300) : int(30);
      windows.push({
        keyIndex: k,
        windowStartMs: SEED_START_MS + i * WINDOW_MS,
        apiSuccessful,
        rpcSuccessful,
        rateLimited,
        requests: apiSuccessful + rpcSuccessful + rateLimited + int(5),
      });
    }
  }
  return { keys, windows };
}

/** Creates the keys and writes the windows (one batch); returns the key ids by index. */
export async function seedStore(store: Store, plan: SeedPlan, tag: string): Promise<number[]> {
  const ids: number[] = [];
  for (const [i, k] of plan.keys.entries()) {
    const rec = await store.keys.create({ keyHash: `seed-${tag}-${i}`, prefix: 'svc_seed', tier: k.tier, referralCode: `SEED${tag}${i}` });
    if (k.revoked) await store.keys.revoke(rec.id);
    ids.push(rec.id);
  }
  const deltas: UsageDelta[] = plan.windows.map((w) => ({
    apiKeyId: ids[w.keyIndex]!,
    windowStart: new Date(w.windowStartMs),
    apiSuccessful: w.apiSuccessful,
    rpcSuccessful: w.rpcSuccessful,
    rateLimited: w.rateLimited,
    requests: w.requests,
  }));
  await store.usage.addBatch(deltas);
  return ids;
}

/** `<apiKeyId>@<windowStart ISO>`: one window. */
export function windowId(apiKeyId: number, windowStartMs: number): string {
  return `${apiKeyId}@${new Date(windowStartMs).toISOString()}`;
}

/** The expected api_usage event points per window (windows without an event are absent), and their total. */
export function expectedLedger(plan: SeedPlan, ids: readonly number[], phase?: string): { byWindow: Map<string, number>; total: number } {
  const byWindow = new Map<string, number>();
  const earned = new Map<string, number>();
  let total = 0;
  const ordered = [...plan.windows].sort((a, b) => a.windowStartMs - b.windowStartMs || ids[a.keyIndex]! - ids[b.keyIndex]!);
  for (const w of ordered) {
    const key = plan.keys[w.keyIndex]!;
    if (key.revoked || !isPointsTier(key.tier) || rawDelta(w) === 0) continue;
    const id = ids[w.keyIndex]!;
    const dayKey = `${id}:${utcDayStartOf(w.windowStartMs)}`;
    const earnedToday = earned.get(dayKey) ?? 0;
    const { points } = scoreWindow({ ...w, tier: key.tier, earnedToday, phase });
    earned.set(dayKey, earnedToday + points);
    byWindow.set(windowId(id, w.windowStartMs), points);
    total += points;
  }
  return { byWindow, total };
}

/** The api_usage events in the store as (window id -> points), failing on a duplicate. */
export async function storedLedger(store: Store): Promise<{ byWindow: Map<string, number>; total: number; count: number }> {
  const rows = await store.sql.query<{ api_key_id: number; source_id: string; points: number }>(
    "SELECT api_key_id, source_id, points::float8 AS points FROM points_events WHERE kind = 'api_usage'",
  );
  const byWindow = new Map<string, number>();
  let total = 0;
  for (const r of rows) {
    const id = `${r.api_key_id}@${r.source_id.slice('usage:'.length)}`;
    if (byWindow.has(id)) throw new Error(`two events for window ${id}`);
    byWindow.set(id, r.points);
    total += r.points;
  }
  return { byWindow, total, count: rows.length };
}

/** Number of windows not yet reconciled. */
export async function pendingCount(store: Store): Promise<number> {
  const rows = await store.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM usage_windows WHERE reconciled_at IS NULL');
  return rows[0]!.n;
}
