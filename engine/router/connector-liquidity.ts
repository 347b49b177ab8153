/**
 * Liquidity of every mint as a connector: the value of the anchor side (SOL, USDC, USDT) of each of its tradable
 * pools against an anchor, twice (a constant-product pool holds equal value on both sides), in USD. USDC and USDT
 * count at 1; SOL at the price of the SOL/USD pool with the deepest USD side. Pools between two non-anchors add
 * nothing (their value is unknown without a price of either side). f64 throughout: a ranking, never an amount.
 */
import { FLAG_TRADABLE } from '../slab/layout.js';
import { newF64Snapshot } from '../slab/pool-snapshot.js';
import { VIEW_LATEST } from '../slab/pool-slab.js';
import type { PoolSideSource } from './pool-side.js';

/** Anchor mint ids: SOL (or undefined when not in the table) and the USD stablecoins. */
export interface Anchors {
  readonly sol: number | undefined;
  readonly usd: readonly number[];
}

/** USD liquidity per mint id (anchors included, against the other anchors), indexed by mint id. */
export function connectorLiquidity(src: PoolSideSource, anchors: Anchors): Float64Array {
  const { slab, mints } = src;
  const liq = new Float64Array(mints.count());
  const s = newF64Snapshot();
  const scale = (m: number): number => 10 ** mints.decimals(m);
  const isUsd = (m: number): boolean => anchors.usd.includes(m);
  // SOL's price from the SOL/USD pool with the deepest USD side (no such pool: SOL counts at 1 USD, a ranking still).
  let solUsd = 1;
  let deepest = 0;
  const n = slab.count();
  for (let p = 0; p < n; p++) {
    if (!slab.readF64(p, VIEW_LATEST, s) || s.status !== 0 || (s.flags & FLAG_TRADABLE) === 0) continue;
    const solA = s.mintA === anchors.sol && isUsd(s.mintB);
    const solB = s.mintB === anchors.sol && isUsd(s.mintA);
    if (!solA && !solB) continue;
    const usd = (solA ? s.reserveB / scale(s.mintB) : s.reserveA / scale(s.mintA));
    const sol = (solA ? s.reserveA / scale(s.mintA) : s.reserveB / scale(s.mintB));
    if (usd > deepest && sol > 0) {
      deepest = usd;
      solUsd = usd / sol;
    }
  }
  const value = (m: number, reserve: number): number => {
    if (isUsd(m)) return reserve / scale(m);
    if (m === anchors.sol) return (reserve / scale(m)) * solUsd;
    return 0;
  };
  for (let p = 0; p < n; p++) {
    if (!slab.readF64(p, VIEW_LATEST, s) || s.status !== 0 || (s.flags & FLAG_TRADABLE) === 0) continue;
    const va = value(s.mintA, s.reserveA);
    const vb = value(s.mintB, s.reserveB);
    if (!(Number.isFinite(va) && Number.isFinite(vb))) continue;
    if (vb > 0 && s.mintA < liq.length) liq[s.mintA]! += 2 * vb;
    if (va > 0 && s.mintB < liq.length) liq[s.mintB]! += 2 * va;
  }
  return liq;
}
