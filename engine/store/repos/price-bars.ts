/**
 * {@link PriceBarRepo} over SQL. An upsert is one statement whatever its size (`unnest` of seven arrays); a bar
 * already stored for the same (mint, minute) keeps its open and merges the rest.
 */
import type { PriceBar, PriceBarRepo, SqlClient } from '../types.js';

interface BarRow {
  mint: string;
  minute_ms: string | number;
  open: number;
  high: number;
  low: number;
  close: number;
  samples: number;
}

const COLUMNS = 'mint, minute_ms, open, high, low, close, samples';

function toBar(r: BarRow): PriceBar {
  return { mint: r.mint, minuteMs: Number(r.minute_ms), open: r.open, high: r.high, low: r.low, close: r.close, samples: r.samples };
}

/** A price bar repository bound to `sql`. */
export function priceBarRepo(sql: SqlClient): PriceBarRepo {
  return {
    async upsert(bars) {
      if (bars.length === 0) return;
      // One row per (mint, minute) in one INSERT (ON CONFLICT cannot touch a row twice); the later bar wins the close.
      const byKey = new Map<string, PriceBar>();
      for (const b of bars) {
        const k = `${b.mint}:${b.minuteMs}`;
        const prev = byKey.get(k);
        byKey.set(k, prev ? { ...b, open: prev.open, high: Math.max(prev.high, b.high), low: Math.min(prev.low, b.low), samples: prev.samples + b.samples } : b);
      }
      const rows = [...byKey.values()].sort((a, b) => (a.mint < b.mint ? -1 : a.mint > b.mint ? 1 : a.minuteMs - b.minuteMs));
      await sql.query(
        `INSERT INTO price_bars (mint, minute_ms, open, high, low, close, samples)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::float8[], $4::float8[], $5::float8[], $6::float8[], $7::int[])
         ON CONFLICT (mint, minute_ms) DO UPDATE SET
           high = GREATEST(price_bars.high, excluded.high),
           low = LEAST(price_bars.low, excluded.low),
           close = excluded.close,
           samples = price_bars.samples + excluded.samples`,
        [
          rows.map((b) => b.mint),
          rows.map((b) => b.minuteMs),
          rows.map((b) => b.open),
          rows.map((b) => b.high),
          rows.map((b) => b.low),
          rows.map((b) => b.close),
          rows.map((b) => b.samples),
        ],
      );
    },

    async since(fromMs) {
      const rows = await sql.query<BarRow>(`SELECT ${COLUMNS} FROM price_bars WHERE minute_ms >= $1 ORDER BY mint, minute_ms`, [fromMs]);
      return rows.map(toBar);
    },

    async range(mint, fromMs, toMs) {
      // The primary key (mint, minute_ms) serves this range.
      const rows = await sql.query<BarRow>(`SELECT ${COLUMNS} FROM price_bars WHERE mint = $1 AND minute_ms >= $2 AND minute_ms < $3 ORDER BY minute_ms`, [mint, fromMs, toMs]);
      return rows.map(toBar);
    },

    async deleteBefore(beforeMs) {
      const rows = await sql.query<{ n: number }>('WITH d AS (DELETE FROM price_bars WHERE minute_ms < $1 RETURNING 1) SELECT count(*)::int AS n FROM d', [beforeMs]);
      return rows[0]?.n ?? 0;
    },
  };
}
