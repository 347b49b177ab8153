/**
 * {@link UsageRepo} over SQL. A flush is one statement whatever its size: the batch goes in as six arrays
 * (`unnest`) and each row adds onto its (key, window) row (`ON CONFLICT DO UPDATE`).
 */
import type { SqlClient, UsageDelta, UsageRepo, UsageWindow } from '../types.js';

interface WindowRow {
  api_key_id: number;
  window_start: Date;
  api_successful: number;
  rpc_successful: number;
  rate_limited: number;
  requests: number;
  reconciled_at: Date | null;
}

const COLUMNS = `api_key_id, window_start, api_successful::float8 AS api_successful, rpc_successful::float8 AS rpc_successful,
  rate_limited::float8 AS rate_limited, requests::float8 AS requests, reconciled_at`;

function toWindow(r: WindowRow): UsageWindow {
  return {
    apiKeyId: r.api_key_id,
    windowStart: r.window_start,
    apiSuccessful: r.api_successful,
    rpcSuccessful: r.rpc_successful,
    rateLimited: r.rate_limited,
    requests: r.requests,
    reconciledAt: r.reconciled_at,
  };
}

/** The sum of the deltas of one (key, window). */
export interface MergedDelta {
  apiKeyId: number;
  windowStartMs: number;
  apiSuccessful: number;
  rpcSuccessful: number;
  rateLimited: number;
  requests: number;
}

/**
 * Sums deltas of the same (key, window) and sorts by (key, window). One INSERT cannot update a row twice, and the
 * fixed order makes every flush lock rows in the same order, so two instances flushing at once cannot deadlock.
 */
export function mergeDeltas(deltas: readonly UsageDelta[]): MergedDelta[] {
  const byKey = new Map<string, MergedDelta>();
  for (const d of deltas) {
    const ms = d.windowStart.getTime();
    const k = `${d.apiKeyId}:${ms}`;
    let s = byKey.get(k);
    if (!s) {
      s = { apiKeyId: d.apiKeyId, windowStartMs: ms, apiSuccessful: 0, rpcSuccessful: 0, rateLimited: 0, requests: 0 };
      byKey.set(k, s);
    }
    s.apiSuccessful += d.apiSuccessful;
    s.rpcSuccessful += d.rpcSuccessful;
    s.rateLimited += d.rateLimited;
    s.requests += d.requests;
  }
  return [...byKey.values()].sort((a, b) => a.apiKeyId - b.apiKeyId || a.windowStartMs - b.windowStartMs);
}

/** A usage repository bound to `sql` (the store or a transaction). */
export function usageRepo(sql: SqlClient): UsageRepo {
  const one = async (text: string, apiKeyId: number, windowStart: Date): Promise<UsageWindow | null> => {
    const rows = await sql.query<WindowRow>(text, [apiKeyId, windowStart]);
    return rows[0] ? toWindow(rows[0]) : null;
  };
  return {
    async addBatch(deltas) {
      const sums = mergeDeltas(deltas);
      if (sums.length === 0) return;
      await sql.query(
        `INSERT INTO usage_windows (api_key_id, window_start, api_successful, rpc_successful, rate_limited, requests)
         SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[])
         ON CONFLICT (api_key_id, window_start) DO UPDATE SET
           api_successful = usage_windows.api_successful + excluded.api_successful,
           rpc_successful = usage_windows.rpc_successful + excluded.rpc_successful,
           rate_limited = usage_windows.rate_limited + excluded.rate_limited,
           requests = usage_windows.requests + excluded.requests`,
        [
          sums.map((s) => s.apiKeyId),
          sums.map((s) => new Date(s.windowStartMs).toISOString()),
          sums.map((s) => s.apiSuccessful),
          sums.map((s) => s.rpcSuccessful),
          sums.map((s) => s.rateLimited),
          sums.map((s) => s.requests),
        ],
      );
    },

    async pending(before, limit) {
      const rows = await sql.query<WindowRow>(
        `SELECT ${COLUMNS} FROM usage_windows WHERE reconciled_at IS NULL AND window_start < $1
         ORDER BY window_start, api_key_id LIMIT $2`,
        [before, limit],
      );
      return rows.map(toWindow);
    },

    async markReconciled(apiKeyId, windowStart) {
      await sql.query(
        'UPDATE usage_windows SET reconciled_at = now() WHERE api_key_id = $1 AND window_start = $2 AND reconciled_at IS NULL',
        [apiKeyId, windowStart],
      );
    },

    get: (apiKeyId, windowStart) =>
      one(`SELECT ${COLUMNS} FROM usage_windows WHERE api_key_id = $1 AND window_start = $2`, apiKeyId, windowStart),
    getForUpdate: (apiKeyId, windowStart) =>
      one(`SELECT ${COLUMNS} FROM usage_windows WHERE api_key_id = $1 AND window_start = $2 FOR UPDATE`, apiKeyId, windowStart),
  };
}
