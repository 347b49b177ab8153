/**
 * Test support: the reference of the route search. Every route of up to 3 hops through distinct mints over a
 * universe's usable pools, each confirmed by chaining the adapters' exact quotes on the pools' record images
 * (not the slab), with the search's exact-out rules (each leg delivers exactly what the next one takes, in a
 * direction its adapter declares exact-out) and, when given, its `maxAccounts` rule (route-accounts.ts).
 */
import { accountsPerSwapOf, quotesExactOut } from '../../adapters/capabilities.js';
import type { QuoteResult, SwapMode } from '../../adapters/types.js';
import { routeAccounts } from '../route-accounts.js';
import type { Universe, UniversePool } from './random-universe.js';

/** One brute-force route: its pools and the exact amounts. */
export interface BruteRoute {
  readonly pools: readonly number[];
  readonly inAmount: bigint;
  readonly outAmount: bigint;
}

/** True when a pool may trade: record status 0 and updated at or after `oldestMs`. */
export function usablePool(p: UniversePool, oldestMs: number): boolean {
  return p.fields.status === 0 && p.updatedAtMs >= oldestMs;
}

/** The exact quote of one leg, or null when it is not OK (or not exact for ExactOut). */
export function exactLeg(p: UniversePool, from: number, amount: bigint, mode: SwapMode): QuoteResult | null {
  if (mode === 'ExactOut' && !quotesExactOut(p.adapter, p.mintA === from)) return null;
  if (p.mintA !== from && p.adapter.unidirectional === true) return null;
  const q = p.adapter.quote(p.adapter.fromRecord(p.fields), p.mintA === from, amount, mode);
  if (q.status !== 'OK' || q.inAmount <= 0n || q.outAmount <= 0n) return null;
  if (mode === 'ExactOut' && q.outAmount !== amount) return null;
  return q;
}

/** The accounts of a route over `pools` (its legs' `accountsPerSwap` plus the transaction overhead). */
export function bruteRouteAccounts(pools: readonly UniversePool[]): number {
  return routeAccounts(pools.reduce((n, p) => n + accountsPerSwapOf(p.adapter), 0));
}

/** Every confirmed route of up to `maxHops` from `input` to `output` (within `maxAccounts` when given). */
export function bruteForceRoutes(u: Universe, input: number, output: number, amount: bigint, mode: SwapMode, oldestMs: number, maxHops = 3, maxAccounts = Infinity): BruteRoute[] {
  const usable = u.pools.filter((p) => usablePool(p, oldestMs));
  const paths: { pools: UniversePool[]; mints: number[] }[] = [];
  const walk = (pools: UniversePool[], mints: number[]): void => {
    const at = mints[mints.length - 1]!;
    if (at === output) {
      paths.push({ pools, mints });
      return;
    }
    if (pools.length === maxHops) return;
    for (const p of usable) {
      if (p.mintA !== at && p.mintB !== at) continue;
      const next = p.mintA === at ? p.mintB : p.mintA;
      if (mints.includes(next)) continue;
      walk([...pools, p], [...mints, next]);
    }
  };
  walk([], [input]);
  const out: BruteRoute[] = [];
  for (const { pools, mints } of paths) {
    if (bruteRouteAccounts(pools) > maxAccounts) continue;
    const n = pools.length;
    const quotes: QuoteResult[] = [];
    let ok = true;
    if (mode === 'ExactIn') {
      let x = amount;
      for (let i = 0; i < n && ok; i++) {
        const q = exactLeg(pools[i]!, mints[i]!, x, mode);
        if (q === null) ok = false;
        else { quotes[i] = q; x = q.outAmount; }
      }
    } else {
      let need = amount;
      for (let i = n - 1; i >= 0 && ok; i--) {
        const q = exactLeg(pools[i]!, mints[i]!, need, mode);
        if (q === null) ok = false;
        else { quotes[i] = q; need = q.inAmount; }
      }
    }
    if (ok) out.push({ pools: pools.map((p) => p.pool), inAmount: quotes[0]!.inAmount, outAmount: quotes[n - 1]!.outAmount });
  }
  return out;
}

/** The best of `routes` as the search ranks (ExactIn: most out; ExactOut: least in), or null. */
export function bestOf(routes: readonly BruteRoute[], mode: SwapMode): BruteRoute | null {
  let best: BruteRoute | null = null;
  for (const r of routes) {
    if (best === null || (mode === 'ExactIn' ? r.outAmount > best.outAmount : r.inAmount < best.inAmount)) best = r;
  }
  return best;
}
