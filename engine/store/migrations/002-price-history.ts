/**
 * The service's own price history: one-minute OHLC bars of the USD price per mint, sampled from the service's
 * prices (`engine/services/price-history.ts`), kept a little over 25 hours. `change24h` and the candles route read it.
 *
 * - `minute_ms` is the bar's start in epoch ms (a multiple of 60,000); prices are float8, as the API's numbers.
 * - The primary key makes a flush an upsert: a minute flushed twice (a restart inside it) keeps the first open, the
 *   widest high and low and the latest close.
 * - `price_bars_minute_idx` serves the retention delete (every bar older than the horizon).
 */
import type { Migration } from './migration.js';

/** Migration 2. */
export const migration002: Migration = {
  id: 2,
  name: 'price-history',
  sql: `
CREATE TABLE price_bars (
  mint text NOT NULL,
  minute_ms bigint NOT NULL CHECK (minute_ms % 60000 = 0),
  open double precision NOT NULL,
  high double precision NOT NULL,
  low double precision NOT NULL,
  close double precision NOT NULL,
  samples integer NOT NULL CHECK (samples > 0),
  PRIMARY KEY (mint, minute_ms)
);
CREATE INDEX price_bars_minute_idx ON price_bars (minute_ms);
`,
};
