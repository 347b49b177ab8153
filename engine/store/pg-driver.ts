/**
 * The PostgreSQL driver: a node-postgres pool. A transaction checks out one client for BEGIN ... COMMIT; a client
 * whose ROLLBACK fails is destroyed rather than returned to the pool in an unknown state. With a `schema`, every
 * connection starts with `search_path` set to it (startup option), so the same unqualified SQL serves every schema.
 */
import pg from 'pg';
import { EngineError } from '../errors.js';
import { wrapDriver, type RawSession, type SqlDriver } from './sql-session.js';

/** Options of {@link openPgDriver}. */
export interface PgDriverOptions {
  /** Schema for `search_path` (lowercase identifier); absent keeps the server default. */
  readonly schema?: string;
  /** Errors of idle pooled connections (the server restarted); without a listener they would crash the process. */
  readonly onError?: (e: unknown) => void;
  /** Pool size (default 10). */
  readonly max?: number;
}

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;

/** Throws `STORE_BAD_SCHEMA` unless `schema` is a plain lowercase identifier (it goes into SQL and startup options). */
export function checkSchemaName(schema: string): string {
  if (!IDENT.test(schema)) throw new EngineError('STORE_BAD_SCHEMA', `schema must match ${IDENT.source}; got ${schema}`);
  return schema;
}

/** Opens a pool on `url`. Connects lazily: the first statement reports an unreachable server. */
export function openPgDriver(url: string, opts: PgDriverOptions = {}): SqlDriver {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: 10_000,
    ...(opts.schema !== undefined ? { options: `-c search_path=${checkSchemaName(opts.schema)}` } : {}),
  });
  pool.on('error', (e) => opts.onError?.(e));
  const on = (c: pg.Pool | pg.PoolClient): RawSession => ({
    query: async <R>(text: string, params?: readonly unknown[]) => (await c.query(text, params ? [...params] : undefined)).rows as R[],
    exec: async (script: string) => {
      // No parameters: the simple protocol, which accepts several statements.
      await c.query(script);
    },
  });
  const raw = on(pool);
  return wrapDriver({
    kind: 'postgres',
    query: raw.query,
    exec: raw.exec,
    async begin<T>(fn: (raw: RawSession) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn(on(client));
        await client.query('COMMIT');
        client.release();
        return out;
      } catch (e) {
        try {
          await client.query('ROLLBACK');
          client.release();
        } catch (rollbackError) {
          client.release(rollbackError instanceof Error ? rollbackError : true);
        }
        throw e;
      }
    },
    close: () => pool.end(),
  });
}
