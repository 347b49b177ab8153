/**
 * Ages a price computed earlier (an anonymous-cache answer served later): its ages grow by the time since, so a
 * cached answer never reports data younger than it is.
 */
import { DEFAULT_PRICE_CONFIG } from './price.js';
import { isPrice, type PriceEntry } from './price-types.js';

/** A copy of `e` whose `poolCacheAgeMs` and `optimisticAgeMs` are `elapsedMs` older (-1 past `staleAfterMs`). */
export function agedPriceEntry(e: PriceEntry, elapsedMs: number, staleAfterMs = DEFAULT_PRICE_CONFIG.staleAfterMs): PriceEntry {
  if (!isPrice(e) || elapsedMs <= 0) return e;
  const out = { ...e };
  if (out.poolCacheAgeMs >= 0) {
    const age = out.poolCacheAgeMs + elapsedMs;
    out.poolCacheAgeMs = age > staleAfterMs ? -1 : age;
  }
  if (out.optimisticAgeMs !== undefined) out.optimisticAgeMs += elapsedMs;
  return out;
}
