/**
 * Exact confirmation of one candidate, leg by leg, with each adapter's BigInt quote on the record read in place.
 * ExactIn walks forward (a leg's output is the next leg's input); ExactOut walks backward (a leg must deliver
 * exactly what the next one takes). Any leg that is not OK drops the route: no amount is ever estimated.
 */
import type { QuoteResult, SwapMode } from '../adapters/types.js';
import { DEX_IDS, type DexId } from '../dex-ids.js';
import type { PoolExactSnapshot, PoolF64Snapshot } from '../slab/pool-snapshot.js';
import type { PoolSideSource } from './pool-side.js';
import type { Candidate } from './route-candidates.js';
import type { Route, RouteHop } from './route-types.js';

/** Scratch snapshots the confirmation reads records into (one pair per searcher, reused). */
export interface ConfirmScratch {
  readonly exact: PoolExactSnapshot;
  readonly f64: PoolF64Snapshot;
}

/** The exact quote of leg `i` of `c`, or null when the record cannot be read or the pool cannot trade. */
function quoteLeg(src: PoolSideSource, view: number, s: ConfirmScratch, c: Candidate, i: number, amount: bigint, mode: SwapMode): QuoteResult | null {
  const leg = c.legs[i]!;
  if (!src.slab.readExact(leg.pool, view, s.exact) || s.exact.status !== 0) return null;
  const adapter = src.adapters[s.exact.dex];
  if (!adapter) return null;
  // fromRecord may keep references into the scratch's arrays: the quote runs before the next read overwrites them.
  const q = adapter.quote(adapter.fromRecord(s.exact), leg.aToB, amount, mode);
  if (q.status !== 'OK' || q.inAmount <= 0n || q.outAmount <= 0n) return null;
  // ExactOut: a leg that cannot deliver exactly the amount (an inverted sell that overshoots, a capped buy that
  // falls short) cannot quote exact-out; the route is skipped rather than approximated.
  if (mode === 'ExactOut' && q.outAmount !== amount) return null;
  return q;
}

/** The confirmed route of `c` for `amount` in `mode`, or null when any leg fails. */
export function confirmRoute(src: PoolSideSource, view: number, s: ConfirmScratch, c: Candidate, amount: bigint, mode: SwapMode): Route | null {
  const n = c.legs.length;
  const quotes: QuoteResult[] = new Array<QuoteResult>(n);
  if (mode === 'ExactIn') {
    let x = amount;
    for (let i = 0; i < n; i++) {
      const q = quoteLeg(src, view, s, c, i, x, mode);
      if (q === null) return null;
      quotes[i] = q;
      x = q.outAmount;
    }
  } else {
    let need = amount;
    for (let i = n - 1; i >= 0; i--) {
      const q = quoteLeg(src, view, s, c, i, need, mode);
      if (q === null) return null;
      quotes[i] = q;
      need = q.inAmount;
    }
  }
  const hops: RouteHop[] = [];
  let marginal = 1;
  let keep = 1;
  for (let i = 0; i < n; i++) {
    const leg = c.legs[i]!;
    const q = quotes[i]!;
    if (!src.slab.readF64(leg.pool, view, s.f64)) return null;
    const adapter = src.adapters[s.f64.dex]!;
    const feeBps = adapter.feeBps(s.f64);
    marginal *= adapter.marginalRate(s.f64, leg.aToB);
    keep *= 1 - feeBps / 10_000;
    hops.push({
      pool: leg.pool,
      dex: (DEX_IDS[s.f64.dex] ?? 'unknown') as DexId,
      inputMint: c.mints[i]!,
      outputMint: c.mints[i + 1]!,
      inAmount: q.inAmount,
      outAmount: q.outAmount,
      feeAmount: q.feeAmount,
      feeMint: q.feeOnInput ? c.mints[i]! : c.mints[i + 1]!,
      feeBps,
    });
  }
  const inAmount = hops[0]!.inAmount;
  const outAmount = hops[n - 1]!.outAmount;
  const rate = Number(outAmount) / Number(inAmount);
  const impact = marginal > 0 && Number.isFinite(marginal) ? (1 - rate / marginal) * 10_000 : 0;
  return {
    hops,
    inAmount,
    outAmount,
    priceImpactBps: Math.max(0, Math.round(impact * 100) / 100),
    feeBps: Math.round((1 - keep) * 10_000 * 100) / 100,
  };
}
