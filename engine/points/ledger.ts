/**
 * The one-off credits (signup, referral) and the read model of a key's points. Credits take the repositories of
 * the caller's transaction, so a key and its credits commit together; their source ids make them idempotent
 * (a retried creation or a re-provisioned demo key is never credited twice).
 */
import type { ApiKeyRecord, PointsEvent, PointsKind, Repos, Store } from '../store/types.js';
import type { Tier } from '../tiers/tier.js';
import { isPointsTier, REFERRAL_POINTS, SIGNUP_POINTS } from './scoring.js';

/** Events shown in {@link PointsView.recentEvents}. */
export const RECENT_EVENTS = 25;

/** Credits the signup points of a new key (none for internal keys); true when an event was appended. */
export async function creditSignup(repos: Repos, key: Pick<ApiKeyRecord, 'id' | 'tier'>): Promise<boolean> {
  if (!isPointsTier(key.tier)) return false;
  const r = await repos.points.append({
    apiKeyId: key.id,
    kind: 'signup',
    points: SIGNUP_POINTS,
    sourceId: 'signup',
    meta: { tier: key.tier },
  });
  return r.inserted;
}

/**
 * Credits the referrer of a new key; true when an event was appended. Nothing for an unknown, revoked or internal
 * referrer (internal keys never earn; revoked keys stop earning).
 */
export async function creditReferral(repos: Repos, referrerId: number, newKeyId: number): Promise<boolean> {
  const referrer = await repos.keys.findById(referrerId);
  if (!referrer || referrer.revokedAt || !isPointsTier(referrer.tier)) return false;
  const r = await repos.points.append({
    apiKeyId: referrerId,
    kind: 'referral',
    points: REFERRAL_POINTS,
    sourceId: `referral:${newKeyId}`,
    meta: { referredApiKeyId: newKeyId },
  });
  return r.inserted;
}

/** One ledger event as served. */
export interface PointsEventView {
  readonly id: number;
  readonly kind: PointsKind;
  readonly points: number;
  readonly sourceId: string;
  readonly meta: Record<string, unknown>;
  /** ISO 8601. */
  readonly createdAt: string;
}

/** A key's points as served by the points endpoint. */
export interface PointsView {
  readonly apiKeyId: number;
  readonly tier: Tier;
  /** Sum of the breakdown, never below 0. */
  readonly totalPoints: number;
  readonly breakdown: { readonly apiUsage: number; readonly signup: number; readonly referral: number; readonly wallet: 0 };
  readonly referral: { readonly code: string; readonly referrerApiKeyId: number | null; readonly referralCount: number };
  /** Newest first, at most {@link RECENT_EVENTS}. */
  readonly recentEvents: readonly PointsEventView[];
}

function eventView(e: PointsEvent): PointsEventView {
  return { id: e.id, kind: e.kind, points: e.points, sourceId: e.sourceId, meta: e.meta, createdAt: e.createdAt.toISOString() };
}

/** The points of `apiKeyId`, or null when there is no such key or it has no ledger event yet. */
export async function pointsView(store: Pick<Store, 'keys' | 'points'>, apiKeyId: number): Promise<PointsView | null> {
  const [key, has] = await Promise.all([store.keys.findById(apiKeyId), store.points.hasRecord(apiKeyId)]);
  if (!key || !has) return null;
  const [b, recent, referralCount] = await Promise.all([
    store.points.breakdown(apiKeyId),
    store.points.recent(apiKeyId, RECENT_EVENTS),
    store.keys.referralCount(apiKeyId),
  ]);
  return {
    apiKeyId,
    tier: key.tier,
    totalPoints: Math.max(0, b.apiUsage + b.signup + b.referral),
    breakdown: { apiUsage: b.apiUsage, signup: b.signup, referral: b.referral, wallet: 0 },
    referral: { code: key.referralCode, referrerApiKeyId: key.referrerId, referralCount },
    recentEvents: recent.map(eventView),
  };
}
