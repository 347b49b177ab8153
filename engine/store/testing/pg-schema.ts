/**
 * A throwaway PostgreSQL schema per test run: the URL comes from `TEST_DATABASE_URL` (default
 * `postgres://postgres@127.0.0.1:5432/test`), the schema name is random, and `drop` removes it with CASCADE.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The test database URL. */
export function testDatabaseUrl(): string {
  return process.env['TEST_DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';
}

/** A random schema name with `prefix` (lowercase, so it needs no quoting). */
export function randomSchema(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** Null when the test database answers, else why not (tests then fail with this reason). */
export async function pgUnavailable(url = testDatabaseUrl()): Promise<string | null> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query('SELECT 1');
    return null;
  } catch (e) {
    return `PostgreSQL at ${url} is unreachable (${(e as Error).message}); start it or set TEST_DATABASE_URL`;
  } finally {
    await c.end().catch(() => {});
  }
}

/** Drops the schemas (CASCADE), ignoring those that do not exist. */
export async function dropSchemas(schemas: readonly string[], url = testDatabaseUrl()): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    for (const s of schemas) await c.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
  } finally {
    await c.end();
  }
}
