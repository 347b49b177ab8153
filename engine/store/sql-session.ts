/**
 * What every driver shares: the session types the migrator and the repositories use, and the transaction rules
 * applied the same way on PGlite and PostgreSQL, so code tested on one behaves the same on the other:
 *
 * - Inside a transaction callback, only the transaction's client may be used. Touching the store itself from there
 *   throws `STORE_OUTSIDE_TX`: on PGlite (one connection, transactions hold its lock) it would wait forever, on
 *   PostgreSQL it would run outside the transaction (not see its writes, maybe block on its row locks).
 * - `tx.transaction(fn)` nests with a savepoint.
 * - A transaction client used after its transaction ended throws `STORE_TX_CLOSED`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { EngineError } from '../errors.js';
import type { SqlClient } from './types.js';

/** A {@link SqlClient} that also runs parameterless scripts of several statements (migrations). */
export interface SqlSession extends SqlClient {
  /** Runs one or more `;`-separated statements without parameters. */
  exec(script: string): Promise<void>;
  /** Runs `fn` in a transaction (a savepoint when already in one). */
  transaction<T>(fn: (tx: SqlSession) => Promise<T>): Promise<T>;
}

/** An open database: a PGlite instance or a PostgreSQL pool. */
export interface SqlDriver extends SqlSession {
  readonly kind: 'pglite' | 'postgres';
  /** Releases the database (idempotent). */
  close(): Promise<void>;
}

/** Statements on one connection: a running transaction. */
export interface RawSession {
  query<R>(text: string, params?: readonly unknown[]): Promise<R[]>;
  exec(script: string): Promise<void>;
}

/** What a driver implements; {@link wrapDriver} adds the shared rules. */
export interface DriverPrimitives extends RawSession {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` between BEGIN and COMMIT on one connection; ROLLBACK when it throws. */
  begin<T>(fn: (raw: RawSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

interface TxScope {
  readonly owner: object;
  open: boolean;
  readonly parent: TxScope | undefined;
}

// Why AsyncLocalStorage: the callback's awaits are the only way to know that a query on the store was issued from
// inside one of its transactions.
const scopes = new AsyncLocalStorage<TxScope>();

function insideOpenTx(owner: object): boolean {
  for (let s = scopes.getStore(); s; s = s.parent) if (s.owner === owner && s.open) return true;
  return false;
}

function refuseInsideTx(owner: object, what: string): void {
  if (insideOpenTx(owner)) {
    throw new EngineError('STORE_OUTSIDE_TX', `${what} on the store inside one of its transactions: use the transaction's client`);
  }
}

let savepointSeq = 0;

function txSession(raw: RawSession): { session: SqlSession; end: () => void } {
  let closed = false;
  const check = (): void => {
    if (closed) throw new EngineError('STORE_TX_CLOSED', 'transaction client used after its transaction ended');
  };
  const session: SqlSession = {
    async query<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R[]> {
      check();
      return raw.query<R>(text, params);
    },
    async exec(script: string): Promise<void> {
      check();
      await raw.exec(script);
    },
    async transaction<T>(fn: (tx: SqlSession) => Promise<T>): Promise<T> {
      check();
      const name = `sp_${++savepointSeq}`;
      await raw.exec(`SAVEPOINT ${name}`);
      try {
        const out = await fn(session);
        await raw.exec(`RELEASE SAVEPOINT ${name}`);
        return out;
      } catch (e) {
        await raw.exec(`ROLLBACK TO SAVEPOINT ${name}`);
        throw e;
      }
    },
  };
  return { session, end: () => (closed = true) };
}

/** Wraps a driver's primitives into a {@link SqlDriver} with the shared transaction rules. */
export function wrapDriver(p: DriverPrimitives): SqlDriver {
  let closed: Promise<void> | null = null;
  const driver: SqlDriver = {
    kind: p.kind,
    async query<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R[]> {
      refuseInsideTx(driver, 'query');
      return p.query<R>(text, params);
    },
    async exec(script: string): Promise<void> {
      refuseInsideTx(driver, 'exec');
      await p.exec(script);
    },
    async transaction<T>(fn: (tx: SqlSession) => Promise<T>): Promise<T> {
      refuseInsideTx(driver, 'transaction');
      return p.begin(async (raw) => {
        const { session, end } = txSession(raw);
        const scope: TxScope = { owner: driver, open: true, parent: scopes.getStore() };
        try {
          return await scopes.run(scope, () => fn(session));
        } finally {
          scope.open = false;
          end();
        }
      });
    },
    close(): Promise<void> {
      closed ??= p.close();
      return closed;
    },
  };
  return driver;
}
