/**
 * The price object of the spec and its unavailable form, as produced by price derivation.
 */

/** `confirmed`: state verified on chain; `optimistic`: processed, not yet confirmed. */
export type Confidence = 'confirmed' | 'optimistic';

/** The spec's price object (single price, stream frame, batch entry). */
export interface PriceObject {
  token: string;
  mint: string;
  priceUsd: number;
  bestBid: number;
  bestAsk: number;
  bestBidPool: string;
  bestAskPool: string;
  bestBidDex: string;
  bestAskDex: string;
  bestBidFeeBps: number;
  bestAskFeeBps: number;
  poolCacheAgeMs: number;
  confidence: Confidence;
  optimisticAgeMs?: number;
  poolCount: number;
  timestamp: number;
  route: string;
  change24h?: number;
}

/** The spec's unavailable entry. */
export interface UnavailablePrice {
  token: string;
  status: 'unavailable';
  reason: string;
}

/** One entry of a price answer. */
export type PriceEntry = PriceObject | UnavailablePrice;

/** True when the entry is a price (not the unavailable form). */
export function isPrice(e: PriceEntry): e is PriceObject {
  return (e as UnavailablePrice).status !== 'unavailable';
}
