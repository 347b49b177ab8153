/**
 * Access tiers. Every key carries one; callers without a key are `anonymous`. `internal` has no limits.
 */

/** The tiers, lowest to highest (`internal` last: unlimited, for the operator's own systems). */
export const TIERS = ['anonymous', 'free', 'starter', 'growth', 'pro', 'internal'] as const;

/** One access tier. */
export type Tier = (typeof TIERS)[number];

/** Tiers a key can be created with (never `anonymous`). */
export const KEY_TIERS: readonly Tier[] = ['free', 'starter', 'growth', 'pro', 'internal'];

/** True when `s` names a tier. */
export function isTier(s: unknown): s is Tier {
  return typeof s === 'string' && (TIERS as readonly string[]).includes(s);
}

/** True when `s` names a tier a key may hold. */
export function isKeyTier(s: unknown): s is Tier {
  return typeof s === 'string' && (KEY_TIERS as readonly string[]).includes(s);
}

/** Position of a tier in {@link TIERS}; compare to order tiers. */
export function tierRank(t: Tier): number {
  return TIERS.indexOf(t);
}

/** True when `t` is `min` or above. */
export function tierAtLeast(t: Tier, min: Tier): boolean {
  return tierRank(t) >= tierRank(min);
}
