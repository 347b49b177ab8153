/**
 * The API error catalog: every code of the spec's Codes table with its status and retry semantics, the
 * spec's status table, the documented extensions, and the one error class handlers throw.
 *
 * Append-only: a code never changes meaning or status (spec, Versioning rule 3). `errors.test.ts` holds this
 * file against `shared/spec/service-interface.md` both ways.
 */
import { STATUS_CODES } from 'node:http';

/** How a client should treat a code, as the spec's Retry column says it (first word). */
export type RetryHint = 'yes' | 'no' | 'maybe' | 'depends';

/** One catalog entry. */
export interface ErrorSpec {
  readonly status: number;
  readonly retry: RetryHint;
  /** The spec's Meaning column (or the extension's documented meaning). */
  readonly meaning: string;
}

/** Every error code the API emits, with its status and retry hint. */
export const ERROR_CATALOG = {
  INVALID_REQUEST: { status: 400, retry: 'no', meaning: 'Malformed body or params, bad mint' },
  TX_INVALID: { status: 400, retry: 'no', meaning: 'Signed bytes could not be deserialized' },
  TX_UNSIGNED: { status: 400, retry: 'no', meaning: 'No signature in slot 0' },
  TX_TOO_LARGE: { status: 400, retry: 'no', meaning: 'Serialized transaction exceeds 1232 bytes' },
  QUOTE_NOT_FOUND: { status: 404, retry: 'no', meaning: 'quoteId never issued or already consumed' },
  QUOTE_EXPIRED: { status: 410, retry: 'yes', meaning: '30 s TTL elapsed' },
  QUOTE_MOVED: { status: 409, retry: 'yes', meaning: 'Fresh output worse than the displayed quote beyond maxDriftBps' },
  NO_ROUTE: { status: 404, retry: 'maybe', meaning: 'No routable path for pair and amount' },
  TOKEN_NOT_FOUND: { status: 404, retry: 'no', meaning: 'Mint is not a token or does not exist' },
  EXCEEDED_SLIPPAGE: { status: 404, retry: 'maybe', meaning: 'Candidates exist but all exceed price-impact tolerance' },
  SIMULATION_FAILED: { status: 400, retry: 'depends', meaning: 'simulate=true and the simulation reverted' },
  ROUTE_TIMEOUT: { status: 504, retry: 'yes', meaning: 'Route-validation timed out' },
  BLOCKHASH_UNAVAILABLE: { status: 503, retry: 'yes', meaning: 'No recent blockhash yet' },
  SERVICE_UNAVAILABLE: { status: 503, retry: 'yes', meaning: 'Quote or metadata service warming up or unavailable' },
  SEND_FAILED: { status: 502, retry: 'yes', meaning: 'Node rejected the send; the transaction never entered the network' },
  SUBMISSION_FAILED: { status: 502, retry: 'yes', meaning: 'Transport or internal error mid-submit; landing state unknown' },
  BUNDLE_UNAVAILABLE: { status: 503, retry: 'no', meaning: 'Bundle submission not configured on this deployment' },
  BUNDLE_REJECTED: { status: 502, retry: 'maybe', meaning: 'Block engine rejected the bundle' },
  RATE_LIMITED: { status: 429, retry: 'yes', meaning: 'Per-key or per-IP limit exceeded' },
  INTERNAL: { status: 500, retry: 'maybe', meaning: 'Unhandled error' },
  // --- Extensions (the spec allows new codes; these fill statuses the Codes table has no code for) ---
  UNAUTHORIZED: { status: 401, retry: 'no', meaning: 'Missing or invalid API key' },
  ROUTE_NOT_FOUND: { status: 404, retry: 'no', meaning: 'No route for this method and path' },
  FORBIDDEN: { status: 403, retry: 'no', meaning: 'Tier too low for this route' },
  NOT_FOUND: { status: 404, retry: 'no', meaning: 'The addressed resource does not exist (points record, webhook, pool)' },
  NOT_IMPLEMENTED: { status: 501, retry: 'no', meaning: 'Route of the interface not built yet in this version' },
} as const satisfies Record<string, ErrorSpec>;

/** A code of the catalog. */
export type ErrorCode = keyof typeof ERROR_CATALOG;

/**
 * Codes added by this service beyond the spec's Codes table, each for a status the spec lists without a code
 * (401 "Missing or invalid key"; 404 "No route"). The both-ways test allows exactly these.
 */
export const CATALOG_EXTENSIONS: readonly ErrorCode[] = ['UNAUTHORIZED', 'ROUTE_NOT_FOUND', 'FORBIDDEN', 'NOT_FOUND', 'NOT_IMPLEMENTED'];

/**
 * Statuses this service adds to the spec's status table: 501 for the spec's routes that are declared (so auth and
 * limits already apply to them) but not built yet. Each route loses it as it lands.
 */
export const EXTENSION_STATUSES: Readonly<Record<number, string>> = { 501: 'Route declared by the interface but not built yet' };

/** The spec's status table: every status the API may answer with, and when. */
export const STATUS_TABLE: Readonly<Record<number, string>> = {
  200: 'Success',
  400: 'Invalid body, missing fields, malformed, oversized or unsigned transaction',
  401: 'Missing or invalid key',
  403: 'Tier too low (forensics)',
  404: 'No route, unknown mint, quote id not found',
  409: 'Drift-bounded build: price moved beyond tolerance',
  410: 'Quote expired (30 s TTL)',
  429: 'Rate limit exceeded, or SSE connection limit exceeded',
  500: 'Unhandled failure',
  502: 'Submission failed, or upstream error',
  503: 'Warming up or temporarily unavailable; Retry-After present',
  504: 'Route-validation walk timed out; retryable',
};

/** Default `Retry-After` (seconds) on 503 answers when the thrower gives none. */
export const DEFAULT_RETRY_AFTER_503_S = 5;
/** Default `Retry-After` (seconds) on 429 answers when the rate limiter gives none. */
export const DEFAULT_RETRY_AFTER_429_S = 60;

/** True for statuses that always carry `Retry-After` (spec, Errors rule 3). */
export function statusCarriesRetryAfter(status: number): boolean {
  return status === 429 || status === 503;
}

/** The `200 OK` style status line uWS wants in `writeStatus`. */
export function statusLine(status: number): string {
  return `${status} ${STATUS_CODES[status] ?? 'Unknown'}`;
}

/** Options of an {@link ApiError}. */
export interface ApiErrorOptions {
  /** Optional prose detail (`details` of the body). */
  details?: string;
  /** Extra body fields (the rate-limit body's `limit`, `tier`, `retryAfterSeconds`; echoed context fields). */
  extra?: Record<string, unknown>;
  /** `Retry-After` seconds for 429/503 (defaults above otherwise). */
  retryAfterSeconds?: number;
  /** Extra response headers (for example the rate limiter's `X-RateLimit-*`). */
  headers?: Record<string, string>;
  /** Answer with `{ error }` only (the spec's forensics error shape). */
  bare?: boolean;
}

/**
 * The error handlers and stages throw to answer with a catalog error. Check with {@link isApiError}
 * (by `name`, never `instanceof`: errors may cross workers).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ErrorCode;
  readonly details: string | undefined;
  readonly extra: Readonly<Record<string, unknown>>;
  readonly retryAfterSeconds: number | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly bare: boolean;

  constructor(code: ErrorCode, message: string, opts: ApiErrorOptions = {}) {
    super(message);
    this.code = code;
    this.details = opts.details;
    this.extra = Object.freeze({ ...opts.extra });
    this.retryAfterSeconds = opts.retryAfterSeconds;
    this.headers = Object.freeze({ ...opts.headers });
    this.bare = opts.bare ?? false;
  }

  /** The HTTP status of this error's code. */
  get status(): number {
    return ERROR_CATALOG[this.code].status;
  }
}

/** True when `e` is an {@link ApiError} with a catalog code. */
export function isApiError(e: unknown): e is ApiError {
  if (typeof e !== 'object' || e === null) return false;
  const o = e as { name?: unknown; code?: unknown };
  return o.name === 'ApiError' && typeof o.code === 'string' && Object.hasOwn(ERROR_CATALOG, o.code);
}

/** The spec's error body: `{ error, code, details? }` plus any extra fields. */
export interface ErrorBody {
  error: string;
  code: ErrorCode;
  details?: string;
  [extra: string]: unknown;
}

/** Longest `error` or `details` text an error body carries; longer ones (echoing a huge input) are cut. */
export const MAX_REFLECTED_CHARS = 256;

/** `s` cut to `max` characters, with how much was cut: what the service reflects or logs of client input. */
export function capText(s: string, max: number = MAX_REFLECTED_CHARS): string {
  return s.length <= max ? s : `${s.slice(0, max)}...(${s.length - max} more chars)`;
}

/** Builds the `{ error, code, details? }` body (extra fields after, never overriding the three); `error` and
 * `details` are capped at {@link MAX_REFLECTED_CHARS} (they may quote client input). */
export function errorBody(code: ErrorCode, error: string, details?: string, extra?: Readonly<Record<string, unknown>>): ErrorBody {
  const body: ErrorBody = { error: capText(error), code };
  if (details !== undefined) body.details = capText(details);
  if (extra) {
    for (const [k, v] of Object.entries(extra)) {
      if (k !== 'error' && k !== 'code' && k !== 'details') body[k] = v;
    }
  }
  return body;
}

/** The status, headers and body of an error answer. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: ErrorBody | { error: string };
}

/** Turns an {@link ApiError} into status, headers (Retry-After on 429/503) and body. */
export function errorAnswer(e: ApiError): ErrorAnswer {
  const status = ERROR_CATALOG[e.code].status;
  const headers: Record<string, string> = { ...e.headers };
  if (statusCarriesRetryAfter(status)) {
    // The body's retryAfterSeconds (rate-limit body) wins so header and body always agree.
    const fromBody = e.extra.retryAfterSeconds;
    const s =
      typeof fromBody === 'number' && Number.isFinite(fromBody)
        ? fromBody
        : (e.retryAfterSeconds ?? (status === 429 ? DEFAULT_RETRY_AFTER_429_S : DEFAULT_RETRY_AFTER_503_S));
    headers['retry-after'] = String(Math.max(0, Math.ceil(s)));
  }
  return { status, headers, body: e.bare ? { error: capText(e.message) } : errorBody(e.code, e.message, e.details, e.extra) };
}

/** The answer for anything thrown that is not an {@link ApiError}: 500 INTERNAL, no internals leaked. */
export function internalErrorAnswer(): ErrorAnswer {
  return errorAnswer(new ApiError('INTERNAL', 'Internal server error'));
}
