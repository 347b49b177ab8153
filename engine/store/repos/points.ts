/**
 * {@link PointsRepo} over SQL. Ids, points and sums are bigint in the table and cast to float8 in the SELECTs:
 * exact below 2^53, far above any ledger total, and a plain JS number on both drivers.
 */
import { EngineError } from '../../errors.js';
import type { PointsBreakdown, PointsEvent, PointsKind, PointsRepo, SqlClient } from '../types.js';

interface EventRow {
  id: number;
  api_key_id: number;
  kind: PointsKind;
  points: number;
  source_id: string;
  meta: Record<string, unknown>;
  created_at: Date;
}

const COLUMNS = 'id::float8 AS id, api_key_id, kind, points::float8 AS points, source_id, meta, created_at';

function toEvent(r: EventRow): PointsEvent {
  return {
    id: r.id,
    apiKeyId: r.api_key_id,
    kind: r.kind,
    points: r.points,
    sourceId: r.source_id,
    meta: r.meta,
    createdAt: r.created_at,
  };
}

const BREAKDOWN_FIELD: Record<PointsKind, keyof PointsBreakdown> = {
  api_usage: 'apiUsage',
  signup: 'signup',
  referral: 'referral',
  wallet: 'wallet',
};

/** A ledger repository bound to `sql` (the store or a transaction). */
export function pointsRepo(sql: SqlClient): PointsRepo {
  return {
    async append(e) {
      if (!Number.isSafeInteger(e.points)) throw new EngineError('BAD_POINTS', `points must be an integer; got ${e.points}`);
      const rows = await sql.query<{ id: number }>(
        `INSERT INTO points_events (api_key_id, kind, points, source_id, meta, created_at)
         VALUES ($1, $2, $3, $4, $5::jsonb, COALESCE($6::timestamptz, now()))
         ON CONFLICT (api_key_id, kind, source_id) DO NOTHING
         RETURNING id::float8 AS id`,
        [e.apiKeyId, e.kind, e.points, e.sourceId, JSON.stringify(e.meta), e.createdAt ?? null],
      );
      return rows[0] ? { inserted: true, id: rows[0].id } : { inserted: false, id: null };
    },

    async breakdown(apiKeyId) {
      const rows = await sql.query<{ kind: PointsKind; total: number }>(
        'SELECT kind, sum(points)::float8 AS total FROM points_events WHERE api_key_id = $1 GROUP BY kind',
        [apiKeyId],
      );
      const out = { apiUsage: 0, signup: 0, referral: 0, wallet: 0 };
      for (const r of rows) {
        const field = BREAKDOWN_FIELD[r.kind];
        if (field) out[field] = r.total;
      }
      return out;
    },

    async recent(apiKeyId, limit) {
      const rows = await sql.query<EventRow>(
        `SELECT ${COLUMNS} FROM points_events WHERE api_key_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
        [apiKeyId, limit],
      );
      return rows.map(toEvent);
    },

    async hasRecord(apiKeyId) {
      const rows = await sql.query<{ has: boolean }>(
        'SELECT EXISTS (SELECT 1 FROM points_events WHERE api_key_id = $1) AS has',
        [apiKeyId],
      );
      return rows[0]!.has;
    },

    async sumBetween(apiKeyId, kind, from, to) {
      const rows = await sql.query<{ total: number }>(
        `SELECT COALESCE(sum(points), 0)::float8 AS total FROM points_events
         WHERE api_key_id = $1 AND kind = $2 AND created_at >= $3 AND created_at < $4`,
        [apiKeyId, kind, from, to],
      );
      return rows[0]!.total;
    },
  };
}
