/**
 * Route search over the slabs, read in place: candidates (direct, 2-hop, 3-hop through automatic intermediates)
 * ranked by the adapters' f64 estimates, the best `confirmCount` confirmed exactly leg by leg with BigInt quotes,
 * the confirmed ones returned best first. Pure reads, any thread; one searcher per thread (it owns scratch).
 */
import { dexIndex } from '../dex-ids.js';
import { newExactSnapshot, newF64Snapshot } from '../slab/pool-snapshot.js';
import { VIEW_LATEST } from '../slab/pool-slab.js';
import type { PoolSideSource } from './pool-side.js';
import { enumerateCandidates, scoreCandidates, type Candidate } from './route-candidates.js';
import { confirmRoute, type ConfirmScratch } from './route-confirm.js';
import { Intermediates } from './route-intermediates.js';
import { RoutePools } from './route-pools.js';
import { ROUTE_ACCOUNT_OVERHEAD } from './route-accounts.js';
import { DEFAULT_ROUTE_LIMITS, type Route, type RouteLimits, type RouteRequest, type RouteSearchResult } from './route-types.js';

const TIMEOUT: RouteSearchResult = Object.freeze({ ok: false, code: 'ROUTE_TIMEOUT', message: 'route search deadline passed' });
const CANCELLED: RouteSearchResult = Object.freeze({ ok: false, code: 'CANCELLED', message: 'route search cancelled' });
const NEVER = (): boolean => false;

function noRoute(message: string): RouteSearchResult {
  return { ok: false, code: 'NO_ROUTE', message };
}

/** Better-first order of confirmed routes: ExactIn more out, ExactOut less in; then fewer hops, then pool ids. */
function compareRoutes(exactIn: boolean, x: Route, y: Route): number {
  const primary = exactIn ? y.outAmount - x.outAmount : x.inAmount - y.inAmount;
  if (primary !== 0n) return primary > 0n ? 1 : -1;
  const secondary = exactIn ? x.inAmount - y.inAmount : y.outAmount - x.outAmount;
  if (secondary !== 0n) return secondary > 0n ? 1 : -1;
  if (x.hops.length !== y.hops.length) return x.hops.length - y.hops.length;
  for (let i = 0; i < x.hops.length; i++) if (x.hops[i]!.pool !== y.hops[i]!.pool) return x.hops[i]!.pool - y.hops[i]!.pool;
  return 0;
}

/** One thread's route searcher over a view of the slabs. */
export class RouteSearcher {
  private readonly f64 = newF64Snapshot();
  private readonly confirm: ConfirmScratch = { exact: newExactSnapshot(), f64: newF64Snapshot() };
  private readonly pools: RoutePools;
  private readonly inter: Intermediates;

  constructor(
    private readonly src: PoolSideSource,
    private readonly limits: RouteLimits = DEFAULT_ROUTE_LIMITS,
  ) {
    this.pools = new RoutePools(src, this.f64, limits.maxPoolsPerPair);
    this.inter = new Intermediates(src, limits.liquidConnectors, limits.connectorRankMs);
  }

  /** Searches the routes of one request (see {@link RouteRequest} for every knob and its default). */
  search(req: RouteRequest): RouteSearchResult {
    const deadline = req.deadlineMs ?? Infinity;
    const cancelled = req.cancelled ?? NEVER;
    const expired = (): boolean => performance.now() > deadline || cancelled();
    // Why one check for both: every place that gives up at the deadline gives up on a cancel too; this tells which.
    const stopped = (): RouteSearchResult => (cancelled() ? CANCELLED : TIMEOUT);
    if (expired()) return stopped();
    const { inputMint, outputMint, amount, mode } = req;
    if (amount <= 0n) return noRoute('amount must be positive');
    if (inputMint === outputMint) return noRoute('input and output mints are the same');
    const maxHops = req.onlyDirectRoutes ? 1 : Math.max(1, Math.min(3, Math.floor(req.maxHops ?? 3)));
    const view = req.view ?? VIEW_LATEST;
    this.pools.reset(view, this.dexFilter(req), (req.nowMs ?? Date.now()) - this.limits.maxPoolAgeMs, mode === 'ExactOut', req.collectPools === true);
    const cands = enumerateCandidates(this.pools, this.inter, {
      input: inputMint,
      output: outputMint,
      maxHops,
      restricted: req.restrictIntermediateTokens === true,
      maxCandidates: this.limits.maxCandidates,
      maxIntermediatesPerSide: this.limits.maxIntermediatesPerSide,
      neighbourScanLimit: this.limits.neighbourScanLimit,
      expired,
      legAccountBudget: req.maxAccounts === undefined ? Infinity : req.maxAccounts - ROUTE_ACCOUNT_OVERHEAD,
    });
    if (cands === null) return stopped();
    if (cands.length === 0) return noRoute(req.maxAccounts !== undefined ? `no tradable pool path between the mints within ${req.maxAccounts} accounts` : 'no tradable pool path between the mints');
    scoreCandidates(this.src, view, this.f64, cands, mode, amount);
    cands.sort(byScore);
    const confirmCount = Math.max(1, req.confirmCount ?? this.limits.confirmCount);
    const routes: Route[] = [];
    for (let i = 0; i < cands.length && i < confirmCount; i++) {
      if (expired()) return stopped();
      const r = confirmRoute(this.src, view, this.confirm, cands[i]!, amount, mode);
      if (r !== null) routes.push(r);
    }
    if (routes.length === 0) return noRoute('no candidate route quotes exactly');
    const exactIn = mode === 'ExactIn';
    routes.sort((x, y) => compareRoutes(exactIn, x, y));
    const maxRoutes = Math.max(1, req.maxRoutes ?? this.limits.maxRoutes);
    if (routes.length > maxRoutes) routes.length = maxRoutes;
    const watched = this.pools.watched(cands);
    return watched === null ? { ok: true, routes } : { ok: true, routes, watched };
  }

  /** DEX indices allowed by `dexes` / `excludeDexes`, or null for every DEX. */
  private dexFilter(req: RouteRequest): ReadonlySet<number> | null {
    if (req.dexes === undefined && (req.excludeDexes === undefined || req.excludeDexes.length === 0)) return null;
    const allowed = new Set<number>();
    if (req.dexes !== undefined) for (const d of req.dexes) allowed.add(dexIndex(d));
    else for (let i = 0; i < this.src.adapters.length; i++) if (this.src.adapters[i]) allowed.add(i);
    for (const d of req.excludeDexes ?? []) allowed.delete(dexIndex(d));
    return allowed;
  }
}

/** Higher score first, then fewer legs, then pool ids (deterministic). */
function byScore(x: Candidate, y: Candidate): number {
  if (x.score !== y.score) return y.score - x.score;
  if (x.legs.length !== y.legs.length) return x.legs.length - y.legs.length;
  for (let i = 0; i < x.legs.length; i++) if (x.legs[i]!.pool !== y.legs[i]!.pool) return x.legs[i]!.pool - y.legs[i]!.pool;
  return 0;
}

/** One-shot search (builds a searcher; hot paths keep a {@link RouteSearcher} per thread instead). */
export function searchRoutes(src: PoolSideSource, req: RouteRequest, limits: RouteLimits = DEFAULT_ROUTE_LIMITS): RouteSearchResult {
  return new RouteSearcher(src, limits).search(req);
}
