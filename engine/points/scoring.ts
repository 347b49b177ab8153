/**
 * The scoring rules, pure: constants per tier and the points of one usage window. The reconciler feeds it the
 * stored counters and what the key already earned that UTC day; tests feed it tables.
 *
 * The daily cap bounds the day's net api_usage points: a window adds at most `dailyCap - earnedToday` (never less
 * than 0), penalties (negative windows) are uncapped and lower `earnedToday`, so the day's sum never exceeds the cap.
 */
import type { Tier } from '../tiers/tier.js';

/** Usage windows are 5 minutes, aligned to the Unix epoch (UTC). */
export const WINDOW_MS = 300_000;
/** One UTC day. */
export const DAY_MS = 86_400_000;
/** Points for creating a key of a points tier (`signup`, source `signup`). */
export const SIGNUP_POINTS = 100;
/** Points to the referrer per key created with its code (`referral`, source `referral:<newKeyId>`). */
export const REFERRAL_POINTS = 250;
/** Points per metered 2xx request. */
export const API_SUCCESS_POINTS = 1;
/** Points per transaction handed to the cluster (send, swap submit). */
export const RPC_SUCCESS_POINTS = 5;
/** Points per 429 (a penalty). */
export const RATE_LIMITED_POINTS = -2;
/** Default `phase` recorded in every api_usage event. */
export const DEFAULT_PHASE = 'beta';

/** Tiers that earn points (`anonymous` has no key, `internal` keys never earn). */
export type PointsTier = 'free' | 'starter' | 'growth' | 'pro';

/** Multiplier and daily cap of each points tier. */
export const TIER_SCORING: Readonly<Record<PointsTier, { readonly multiplier: number; readonly dailyCap: number }>> = {
  free: { multiplier: 1, dailyCap: 500 },
  starter: { multiplier: 1.25, dailyCap: 2000 },
  growth: { multiplier: 1.5, dailyCap: 5000 },
  pro: { multiplier: 2, dailyCap: 10000 },
};

/** True when keys of tier `t` earn points. */
export function isPointsTier(t: Tier): t is PointsTier {
  return Object.hasOwn(TIER_SCORING, t);
}

/** Start (epoch ms) of the window holding `ms`. */
export function windowStartOf(ms: number): number {
  return Math.floor(ms / WINDOW_MS) * WINDOW_MS;
}

/** Start (epoch ms) of the UTC day holding `ms`. */
export function utcDayStartOf(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/**
 * The `created_at` range [from, to) of the api_usage events of windows that start on the same UTC day as
 * `windowStartMs`. An event is stamped with its window's end, so the range is the day shifted by one window: the
 * 23:55 window (stamped 00:00 next day) counts on its own day, the 00:00 window does not count on the day before.
 */
export function usageDayRange(windowStartMs: number): { from: Date; to: Date } {
  const day = utcDayStartOf(windowStartMs);
  return { from: new Date(day + WINDOW_MS), to: new Date(day + DAY_MS + WINDOW_MS) };
}

/** Counters of one window, as stored. */
export interface WindowCounts {
  readonly apiSuccessful: number;
  readonly rpcSuccessful: number;
  readonly rateLimited: number;
}

/** apiSuccessful×1 + rpcSuccessful×5 − rateLimited×2. */
export function rawDelta(c: WindowCounts): number {
  return c.apiSuccessful * API_SUCCESS_POINTS + c.rpcSuccessful * RPC_SUCCESS_POINTS + c.rateLimited * RATE_LIMITED_POINTS;
}

/** What {@link scoreWindow} needs. */
export interface ScoreInput extends WindowCounts {
  /** The key's tier when the window is reconciled. */
  readonly tier: PointsTier;
  readonly windowStartMs: number;
  /** Net api_usage points of the key's windows that started earlier the same UTC day. */
  readonly earnedToday: number;
  /** Default {@link DEFAULT_PHASE}. */
  readonly phase?: string;
}

/** The `meta` of an api_usage event (exactly these fields; a type alias so it is a `Record<string, unknown>`). */
export type UsageEventMeta = {
  readonly tier: PointsTier;
  readonly rawDelta: number;
  readonly capped: boolean;
  readonly dailyCap: number;
  readonly multiplier: number;
  readonly phase: string;
  readonly apiSuccessful: number;
  readonly rpcSuccessful: number;
  readonly rateLimited: number;
  /** ISO 8601. */
  readonly windowStart: string;
  /** ISO 8601. */
  readonly windowEnd: string;
};

/** The points of one window and the event's meta. `points` is 0 exactly when rawDelta is 0 or the cap is spent. */
export interface WindowScore {
  readonly points: number;
  readonly meta: UsageEventMeta;
}

/**
 * Scores a window: positive rawDelta × multiplier (floored), capped by what is left of the tier's daily cap;
 * negative rawDelta as is (unscaled, uncapped).
 */
export function scoreWindow(input: ScoreInput): WindowScore {
  const { multiplier, dailyCap } = TIER_SCORING[input.tier];
  const raw = rawDelta(input);
  let points = raw;
  let capped = false;
  if (raw > 0) {
    const scaled = Math.floor(raw * multiplier);
    points = Math.min(scaled, Math.max(0, dailyCap - input.earnedToday));
    capped = points < scaled;
  }
  return {
    points,
    meta: {
      tier: input.tier,
      rawDelta: raw,
      capped,
      dailyCap,
      multiplier,
      phase: input.phase ?? DEFAULT_PHASE,
      apiSuccessful: input.apiSuccessful,
      rpcSuccessful: input.rpcSuccessful,
      rateLimited: input.rateLimited,
      windowStart: new Date(input.windowStartMs).toISOString(),
      windowEnd: new Date(input.windowStartMs + WINDOW_MS).toISOString(),
    },
  };
}
