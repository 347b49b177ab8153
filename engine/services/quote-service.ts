/**
 * Quotes as the API gives them: one route search (in a quote worker, through the injected `route`), shaped into the
 * spec's quote frame plus ARCHITECTURE.md's fields, and kept under a quote id for the build step. Every amount is
 * what the exact path produced; nothing here computes an amount except the slippage bound.
 *
 * `maxAccounts` bounds the accounts of the returned routes' swap transactions (engine/router/README.md,
 * "maxAccounts"). A quote asked with an `AbortSignal` (the HTTP request's, aborted when its client goes away) is
 * abandoned when the signal fires: the route task is cancelled (the worker's search stops at its next deadline
 * check, or never starts), the outcome is `CANCELLED`, and no quote is stored, also when the answer was already on
 * its way back.
 */
import type { SwapMode } from '../adapters/types.js';
import { DEX_IDS, type DexId } from '../dex-ids.js';
import { QUOTE_TTL_MS, newQuoteId, type QuoteStore } from '../quotes/quote-store.js';
import type { RouteAnswer, RouteWatchWire, RouteWire } from '../router/route-wire.js';

/** Default time a quote's route search may take before ROUTE_TIMEOUT. */
export const DEFAULT_QUOTE_TIMEOUT_MS = 2000;

/** What a quote asks (mints as base58; the shell resolved symbols). */
export interface QuoteInput {
  readonly inputMint: string;
  readonly outputMint: string;
  readonly amount: bigint;
  readonly swapMode: SwapMode;
  readonly slippageBps: number;
  readonly maxHops: number;
  readonly onlyDirectRoutes: boolean;
  /** DEX ids (the shell checked them against {@link QuoteService.dexIds}). */
  readonly dexes: readonly string[];
  readonly excludeDexes: readonly string[];
  readonly restrictIntermediateTokens: boolean;
  /** Most accounts a route's swap transaction may reference (8..256; the shell checked it). Absent or null: no bound. */
  readonly maxAccounts?: number | null;
}

/** One route of the answer (amounts as decimal strings). */
export interface QuoteRouteBody {
  /** The first hop's DEX and pool. */
  readonly dex: string;
  readonly poolAddress: string;
  readonly inAmount: string;
  readonly outputAmount: string;
  readonly priceImpactBps: number;
  readonly feeBps: number;
  readonly poolCacheAgeMs: number;
  readonly confidence: 'confirmed' | 'optimistic';
  readonly hops: readonly {
    readonly dex: string;
    readonly poolAddress: string;
    readonly inputMint: string;
    readonly outputMint: string;
    readonly inAmount: string;
    readonly outAmount: string;
    readonly feeAmount: string;
    readonly feeMint: string;
    readonly feeBps: number;
  }[];
}

/** The answer of `POST /v1/quote`. */
export interface QuoteBody {
  readonly routes: readonly QuoteRouteBody[];
  readonly bestRoute: QuoteRouteBody;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly amount: string;
  readonly slippageBps: number;
  readonly poolsScanned: number;
  readonly quoteId: string;
  readonly expiresAt: number;
  readonly swapMode: SwapMode;
  readonly inAmount: string;
  readonly outAmount: string;
  /** ExactIn: the least output after slippage; ExactOut: the most input. */
  readonly otherAmountThreshold: string;
  readonly contextSlot: number;
  readonly timeTakenMs: number;
}

/**
 * A quote, or why none (the shell maps the code to the spec's status). `CANCELLED`: the quote's signal fired (its
 * client went away); nothing was stored and nobody reads the answer.
 */
export type QuoteOutcome =
  | { readonly ok: true; readonly body: QuoteBody }
  | { readonly ok: false; readonly code: 'NO_ROUTE' | 'ROUTE_TIMEOUT' | 'EXCEEDED_SLIPPAGE' | 'CANCELLED'; readonly message: string };

/** One route search as the service asks it. */
export type RouteAsk = Omit<QuoteInput, 'dexes' | 'excludeDexes' | 'swapMode' | 'slippageBps' | 'maxAccounts'> & {
  readonly mode: SwapMode;
  /** Absent: no bound. */
  readonly maxAccounts?: number;
  readonly dexes: readonly DexId[];
  readonly excludeDexes: readonly DexId[];
  readonly deadlineEpochMs: number;
  /** Answer the pools the search read with their write sequences (the quote stream). */
  readonly collectPools?: boolean;
};

/**
 * A quote for the quote stream: the outcome, the pools its search read with their write sequences (null when the
 * search answered none: a failure), and `commit`, which stores an ok quote under its id. Why separate: a stream
 * recomputes often and sends few frames; only a frame it sends needs to be in the store for the build step.
 */
export interface StreamQuote {
  readonly outcome: QuoteOutcome;
  readonly watch: RouteWatchWire | null;
  /** Stores the quote (ok outcomes; a no-op otherwise), exactly as `quote()` stores its answer. */
  commit(): Promise<void>;
}

/** What the quote service needs. */
export interface QuoteServiceDeps {
  /**
   * One route search with a wall-clock deadline (the quote worker pool's `route`); when `signal` fires it answers
   * `CANCELLED` as soon as it can.
   */
  readonly route: (task: RouteAsk, signal?: AbortSignal) => Promise<RouteAnswer>;
  readonly store: QuoteStore;
  /** Pools indexed (the answer's `poolsScanned`: the universe every search considers). */
  readonly poolCount: () => number;
  readonly now?: () => number;
  readonly timeoutMs?: number;
}

const ABANDONED: QuoteOutcome = Object.freeze({ ok: false, code: 'CANCELLED', message: 'the request was abandoned before its route search ended' });

function isDexId(d: string): d is DexId {
  return (DEX_IDS as readonly string[]).includes(d);
}

/** ExactIn: floor(out x (1 - s)); ExactOut: ceil(in x (1 + s)). */
export function slippageBound(mode: SwapMode, route: RouteWire, slippageBps: number): bigint {
  const bps = BigInt(slippageBps);
  if (mode === 'ExactIn') return (route.outAmount * (10_000n - bps)) / 10_000n;
  return (route.inAmount * (10_000n + bps) + 9_999n) / 10_000n;
}

function routeBody(r: RouteWire): QuoteRouteBody {
  const first = r.hops[0]!;
  return {
    dex: first.dex,
    poolAddress: first.poolAddress,
    inAmount: r.inAmount.toString(),
    outputAmount: r.outAmount.toString(),
    priceImpactBps: r.priceImpactBps,
    feeBps: r.feeBps,
    poolCacheAgeMs: r.poolCacheAgeMs,
    confidence: r.confirmed ? 'confirmed' : 'optimistic',
    hops: r.hops.map((h) => ({
      dex: h.dex,
      poolAddress: h.poolAddress,
      inputMint: h.inputMint,
      outputMint: h.outputMint,
      inAmount: h.inAmount.toString(),
      outAmount: h.outAmount.toString(),
      feeAmount: h.feeAmount.toString(),
      feeMint: h.feeMint,
      feeBps: h.feeBps,
    })),
  };
}

/** The quote service. */
export class QuoteService {
  /** The DEX ids a request may name in `dexes` / `excludeDexes`. */
  readonly dexIds: readonly string[] = DEX_IDS;
  private readonly now: () => number;
  private readonly timeoutMs: number;

  constructor(private readonly deps: QuoteServiceDeps) {
    this.now = deps.now ?? Date.now;
    this.timeoutMs = deps.timeoutMs ?? DEFAULT_QUOTE_TIMEOUT_MS;
  }

  /** Searches, shapes and stores one quote; `signal` abandons it (outcome `CANCELLED`, nothing stored). */
  async quote(input: QuoteInput, signal?: AbortSignal): Promise<QuoteOutcome> {
    const q = await this.compute(input, false, signal);
    // Why check the signal again: an answer already on its way back when the client went away is not stored.
    if (signal?.aborted) return ABANDONED;
    await q.commit();
    return q.outcome;
  }

  /** Searches and shapes one quote of the quote stream, with the pools to watch; stored only on `commit`. */
  streamQuote(input: QuoteInput): Promise<StreamQuote> {
    return this.compute(input, true);
  }

  private async compute(input: QuoteInput, collectPools: boolean, signal?: AbortSignal): Promise<StreamQuote> {
    const started = performance.now();
    const issuedAt = this.now();
    if (signal?.aborted) return { outcome: ABANDONED, watch: null, commit: async () => undefined };
    const answer = await this.deps.route({
      inputMint: input.inputMint,
      outputMint: input.outputMint,
      amount: input.amount,
      mode: input.swapMode,
      maxHops: input.maxHops,
      onlyDirectRoutes: input.onlyDirectRoutes,
      dexes: input.dexes.filter(isDexId),
      excludeDexes: input.excludeDexes.filter(isDexId),
      restrictIntermediateTokens: input.restrictIntermediateTokens,
      maxAccounts: input.maxAccounts ?? undefined,
      deadlineEpochMs: issuedAt + this.timeoutMs,
      ...(collectPools ? { collectPools } : {}),
    }, signal);
    const noCommit = async (): Promise<void> => undefined;
    // Why check the signal too: an answer that was already on its way back when the client went away is discarded.
    if (signal?.aborted || (!answer.ok && answer.code === 'CANCELLED')) return { outcome: ABANDONED, watch: null, commit: noCommit };
    if (!answer.ok) return { outcome: { ok: false, code: answer.code, message: answer.message }, watch: null, commit: noCommit };
    const watch = answer.watch ?? null;
    // The spec's EXCEEDED_SLIPPAGE: routes exist, but each moves the price by more than the caller tolerates.
    const within = answer.routes.filter((r) => r.priceImpactBps <= input.slippageBps);
    if (within.length === 0) {
      const least = Math.min(...answer.routes.map((r) => r.priceImpactBps));
      const outcome: QuoteOutcome = { ok: false, code: 'EXCEEDED_SLIPPAGE', message: `the least price impact of ${answer.routes.length} route(s) is ${least} bps, above slippageBps ${input.slippageBps}` };
      return { outcome, watch, commit: noCommit };
    }
    const best = within[0]!;
    const routes = within.map(routeBody);
    const quoteId = newQuoteId();
    const expiresAt = issuedAt + QUOTE_TTL_MS;
    const otherAmountThreshold = slippageBound(input.swapMode, best, input.slippageBps).toString();
    const body: QuoteBody = {
      routes,
      bestRoute: routes[0]!,
      inputMint: input.inputMint,
      outputMint: input.outputMint,
      amount: input.amount.toString(),
      slippageBps: input.slippageBps,
      poolsScanned: this.deps.poolCount(),
      quoteId,
      expiresAt,
      swapMode: input.swapMode,
      inAmount: best.inAmount.toString(),
      outAmount: best.outAmount.toString(),
      otherAmountThreshold,
      contextSlot: Number(answer.contextSlot),
      timeTakenMs: Math.round((performance.now() - started) * 1000) / 1000,
    };
    // What the build step replays: the best route with its legs, the mode, the amount asked, the slippage bound, the slot.
    const commit = (): Promise<void> =>
      this.deps.store.put({
        quoteId,
        expiresAtMs: expiresAt,
        payload: JSON.stringify({ swapMode: input.swapMode, slippageBps: input.slippageBps, otherAmountThreshold, contextSlot: body.contextSlot, amount: body.amount, route: routes[0] }),
      });
    return { outcome: { ok: true, body }, watch, commit };
  }
}
