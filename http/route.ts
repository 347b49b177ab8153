/**
 * A route declaration: what the pipeline needs to know to run the fixed stages for one method and path.
 */
import type { Tier } from '../engine/tiers/tier.js';
import type { Category } from '../engine/limits/table.js';
import type { RequestContext, RouteHandler } from './request-context.js';

/** HTTP methods of the route table (uWS method names; `del` is DELETE). */
export type RouteMethod = 'get' | 'post' | 'patch' | 'del';

/** One route of the table. */
export interface RouteDef {
  /** Stable name for logs and metrics. */
  readonly name: string;
  /** HTTP method. */
  readonly method: RouteMethod;
  /** uWS pattern (`/v1/price/:token`). */
  readonly pattern: string;
  /** `key`: an API key is required (401 otherwise); `none`: optional (a key bypasses the anonymous cache). */
  readonly auth: 'none' | 'key';
  /** Accept the key in `?apiKey=` (stream, forensics and portfolio routes, for clients that cannot set headers). */
  readonly apiKeyQuery: boolean;
  /**
   * Lowest tier allowed (forensics: `starter`); callers below it, anonymous included, get 403 with a bare
   * `{ error }` body (the spec's forensics error shape).
   */
  readonly minTier?: Tier;
  /** Rate-limit category, or null when the route is not metered. */
  readonly meter: Category | null;
  /** Units of quota one request consumes (portfolio: one per wallet); default 1. May throw INVALID_REQUEST. */
  readonly cost?: (ctx: RequestContext) => number;
  /** An SSE route: holds one of the key's concurrent stream slots while open. */
  readonly stream?: boolean;
  /** A 2xx answer means a transaction was handed to the cluster (points: `rpcSuccessful`). */
  readonly rpc?: boolean;
  /** Largest accepted request body in bytes (POST, PATCH, DELETE); 0 or absent reads none. */
  readonly maxBodyBytes?: number;
  /** TTL of the anonymous response cache in ms; 0 = not cached. */
  readonly anonCacheTtlMs: number;
  /**
   * Rewrites a body the anonymous cache stored `elapsedMs` ago before it is served again (prices: their ages grow),
   * so a cached answer never claims fresher data than it holds. Absent: cached bytes are served as stored.
   */
  readonly ageCached?: (body: unknown, elapsedMs: number) => unknown;
  /** Extra request headers to copy into the context (lower-case). */
  readonly copyHeaders?: readonly string[];
  /** The handler. */
  readonly handler: RouteHandler;
}
