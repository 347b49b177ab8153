/**
 * The embedded driver: PostgreSQL compiled to WebAssembly (PGlite), running in this process over a data directory
 * (NODEFS: every write goes straight to the host file) or in memory (`memory://`).
 *
 * Serialization: PGlite is one single-user backend. Every `query`/`exec` outside a transaction and every whole
 * `transaction` callback runs under one mutex, so a statement issued on the store while a transaction is open
 * waits until that transaction commits or rolls back: it never lands inside it. The flip side is that querying
 * the store from inside the callback would wait for itself; {@link wrapDriver} turns that into an error.
 *
 * Durability: PGlite starts PostgreSQL with `-F` (fsync off). A commit has written its WAL to the file (the OS page
 * cache) before it returns, so a killed process (kill -9) loses nothing committed (`durability.pglite.test.ts`); an
 * OS crash or power loss may lose the last commits. Run PostgreSQL when that matters.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import { lockDataDir } from './dir-lock.js';
import { wrapDriver, type RawSession, type SqlDriver } from './sql-session.js';

/** True for PGlite's in-memory data directories. */
export function isMemoryDataDir(dataDir: string): boolean {
  return dataDir.startsWith('memory://');
}

/** Opens PGlite over `dataDir` (created if missing, locked to this process) or in memory (`memory://`). */
export async function openPgliteDriver(dataDir: string): Promise<SqlDriver> {
  const memory = isMemoryDataDir(dataDir);
  const dir = memory ? dataDir : resolve(dataDir);
  let unlock = (): void => {};
  if (!memory) {
    mkdirSync(dirname(dir), { recursive: true });
    unlock = lockDataDir(dir);
    mkdirSync(dir, { recursive: true });
  }
  let db: PGlite;
  try {
    // Why the INT8 parser: PGlite parses int8 to a number, node-postgres to a string; the contract says string,
    // and repositories cast in SQL where they want numbers, so both drivers return the same JS types.
    db = await PGlite.create(dir, { parsers: { [types.INT8]: (v: string) => v } });
  } catch (e) {
    unlock();
    throw e;
  }
  return wrapDriver({
    kind: 'pglite',
    query: async <R>(text: string, params?: readonly unknown[]) => (await db.query<R>(text, params ? [...params] : undefined)).rows,
    exec: async (script: string) => {
      await db.exec(script);
    },
    begin: <T>(fn: (raw: RawSession) => Promise<T>) =>
      db.transaction((tx) =>
        fn({
          query: async <R>(text: string, params?: readonly unknown[]) => (await tx.query<R>(text, params ? [...params] : undefined)).rows,
          exec: async (script: string) => {
            await tx.exec(script);
          },
        }),
      ),
    close: async () => {
      try {
        await db.close();
      } finally {
        unlock();
      }
    },
  });
}
