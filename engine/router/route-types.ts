/**
 * The route search's request, its answer and its knobs: mints are mint-table ids, pools slab indices, amounts
 * atomic units (bigint) as the adapters' exact quotes produce them.
 */
import type { SwapMode } from '../adapters/types.js';
import type { DexId } from '../dex-ids.js';
import type { WatchedPools } from './route-pools.js';

/** One route search. Optional knobs default to {@link DEFAULT_ROUTE_LIMITS} and the values documented here. */
export interface RouteRequest {
  readonly inputMint: number;
  readonly outputMint: number;
  /** ExactIn: the amount paid; ExactOut: the amount wanted. Must be > 0. */
  readonly amount: bigint;
  readonly mode: SwapMode;
  /** 1..3 (default 3). */
  readonly maxHops?: number;
  /** Same as `maxHops: 1`. */
  readonly onlyDirectRoutes?: boolean;
  /** Only pools of these DEXes (default: every DEX with an adapter). */
  readonly dexes?: readonly DexId[];
  /** Never pools of these DEXes. */
  readonly excludeDexes?: readonly DexId[];
  /** Intermediates only among the liquid ones (SOL, USDC, USDT and the best-connected mints). */
  readonly restrictIntermediateTokens?: boolean;
  /** `performance.now()` past which the search gives up with ROUTE_TIMEOUT (default: none). */
  readonly deadlineMs?: number;
  /** How many of the best f64-ranked candidates are confirmed exactly (default {@link DEFAULT_ROUTE_LIMITS}). */
  readonly confirmCount?: number;
  /** How many routes to return at most (default 5). */
  readonly maxRoutes?: number;
  /** Slab view: VIEW_LATEST (0, default) or VIEW_CONFIRMED (1). */
  readonly view?: number;
  /** Wall clock (ms since the epoch) that pool staleness is judged against (default `Date.now()`). */
  readonly nowMs?: number;
  /**
   * Most accounts a route's swap transaction may reference (route-accounts.ts: the legs' `accountsPerSwap` plus
   * `ROUTE_ACCOUNT_OVERHEAD`); routes over it are not enumerated. Default: no bound.
   */
  readonly maxAccounts?: number;
  /**
   * Polled wherever the deadline is checked; true stops the search with `CANCELLED` (the client went away).
   * Default: never.
   */
  readonly cancelled?: () => boolean;
  /** Answer the pools the search read with their write sequences (`watched`; the quote stream). Default false. */
  readonly collectPools?: boolean;
}

/** One leg of a route, with the amounts its exact quote produced. */
export interface RouteHop {
  readonly pool: number;
  readonly dex: DexId;
  readonly inputMint: number;
  readonly outputMint: number;
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  /** Total fee the pool charges, in `feeMint`. */
  readonly feeAmount: bigint;
  readonly feeMint: number;
  /** The pool's fee as the adapter shows it (`DexAdapter.feeBps`). */
  readonly feeBps: number;
}

/** One confirmed route: every amount comes from chaining the adapters' exact quotes. */
export interface Route {
  readonly hops: readonly RouteHop[];
  /** What the first leg takes. */
  readonly inAmount: bigint;
  /** What the last leg delivers. */
  readonly outAmount: bigint;
  /** Shortfall of the route's average rate against its marginal rate (product of the legs' `marginalRate`). */
  readonly priceImpactBps: number;
  /** Total fee of the route: 1 - Π(1 - feeBps_i / 1e4), in bps. */
  readonly feeBps: number;
}

/** Why a search found nothing; `CANCELLED`: the request's `cancelled` said stop (nobody waits for the answer). */
export type RouteFailureCode = 'NO_ROUTE' | 'ROUTE_TIMEOUT' | 'CANCELLED';

/** The answer of a search: routes best first, or a typed failure (never an exception for expected outcomes). */
export type RouteSearchResult =
  | {
      readonly ok: true;
      readonly routes: readonly Route[];
      /** With `collectPools`: every pool the search read, with its write sequence before the read. */
      readonly watched?: WatchedPools;
    }
  | { readonly ok: false; readonly code: RouteFailureCode; readonly message: string };

/** Caps of the search; every one documented in engine/router/README.md. */
export interface RouteLimits {
  /** f64-ranked candidates confirmed exactly. */
  readonly confirmCount: number;
  /** Routes returned. */
  readonly maxRoutes: number;
  /** Candidates enumerated at most (direct first, then 2-hop, then 3-hop). */
  readonly maxCandidates: number;
  /** Pools kept per mint pair and direction (the best by marginal rate). */
  readonly maxPoolsPerPair: number;
  /** 3-hop: intermediates tried on each side (neighbours of input, of output), best-connected first. */
  readonly maxIntermediatesPerSide: number;
  /** 3-hop: an end with more pools than this is not scanned for neighbours; its side uses the liquid set. */
  readonly neighbourScanLimit: number;
  /** `restrictIntermediateTokens`: the liquid set is SOL, USDC, USDT and this many most liquid mints. */
  readonly liquidConnectors: number;
  /** Least time between two liquidity rankings of the connectors (each a pass over every pool). */
  readonly connectorRankMs: number;
  /** A pool whose record is older than this (ms, against `nowMs`) is stale and never used. */
  readonly maxPoolAgeMs: number;
}

/** Defaults of {@link RouteLimits}. */
export const DEFAULT_ROUTE_LIMITS: RouteLimits = Object.freeze({
  confirmCount: 8,
  maxRoutes: 5,
  maxCandidates: 2000,
  maxPoolsPerPair: 8,
  maxIntermediatesPerSide: 16,
  neighbourScanLimit: 512,
  liquidConnectors: 8,
  connectorRankMs: 10_000,
  maxPoolAgeMs: 300_000,
});
