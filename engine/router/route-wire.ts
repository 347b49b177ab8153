/**
 * A route search's answer as it leaves the searching thread: pools and mints as base58, amounts as bigints, with
 * the route's freshness. The quote worker produces it; the quote service shapes it into the API's quote.
 */
import type { DexId } from '../dex-ids.js';

/** One leg of a route. */
export interface RouteHopWire {
  readonly dex: DexId;
  readonly poolAddress: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  readonly feeAmount: bigint;
  readonly feeMint: string;
  readonly feeBps: number;
}

/** One route. */
export interface RouteWire {
  readonly hops: readonly RouteHopWire[];
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  readonly priceImpactBps: number;
  readonly feeBps: number;
  /** Age of the route's oldest pool record at the search (ms). */
  readonly poolCacheAgeMs: number;
  /** True when every pool of the route was read from a confirmed slot. */
  readonly confirmed: boolean;
}

/**
 * The pools a search read (slab indices) with each record's write sequence from before the search read it: the
 * quote stream recomputes only when one of them moved (`PoolSlab.writeSeq`). Parallel arrays.
 */
export interface RouteWatchWire {
  readonly pools: readonly number[];
  readonly seqs: readonly number[];
}

/**
 * Routes best first, or why none; `contextSlot` is the processed slot the slabs held at the search. `watch` only
 * when the task asked for it (`collectPools`). `CANCELLED`: the request was abandoned (its client went away);
 * nobody reads the answer and no quote is kept.
 */
export type RouteAnswer =
  | { readonly ok: true; readonly routes: readonly RouteWire[]; readonly contextSlot: bigint; readonly watch?: RouteWatchWire }
  | { readonly ok: false; readonly code: 'NO_ROUTE' | 'ROUTE_TIMEOUT' | 'CANCELLED'; readonly message: string; readonly contextSlot: bigint };
