/**
 * A route declaration: what the pipeline needs to know to run the fixed stages for one method and path.
 */
import type { RouteHandler } from './request-context.js';

/** One route of the table. */
export interface RouteDef {
  /** Stable name for logs and metrics. */
  readonly name: string;
  /** HTTP method (only GET routes exist so far). */
  readonly method: 'get';
  /** uWS pattern (`/v1/price/:token`). */
  readonly pattern: string;
  /** `key`: an API key is required (401 otherwise); `none`: optional (a key bypasses the anonymous cache). */
  readonly auth: 'none' | 'key';
  /** Accept the key in `?apiKey=` (stream routes only, for EventSource clients). */
  readonly apiKeyQuery: boolean;
  /** Rate-limit category, or null when the route is not metered. */
  readonly meter: string | null;
  /** TTL of the anonymous response cache in ms; 0 = not cached. */
  readonly anonCacheTtlMs: number;
  /** Extra request headers to copy into the context (lower-case). */
  readonly copyHeaders?: readonly string[];
  /** The handler. */
  readonly handler: RouteHandler;
}
