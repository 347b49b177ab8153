/**
 * Candidate routes of a search: direct, then 2-hop, then 3-hop paths of usable pools through distinct mints,
 * ranked with the adapters' f64 estimates (no BigInt). Exact confirmation is route-confirm.ts's job.
 */
import type { SwapMode } from '../adapters/types.js';
import type { PoolF64Snapshot } from '../slab/pool-snapshot.js';
import type { PoolSideSource } from './pool-side.js';
import type { Intermediates } from './route-intermediates.js';
import type { PoolLeg, RoutePools } from './route-pools.js';

/** One candidate path; `mints` has one more entry than `legs`. */
export interface Candidate {
  readonly legs: readonly PoolLeg[];
  readonly mints: readonly number[];
  /** f64 ranking score, higher is better (see {@link scoreCandidates}). */
  score: number;
}

/** What enumeration needs. */
export interface EnumerateParams {
  readonly input: number;
  readonly output: number;
  readonly maxHops: number;
  readonly restricted: boolean;
  readonly maxCandidates: number;
  readonly maxIntermediatesPerSide: number;
  /** A mint with more pools than this is not scanned for neighbours (see {@link enumerateCandidates}). */
  readonly neighbourScanLimit: number;
  /** Called between enumeration steps; true stops it (deadline passed, search cancelled). */
  readonly expired: () => boolean;
  /**
   * Most accounts the legs of a candidate may reference together (`maxAccounts` less the transaction overhead,
   * route-accounts.ts); a path over it is never a candidate. Default: no bound.
   */
  readonly legAccountBudget?: number;
}

/** Every candidate path up to `maxHops`, or null when `expired` said stop. */
export function enumerateCandidates(pools: RoutePools, inter: Intermediates, p: EnumerateParams): Candidate[] | null {
  const out: Candidate[] = [];
  const { input, output, maxCandidates } = p;
  const full = (): boolean => out.length >= maxCandidates;
  const budget = p.legAccountBudget ?? Infinity;
  for (const l of pools.legs(input, output)) {
    if (full()) break;
    if (l.accounts > budget) continue;
    out.push({ legs: [l], mints: [input, output], score: 0 });
  }
  if (p.maxHops < 2 || full()) return out;
  const isInter = (m: number): boolean => m !== input && m !== output && inter.allowed(m, p.restricted);
  // 2-hop: the intermediates are the neighbours of the end with fewer pools (each checked against the other end);
  // between two hubs (both ends above neighbourScanLimit, e.g. SOL -> USDC), the liquid set instead.
  // Why: a hub pair shares thousands of long-tail neighbours; scanning them cost 3 ms at 20,000 pools (bench
  // route-search-scale), and a path through a thin pool cannot beat the hubs' own deep pools and liquid connectors.
  const scanInput = pools.degree(input) <= pools.degree(output);
  const scanEnd = scanInput ? input : output;
  const mids = pools.degree(scanEnd) <= p.neighbourScanLimit
    ? inter.order(pools.neighbours(scanEnd).filter(isInter))
    : inter.liquidMints().filter(isInter);
  for (const m of mids) {
    if (p.expired()) return null;
    const first = pools.legs(input, m);
    if (first.length === 0) continue;
    const second = pools.legs(m, output);
    for (const l1 of first) {
      for (const l2 of second) {
        if (full()) return out;
        if (l1.accounts + l2.accounts > budget) continue;
        out.push({ legs: [l1, l2], mints: [input, m, output], score: 0 });
      }
    }
  }
  if (p.maxHops < 3) return out;
  const side1 = side(pools, inter, input, true, isInter, p);
  const side2 = side(pools, inter, output, false, isInter, p);
  for (const m1 of side1) {
    if (p.expired()) return null;
    const first = pools.legs(input, m1);
    for (const m2 of side2) {
      if (m2 === m1) continue;
      const middle = pools.legs(m1, m2);
      if (middle.length === 0) continue;
      const last = pools.legs(m2, output);
      for (const l1 of first) {
        for (const l2 of middle) {
          for (const l3 of last) {
            if (full()) return out;
            if (l1.accounts + l2.accounts + l3.accounts > budget) continue;
            out.push({ legs: [l1, l2, l3], mints: [input, m1, m2, output], score: 0 });
          }
        }
      }
    }
  }
  return out;
}

/**
 * 3-hop intermediates next to `end` (after the input when `fromEnd`, before the output otherwise), best priority
 * first, at most `maxIntermediatesPerSide`: its neighbours when it has at most `neighbourScanLimit` pools, else the
 * liquid mints (SOL, USDC, USDT, best-connected) that a usable pool connects to it (a hub is never scanned).
 */
function side(pools: RoutePools, inter: Intermediates, end: number, fromEnd: boolean, isInter: (m: number) => boolean, p: EnumerateParams): number[] {
  const connected = (m: number): boolean => (fromEnd ? pools.legs(end, m) : pools.legs(m, end)).length > 0;
  const mints = pools.degree(end) <= p.neighbourScanLimit
    ? inter.order(pools.neighbours(end).filter(isInter))
    : inter.liquidMints().filter((m) => isInter(m) && connected(m));
  return mints.slice(0, p.maxIntermediatesPerSide);
}

/** f64 output of a candidate for `amountIn` (0 when a leg estimates nothing, NaN included). */
function chainEstimate(src: PoolSideSource, view: number, scratch: PoolF64Snapshot, c: Candidate, amountIn: number): number {
  let x = amountIn;
  for (const l of c.legs) {
    if (!src.slab.readF64(l.pool, view, scratch)) return 0;
    x = src.adapters[scratch.dex]!.estimateOut(scratch, l.aToB, x);
    if (!(x > 0)) return 0;
  }
  return x;
}

/**
 * Scores candidates in place, higher better. ExactIn: the f64 output of `amount`. ExactOut: the f64 output of one
 * common probe input, the input the route with the best marginal rate would need (`amount / best marginal`): the
 * same input for every candidate, so a larger output ranks a route that needs less input for `amount` first.
 */
export function scoreCandidates(src: PoolSideSource, view: number, scratch: PoolF64Snapshot, cands: Candidate[], mode: SwapMode, amount: bigint): void {
  let probe = Number(amount);
  if (mode === 'ExactOut') {
    let best = 0;
    for (const c of cands) {
      let m = 1;
      for (const l of c.legs) m *= l.marginal;
      if (m > best) best = m;
    }
    if (best > 0) probe = Math.max(1, probe / best);
  }
  for (const c of cands) c.score = chainEstimate(src, view, scratch, c, probe);
}
