/**
 * Applies the migrations that a database lacks, each in its own transaction, recorded in `schema_migrations`.
 *
 * Instances starting together against one PostgreSQL are serialized by a transaction-scoped advisory lock taken
 * first in every migration transaction (and around `CREATE SCHEMA`): the second waits, then finds the work done.
 * `CREATE ... IF NOT EXISTS` alone would not do: two concurrent ones can both fail on the catalog's unique indexes.
 * PGlite has one connection, so the lock is always free there, and the function exists, so the SQL is the same.
 */
import { EngineError } from '../errors.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';
import type { SqlSession } from './sql-session.js';

/** The advisory lock key of schema changes ("store" in ASCII). */
export const STORE_LOCK_KEY = 0x73746f7265;

const BOOTSTRAP = `CREATE TABLE IF NOT EXISTS schema_migrations (
  id integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

async function lockSchema(tx: SqlSession): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [STORE_LOCK_KEY]);
}

/** Throws `STORE_BAD_MIGRATIONS` unless ids run 1, 2, ... n. */
export function checkMigrationList(list: readonly Migration[]): void {
  list.forEach((m, i) => {
    if (m.id !== i + 1) throw new EngineError('STORE_BAD_MIGRATIONS', `migration #${i} has id ${m.id}, expected ${i + 1}`);
  });
}

/** Creates `schema` if missing, under the schema lock. */
export async function ensureSchema(db: SqlSession, schema: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockSchema(tx);
    // The name was checked to be a plain identifier by the driver.
    await tx.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  });
}

/**
 * Brings the database up to date; returns the ids it applied (empty when another instance, or an earlier start,
 * did). Refuses (`STORE_MIGRATION_MISMATCH`) when an applied id has another name: the code and the database
 * disagree about history. Ids above the code's last are left alone (a newer instance migrated; migrations only add).
 */
export async function migrate(db: SqlSession, list: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  checkMigrationList(list);
  const applied = await db.transaction(async (tx) => {
    await lockSchema(tx);
    await tx.exec(BOOTSTRAP);
    return tx.query<{ id: number; name: string }>('SELECT id, name FROM schema_migrations ORDER BY id');
  });
  const known = new Map(applied.map((r) => [r.id, r.name]));
  for (const m of list) {
    const name = known.get(m.id);
    if (name !== undefined && name !== m.name) {
      throw new EngineError('STORE_MIGRATION_MISMATCH', `migration ${m.id} is recorded as ${name}, the code calls it ${m.name}`);
    }
  }
  const done: number[] = [];
  for (const m of list) {
    if (known.has(m.id)) continue;
    const ran = await db.transaction(async (tx) => {
      await lockSchema(tx);
      // Another instance may have applied it while we waited for the lock.
      const again = await tx.query('SELECT 1 FROM schema_migrations WHERE id = $1', [m.id]);
      if (again.length > 0) return false;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (id, name, applied_at) VALUES ($1, $2, now())', [m.id, m.name]);
      return true;
    });
    if (ran) done.push(m.id);
  }
  return done;
}
