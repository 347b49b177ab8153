/**
 * What every adapter's `execute` (the program's state transition, for the localnet) starts and ends with: the pool's
 * account and its state built exactly as the quote sees them, or a loud error when the localnet set the pool up
 * without one of its accounts; a quote that moves nothing; a DataView over an account's bytes.
 */
import { EngineError } from '../../errors.js';
import type { ChainClock, ExecuteResult, PoolDescriptor, QuoteResult } from '../types.js';

/** Builds an adapter's state from the pool's account and its dependencies (`buildState` of the adapter). */
export type StateBuilder<S> = (pool: PoolDescriptor, data: Uint8Array, accounts: ReadonlyMap<string, Uint8Array>, clock: ChainClock) => S | null;

/**
 * The pool's account and built state. Throws EngineError `code` (message `what`) when the pool's account is absent,
 * the state cannot be built, or any of `required` (dependency keys the transition writes) is undefined.
 */
export function poolStateForExecute<S>(
  pool: PoolDescriptor,
  accounts: ReadonlyMap<string, Uint8Array>,
  clock: ChainClock,
  build: StateBuilder<S>,
  code: string,
  what: string,
  required: readonly (string | undefined)[] = [],
): { readonly data: Uint8Array; readonly state: S } {
  const data = accounts.get(pool.address);
  const state = data ? build(pool, data, accounts, clock) : null;
  if (!data || state === null || required.some((k) => !k)) throw new EngineError(code, what, { pool: pool.address });
  return { data, state };
}

/** The result of a swap the program refuses (or a quote that is not OK): the quote, no account written. */
export function notApplied(quote: QuoteResult): ExecuteResult {
  return { quote, writes: [] };
}

/** A DataView over exactly `data`'s bytes (a Node Buffer may be a view into a larger pool). */
export function accountView(data: Uint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
}
