/**
 * Opens the store: PostgreSQL when a `databaseUrl` is given, else PGlite over a data directory (default
 * `<project>/data/pglite`). Migrations run before the store is returned, so a returned store is always current.
 */
import { join } from 'node:path';
import { EngineError } from '../errors.js';
import { ensureSchema, migrate } from './migrate.js';
import { checkSchemaName, openPgDriver } from './pg-driver.js';
import { openPgliteDriver } from './pglite-driver.js';
import { projectRoot } from './project-root.js';
import { reposOver } from './repos/index.js';
import type { SqlDriver } from './sql-session.js';
import type { Store, StoreOptions } from './types.js';

export { projectRoot };

/** The PGlite data directory used when none is given. */
export function defaultDataDir(): string {
  return join(projectRoot(), 'data', 'pglite');
}

/** A store over an open, migrated driver. */
export function storeOver(driver: SqlDriver): Store {
  return {
    driver: driver.kind,
    sql: driver,
    ...reposOver(driver),
    transaction: (fn) => driver.transaction((tx) => fn(reposOver(tx))),
    close: () => driver.close(),
  };
}

/** Opens (creating and migrating as needed) the store described by `opts`. */
export async function openStore(opts: StoreOptions = {}): Promise<Store> {
  const url = opts.databaseUrl ?? '';
  if (url !== '' && !/^postgres(ql)?:\/\//.test(url)) {
    throw new EngineError('STORE_BAD_URL', 'databaseUrl must start with postgres:// or postgresql://');
  }
  const schema = url !== '' && opts.schema !== undefined ? checkSchemaName(opts.schema) : undefined;
  const driver: SqlDriver =
    url !== '' ? openPgDriver(url, { schema, onError: opts.onError }) : await openPgliteDriver(opts.dataDir ?? defaultDataDir());
  try {
    if (schema !== undefined) await ensureSchema(driver, schema);
    await migrate(driver);
  } catch (e) {
    await driver.close();
    throw e;
  }
  return storeOver(driver);
}
