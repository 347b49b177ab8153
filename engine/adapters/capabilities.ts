/**
 * What an adapter can do, beyond quoting ExactIn: the capability flags of the {@link DexAdapter} contract (after
 * Jupiter's `Amm` trait: `supports_exact_out`, `get_accounts_len`, `has_dynamic_accounts`, `unidirectional`), read
 * through these helpers so that an adapter that leaves a flag out gets the safe default, never an optimistic one.
 */
import type { DexAdapter } from './types.js';

/**
 * Accounts assumed for an adapter that does not state `accountsPerSwap`. Why 64: too many only keeps a route out of
 * a small `maxAccounts` budget (safe); too few would let a route past a budget its transaction then breaks.
 */
export const DEFAULT_ACCOUNTS_PER_SWAP = 64;

/** The flags of one adapter with every default applied. */
export interface AdapterCapabilities {
  /** ExactOut quotes are exact in both directions. Default false. */
  readonly exactOut: boolean;
  /** ExactOut quotes are exact for B -> A (`aToB` false) even when `exactOut` is false. Default false. */
  readonly exactOutBToA: boolean;
  /** The most accounts the adapter's swap instruction references. Default {@link DEFAULT_ACCOUNTS_PER_SWAP}. */
  readonly accountsPerSwap: number;
  /** The swap's accounts depend on the pool's changing state (tick arrays, bins). Default false. */
  readonly dynamicAccounts: boolean;
  /** The pool trades A -> B only. Default false. */
  readonly unidirectional: boolean;
}

/** The capabilities of `a`, defaults applied. */
export function capabilitiesOf(a: DexAdapter): AdapterCapabilities {
  return {
    exactOut: a.exactOut ?? false,
    exactOutBToA: a.exactOutBToA ?? false,
    accountsPerSwap: a.accountsPerSwap ?? DEFAULT_ACCOUNTS_PER_SWAP,
    dynamicAccounts: a.dynamicAccounts ?? false,
    unidirectional: a.unidirectional ?? false,
  };
}

/** True when a leg of `a` in direction `aToB` can quote ExactOut exactly (the route search's admission rule). */
export function quotesExactOut(a: DexAdapter, aToB: boolean): boolean {
  return a.exactOut === true || (!aToB && a.exactOutBToA === true);
}

/** The accounts a leg of `a` counts against a route's `maxAccounts` budget. */
export function accountsPerSwapOf(a: DexAdapter): number {
  return a.accountsPerSwap ?? DEFAULT_ACCOUNTS_PER_SWAP;
}
