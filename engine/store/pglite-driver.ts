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
 *
 * Footprint: PostgreSQL starts with a small buffer pool ({@link pgliteStartParams}), V8 keeps its WebAssembly on the
 * baseline compiler ({@link keepWasmOnBaselineCompiler}), and a new directory is unpacked from the shipped template
 * instead of running initdb ({@link seedDataDir}); README.md, "Decisions".
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PGlite, types, type PGliteOptions } from '@electric-sql/pglite';
import { lockDataDir } from './dir-lock.js';
import { keepWasmOnBaselineCompiler, pgliteStartParams } from './pglite-settings.js';
import { seedDataDir, templateTar } from './pglite-template.js';
import { wrapDriver, type RawSession, type SqlDriver } from './sql-session.js';

/** True for PGlite's in-memory data directories. */
export function isMemoryDataDir(dataDir: string): boolean {
  return dataDir.startsWith('memory://');
}

/** Options of {@link openPgliteDriver}; the defaults are the measured choice (benchmarks turn them off). */
export interface PgliteDriverOptions {
  /** PostgreSQL's arguments (default {@link pgliteStartParams}; PGlite's own defaults: `PGlite.defaultStartParams`). */
  readonly startParams?: readonly string[];
  /** Start a new database from the shipped template instead of initdb (default true). */
  readonly template?: boolean;
  /** Let V8 optimize hot PGlite functions with TurboFan (default false). Process-wide: the first PGlite decides. */
  readonly wasmTierUp?: boolean;
}

/** Opens PGlite over `dataDir` (created if missing, locked to this process) or in memory (`memory://`). */
export async function openPgliteDriver(dataDir: string, opts: PgliteDriverOptions = {}): Promise<SqlDriver> {
  const memory = isMemoryDataDir(dataDir);
  const dir = memory ? dataDir : resolve(dataDir);
  const useTemplate = opts.template ?? true;
  let unlock = (): void => {};
  let db: PGlite;
  try {
    // Why the INT8 parser: PGlite parses int8 to a number, node-postgres to a string; the contract says string,
    // and repositories cast in SQL where they want numbers, so both drivers return the same JS types.
    const options: PGliteOptions = {
      parsers: { [types.INT8]: (v: string) => v },
      startParams: [...(opts.startParams ?? pgliteStartParams())],
    };
    if (memory) {
      const tar = useTemplate ? await templateTar() : null;
      if (tar) options.loadDataDir = new Blob([tar]);
    } else {
      mkdirSync(dirname(dir), { recursive: true });
      unlock = lockDataDir(dir);
      if (useTemplate) await seedDataDir(dir);
      mkdirSync(dir, { recursive: true });
    }
    if (!opts.wasmTierUp) keepWasmOnBaselineCompiler();
    db = await PGlite.create(dir, options);
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
