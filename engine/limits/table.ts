/**
 * The rate-limit table: every category a route is charged to, its per-minute quota for each tier, and the
 * concurrent stream slots of each tier. One table so the HTTP layer, the README and the tests read the same numbers.
 * `Infinity` = unlimited, `0` = the tier may not call the category at all.
 */
import { EngineError } from '../errors.js';
import { TIERS } from '../tiers/tier.js';
import type { Tier } from '../tiers/tier.js';

/** Rate-limit categories; a route is charged to exactly one. */
export const CATEGORIES = [
  'prices',
  'pools',
  'quote',
  'quote-stream',
  'swap',
  'forensics',
  'portfolio',
  'search',
  'tokens',
  'logo',
  'history',
  'tx',
  'stream',
  'send',
  'webhooks',
  'points',
  'supply',
  'attestation',
  'balances',
] as const;

/** One rate-limit category. */
export type Category = (typeof CATEGORIES)[number];

/** Where a number comes from: the spec states it, or the spec is silent and this table chose it. */
export type QuotaSource = 'spec' | 'default';

/** One row of the table: quotas per tier, `internal` excluded (always unlimited). */
type Row = Readonly<Record<Exclude<Tier, 'internal'>, number>>;

/** Same quota for every keyed tier (the spec's "keys: N"). */
function keyed(anonymous: number, keys: number): Row {
  return { anonymous, free: keys, starter: keys, growth: keys, pro: keys };
}

const ROWS: Readonly<Record<Category, Row>> = {
  // The prices page's own table; it conflicts with the general row and wins (the lead's decision record says why).
  prices: { anonymous: 30, free: 60, starter: 300, growth: 600, pro: 1000 },
  pools: keyed(60, 300),
  quote: keyed(0, 60),
  // Connects per minute to the quote stream; growth is not in the spec (see DEFAULT_CELLS).
  'quote-stream': { anonymous: 0, free: 10, starter: 60, growth: 150, pro: 300 },
  swap: keyed(0, 10),
  forensics: { anonymous: 0, free: 0, starter: 60, growth: 150, pro: 300 },
  portfolio: { anonymous: 0, free: 5, starter: 30, growth: 75, pro: 150 },
  search: { anonymous: 60, free: 120, starter: 300, growth: 600, pro: 1000 },
  // Token metadata, the token page and the token list.
  tokens: { anonymous: 60, free: 60, starter: 300, growth: 600, pro: 1000 },
  // Logos are small, cacheable and fetched in bursts by list views: the loosest row.
  logo: { anonymous: 120, free: 600, starter: 600, growth: 1200, pro: 2000 },
  // Balance history walks signatures over RPC: expensive, so tight.
  history: { anonymous: 0, free: 5, starter: 30, growth: 60, pro: 120 },
  tx: { anonymous: 0, free: 60, starter: 300, growth: 600, pro: 1000 },
  // Connects per minute to every stream route other than the quote stream.
  stream: { anonymous: 0, free: 10, starter: 60, growth: 150, pro: 300 },
  // Transaction submission: as tight as swap building.
  send: keyed(0, 10),
  webhooks: { anonymous: 0, free: 30, starter: 60, growth: 120, pro: 300 },
  points: { anonymous: 0, free: 30, starter: 30, growth: 60, pro: 60 },
  supply: { anonymous: 60, free: 120, starter: 300, growth: 600, pro: 1000 },
  attestation: { anonymous: 60, free: 120, starter: 300, growth: 600, pro: 1000 },
  balances: { anonymous: 0, free: 30, starter: 120, growth: 300, pro: 600 },
};

/** Per-minute quota of every category for every tier (`internal` is `Infinity` everywhere). Frozen. */
export const LIMITS: Readonly<Record<Category, Readonly<Record<Tier, number>>>> = Object.freeze(
  Object.fromEntries(CATEGORIES.map((c) => [c, Object.freeze({ ...ROWS[c], internal: Infinity })])) as Record<
    Category,
    Readonly<Record<Tier, number>>
  >,
);

/** Which categories' numbers the spec gives ('spec') and which this table chose ('default'). Frozen. */
export const SOURCE: Readonly<Record<Category, QuotaSource>> = Object.freeze({
  prices: 'spec',
  pools: 'spec',
  quote: 'spec',
  'quote-stream': 'spec',
  swap: 'spec',
  forensics: 'spec',
  portfolio: 'spec',
  search: 'default',
  tokens: 'default',
  logo: 'default',
  history: 'default',
  tx: 'default',
  stream: 'default',
  send: 'default',
  webhooks: 'default',
  points: 'default',
  supply: 'default',
  attestation: 'default',
  balances: 'default',
});

/**
 * Concurrent SSE connections per key, shared by every stream route (the quote stream included). `anonymous`
 * cannot stream; `growth` is not in the spec (see DEFAULT_CELLS). Frozen.
 */
export const STREAM_SLOTS: Readonly<Record<Tier, number>> = Object.freeze({
  anonymous: 0,
  free: 1,
  starter: 3,
  growth: 5,
  pro: 10,
  internal: Infinity,
});

/** Cells the spec leaves empty inside a row it otherwise gives (`'stream-slots'` = {@link STREAM_SLOTS}). */
export const DEFAULT_CELLS: readonly { readonly table: Category | 'stream-slots'; readonly tier: Tier }[] = Object.freeze([
  Object.freeze({ table: 'quote-stream', tier: 'growth' }),
  Object.freeze({ table: 'stream-slots', tier: 'growth' }),
] as const);

/** Per-minute quota of `category` for `tier` (`Infinity` = unlimited, `0` = not allowed). */
export function quotaOf(category: Category, tier: Tier): number {
  return LIMITS[category][tier];
}

/** Concurrent stream slots of `tier` (`Infinity` = unlimited, `0` = may not stream). */
export function streamSlotsOf(tier: Tier): number {
  return STREAM_SLOTS[tier];
}

/** True when `s` names a category. */
export function isCategory(s: unknown): s is Category {
  return typeof s === 'string' && (CATEGORIES as readonly string[]).includes(s);
}

/**
 * Checks the tables at load: every cell a non-negative integer or `Infinity`, `internal` unlimited, quotas never
 * shrinking as the tier rises. A typo in a row then fails the first import instead of a customer's request.
 */
function assertTables(): void {
  const bad = (where: string, why: string): never => {
    throw new EngineError('LIMITS_TABLE_INVALID', `${where}: ${why}`, { where });
  };
  const check = (where: string, row: Readonly<Record<Tier, number>>): void => {
    let prev = 0;
    for (const t of TIERS) {
      const v = row[t];
      if (!(v === Infinity || (Number.isInteger(v) && v >= 0))) bad(`${where}.${t}`, `${v} is not a count`);
      if (v < prev) bad(`${where}.${t}`, `${v} is below the tier under it (${prev})`);
      prev = v;
    }
    if (row.internal !== Infinity) bad(`${where}.internal`, 'must be unlimited');
  };
  for (const c of CATEGORIES) check(c, LIMITS[c]);
  check('stream-slots', STREAM_SLOTS);
}

assertTables();
