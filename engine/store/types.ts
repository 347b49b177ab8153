/**
 * The persistence contract. One SQL dialect (PostgreSQL's), one set of migrations, two drivers: PGlite (the
 * embedded default, file-backed) and PostgreSQL (`DATABASE_URL`). Repositories are thin typed wrappers over
 * SQL; every multi-row change runs in one transaction. Hot counters never hit the store per request: callers
 * accumulate them in memory (or Redis) and write them here in batches.
 */
import type { Tier } from '../tiers/tier.js';

/** A SQL connection (or a transaction on one). Parameters are `$1, $2, ...`; bigint columns come back as strings. */
export interface SqlClient {
  /** Runs one statement and returns its rows. */
  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R[]>;
  /** Runs `fn` in a transaction on one connection; commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T>;
}

/** An API key as stored: never the key itself, only its SHA-256. */
export interface ApiKeyRecord {
  readonly id: number;
  /** Hex SHA-256 of the key. */
  readonly keyHash: string;
  /** The first characters of the key, for operators to tell keys apart (`svc_3xK9`). */
  readonly prefix: string;
  readonly tier: Tier;
  readonly label: string | null;
  /** This key's own referral code (unique). */
  readonly referralCode: string;
  /** The key whose code was used at creation, or null. */
  readonly referrerId: number | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly revokedAt: Date | null;
}

/** Fields of a new key. */
export interface NewApiKey {
  readonly keyHash: string;
  readonly prefix: string;
  readonly tier: Tier;
  readonly label?: string | null;
  readonly referralCode: string;
  readonly referrerId?: number | null;
}

/** API keys. */
export interface KeyRepo {
  /** Inserts a key; rejects on a duplicate hash or referral code. */
  create(k: NewApiKey): Promise<ApiKeyRecord>;
  /** Inserts the key if its hash is new, else sets its tier and clears a revocation; returns the row. */
  upsertByHash(k: NewApiKey): Promise<ApiKeyRecord>;
  findById(id: number): Promise<ApiKeyRecord | null>;
  /**
   * Like {@link findById}, and locks the row until the transaction ends (`FOR NO KEY UPDATE`: revocations and tier
   * changes wait, inserts that reference the key do not). Serializes writers of one key's ledger (the reconciler's
   * daily cap). Use inside a transaction.
   */
  findByIdForUpdate(id: number): Promise<ApiKeyRecord | null>;
  findByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  findByReferralCode(code: string): Promise<ApiKeyRecord | null>;
  /** All keys by id, revoked ones included when asked. */
  list(opts?: { includeRevoked?: boolean }): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked (idempotent); null when no such key. */
  revoke(id: number): Promise<ApiKeyRecord | null>;
  /** Changes a key's tier; null when no such key. */
  setTier(id: number, tier: Tier): Promise<ApiKeyRecord | null>;
  /**
   * Keys whose row changed at or after `since` (revoked ones included), and the database clock when read, to pass
   * as the next `since` minus a safety overlap. With `since` null, every key.
   */
  changedSince(since: Date | null): Promise<{ rows: ApiKeyRecord[]; now: Date }>;
  /** How many keys were created with this key as referrer. */
  referralCount(id: number): Promise<number>;
}

/** Kinds of ledger events. */
export type PointsKind = 'api_usage' | 'signup' | 'referral' | 'wallet';

/** A ledger event to append. `(apiKeyId, kind, sourceId)` is unique: appending twice is a no-op. */
export interface NewPointsEvent {
  readonly apiKeyId: number;
  readonly kind: PointsKind;
  /** Signed integer points. */
  readonly points: number;
  readonly sourceId: string;
  readonly meta: Readonly<Record<string, unknown>>;
  /** Defaults to the database clock. */
  readonly createdAt?: Date;
}

/** A stored ledger event. */
export interface PointsEvent {
  readonly id: number;
  readonly apiKeyId: number;
  readonly kind: PointsKind;
  readonly points: number;
  readonly sourceId: string;
  readonly meta: Record<string, unknown>;
  readonly createdAt: Date;
}

/** Sum of points per kind. */
export interface PointsBreakdown {
  readonly apiUsage: number;
  readonly signup: number;
  readonly referral: number;
  readonly wallet: number;
}

/** The points ledger. */
export interface PointsRepo {
  /** Appends an event unless `(apiKeyId, kind, sourceId)` exists; `inserted` tells which. */
  append(e: NewPointsEvent): Promise<{ inserted: boolean; id: number | null }>;
  /** Sum per kind (0 for kinds without events). */
  breakdown(apiKeyId: number): Promise<PointsBreakdown>;
  /** The newest events first (created_at desc, id desc). */
  recent(apiKeyId: number, limit: number): Promise<PointsEvent[]>;
  /** True when the key has at least one event. */
  hasRecord(apiKeyId: number): Promise<boolean>;
  /** Sum of points of one kind created in [from, to). */
  sumBetween(apiKeyId: number, kind: PointsKind, from: Date, to: Date): Promise<number>;
}

/** Usage of one key in one window, as counted in memory and flushed in a batch (amounts are added). */
export interface UsageDelta {
  readonly apiKeyId: number;
  /** Start of the window (aligned by the caller). */
  readonly windowStart: Date;
  /** Metered requests answered 2xx. */
  readonly apiSuccessful: number;
  /** Transactions successfully handed to the cluster (send, swap submit). */
  readonly rpcSuccessful: number;
  /** Requests refused with 429. */
  readonly rateLimited: number;
  /** Every metered request, whatever its outcome. */
  readonly requests: number;
}

/** A window's totals as stored. */
export interface UsageWindow extends UsageDelta {
  readonly reconciledAt: Date | null;
}

/** Usage counters per key and window. */
export interface UsageRepo {
  /** Adds every delta to its (key, window) row in one statement; creates rows as needed. */
  addBatch(deltas: readonly UsageDelta[]): Promise<void>;
  /** Unreconciled windows that started before `before`, oldest first. */
  pending(before: Date, limit: number): Promise<UsageWindow[]>;
  /** Marks a window reconciled (inside the transaction that appends its ledger event). */
  markReconciled(apiKeyId: number, windowStart: Date): Promise<void>;
  /** One window, or null. */
  get(apiKeyId: number, windowStart: Date): Promise<UsageWindow | null>;
  /** Like {@link get}, and locks the row until the transaction ends (`FOR UPDATE`). Use inside a transaction. */
  getForUpdate(apiKeyId: number, windowStart: Date): Promise<UsageWindow | null>;
}

/** The repositories, bound to one client (the store's pool or a transaction). */
export interface Repos {
  readonly keys: KeyRepo;
  readonly points: PointsRepo;
  readonly usage: UsageRepo;
  readonly prices: PriceBarRepo;
}

/** One minute of one mint's USD price. */
export interface PriceBar {
  readonly mint: string;
  /** The minute's start, epoch ms (a multiple of 60,000). */
  readonly minuteMs: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  /** Samples the bar was made of. */
  readonly samples: number;
}

/** The price history: one-minute bars per mint. */
export interface PriceBarRepo {
  /** Writes bars; a (mint, minute) already stored is merged (first open, widest range, latest close, samples added). */
  upsert(bars: readonly PriceBar[]): Promise<void>;
  /** Every bar with `minuteMs >= fromMs`, by mint then minute (the startup load of the in-memory history). */
  since(fromMs: number): Promise<PriceBar[]>;
  /** One mint's bars with `fromMs <= minuteMs < toMs`, by minute (the candles). */
  range(mint: string, fromMs: number, toMs: number): Promise<PriceBar[]>;
  /** Deletes every bar older than `beforeMs`; returns how many. */
  deleteBefore(beforeMs: number): Promise<number>;
}

/** An open store. */
export interface Store extends Repos {
  /** `pglite` (embedded) or `postgres`. */
  readonly driver: 'pglite' | 'postgres';
  readonly sql: SqlClient;
  /** Runs `fn` with repositories bound to one transaction. */
  transaction<T>(fn: (tx: Repos) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** How to open a store. */
export interface StoreOptions {
  /** `postgres://...` selects PostgreSQL; absent selects PGlite. */
  readonly databaseUrl?: string;
  /** PGlite data directory (default `<project>/data/pglite`); `memory://` for an in-memory database. */
  readonly dataDir?: string;
  /** PostgreSQL schema to use (created if missing); default `public`. Tests use one schema each. */
  readonly schema?: string;
  /** PostgreSQL: errors of idle pooled connections (a server restart); the pool replaces them. Default: ignored. */
  readonly onError?: (e: unknown) => void;
}
