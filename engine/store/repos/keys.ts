/**
 * {@link KeyRepo} over SQL. `updated_at` is stamped by the table's trigger on every insert and update, which is
 * what `changedSince` (the key directory's poll) relies on to learn revocations and tier changes.
 */
import { EngineError } from '../../errors.js';
import { isKeyTier, type Tier } from '../../tiers/tier.js';
import type { ApiKeyRecord, KeyRepo, NewApiKey, SqlClient } from '../types.js';

interface KeyRow {
  id: number;
  key_hash: string;
  prefix: string;
  tier: Tier;
  label: string | null;
  referral_code: string;
  referrer_id: number | null;
  created_at: Date;
  updated_at: Date;
  revoked_at: Date | null;
}

const COLUMNS = 'id, key_hash, prefix, tier, label, referral_code, referrer_id, created_at, updated_at, revoked_at';

function toRecord(r: KeyRow): ApiKeyRecord {
  return {
    id: r.id,
    keyHash: r.key_hash,
    prefix: r.prefix,
    tier: r.tier,
    label: r.label,
    referralCode: r.referral_code,
    referrerId: r.referrer_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    revokedAt: r.revoked_at,
  };
}

function checkTier(tier: Tier): Tier {
  if (!isKeyTier(tier)) throw new EngineError('BAD_TIER', `a key cannot have tier ${String(tier)}`);
  return tier;
}

function insertParams(k: NewApiKey): unknown[] {
  return [k.keyHash, k.prefix, checkTier(k.tier), k.label ?? null, k.referralCode, k.referrerId ?? null];
}

/** A key repository bound to `sql` (the store or a transaction). */
export function keyRepo(sql: SqlClient): KeyRepo {
  const one = async (text: string, params: readonly unknown[]): Promise<ApiKeyRecord | null> => {
    const rows = await sql.query<KeyRow>(text, params);
    return rows[0] ? toRecord(rows[0]) : null;
  };
  return {
    async create(k) {
      try {
        const row = await one(
          `INSERT INTO api_keys (key_hash, prefix, tier, label, referral_code, referrer_id)
           VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
          insertParams(k),
        );
        return row!;
      } catch (e) {
        const db = e as { code?: unknown; constraint?: unknown };
        if (db.code === '23505') {
          throw new EngineError('STORE_DUPLICATE_KEY', 'a key with this hash or referral code exists', { constraint: db.constraint });
        }
        throw e;
      }
    },

    async upsertByHash(k) {
      const row = await one(
        `INSERT INTO api_keys (key_hash, prefix, tier, label, referral_code, referrer_id)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (key_hash) DO UPDATE SET tier = excluded.tier, revoked_at = NULL
         RETURNING ${COLUMNS}`,
        insertParams(k),
      );
      return row!;
    },

    findById: (id) => one(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1`, [id]),
    findByIdForUpdate: (id) => one(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1 FOR NO KEY UPDATE`, [id]),
    findByHash: (keyHash) => one(`SELECT ${COLUMNS} FROM api_keys WHERE key_hash = $1`, [keyHash]),
    findByReferralCode: (code) => one(`SELECT ${COLUMNS} FROM api_keys WHERE referral_code = $1`, [code]),

    async list(opts) {
      const rows = await sql.query<KeyRow>(
        `SELECT ${COLUMNS} FROM api_keys WHERE $1::boolean OR revoked_at IS NULL ORDER BY id`,
        [opts?.includeRevoked === true],
      );
      return rows.map(toRecord);
    },

    // COALESCE keeps the first revocation time: revoking twice is a no-op (but still a change for pollers).
    revoke: (id) => one(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 RETURNING ${COLUMNS}`, [id]),

    setTier: async (id, tier) => one(`UPDATE api_keys SET tier = $2 WHERE id = $1 RETURNING ${COLUMNS}`, [id, checkTier(tier)]),

    async changedSince(since) {
      // One statement, so the clock is read no later than the snapshot the rows come from: a change committed after
      // the snapshot has updated_at >= the returned clock minus how long its transaction ran (the caller's overlap).
      const rows = await sql.query<KeyRow & { db_now: Date; id: number | null }>(
        `SELECT n.db_now, ${COLUMNS.split(', ').map((c) => `k.${c}`).join(', ')}
         FROM (SELECT now() AS db_now) n
         LEFT JOIN api_keys k ON $1::timestamptz IS NULL OR k.updated_at >= $1::timestamptz
         ORDER BY k.id`,
        [since],
      );
      return { rows: rows.filter((r) => r.id !== null).map(toRecord), now: rows[0]!.db_now };
    },

    async referralCount(id) {
      const rows = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE referrer_id = $1', [id]);
      return rows[0]!.n;
    },
  };
}
