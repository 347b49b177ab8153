/**
 * A throwaway database for one test: a PGlite data directory under the OS temp folder, or a random schema in the
 * test PostgreSQL. `options` opens it (in this process or, passed as JSON, in a child process).
 */
import { rmSync } from 'node:fs';
import type { StoreOptions } from '../types.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from './pg-schema.js';
import { tempDir } from './temp-dir.js';

/** One test database. */
export interface TestDatabase {
  readonly driver: 'pglite' | 'postgres';
  /** Opens it with `openStore`. */
  readonly options: StoreOptions;
  /** True when several stores may be open on it at once (PostgreSQL; a PGlite directory is one process's). */
  readonly multiOpen: boolean;
  /** Deletes it. */
  drop(): Promise<void>;
}

/** A fresh PGlite database in a new temp directory (the store creates it on first open). */
export function pgliteTestDatabase(prefix = 'pglite-test'): TestDatabase {
  const dir = tempDir(prefix);
  const dataDir = `${dir.path}/db`;
  return {
    driver: 'pglite',
    options: { dataDir },
    multiOpen: false,
    drop: async () => {
      rmSync(`${dataDir}.lock`, { force: true });
      dir.remove();
    },
  };
}

/** A fresh schema in the test PostgreSQL (created on first open). */
export function postgresTestDatabase(prefix = 'pg_test'): TestDatabase {
  const databaseUrl = testDatabaseUrl();
  const schema = randomSchema(prefix);
  return {
    driver: 'postgres',
    options: { databaseUrl, schema },
    multiOpen: true,
    drop: () => dropSchemas([schema], databaseUrl),
  };
}
