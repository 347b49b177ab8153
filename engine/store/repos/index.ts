/** The repositories bound to one client. */
import type { Repos, SqlClient } from '../types.js';
import { keyRepo } from './keys.js';
import { pointsRepo } from './points.js';
import { usageRepo } from './usage.js';
import { priceBarRepo } from './price-bars.js';

/** Repositories over `sql`: the store's client, or a transaction's. */
export function reposOver(sql: SqlClient): Repos {
  return { keys: keyRepo(sql), points: pointsRepo(sql), usage: usageRepo(sql), prices: priceBarRepo(sql) };
}
