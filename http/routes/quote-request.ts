/**
 * The quote request (`POST /v1/quote` body, `GET /v1/quote` and `GET /v1/quote/stream` query): parsed strictly into
 * typed values, every malformed field a 400 `INVALID_REQUEST` naming it. The shape is ARCHITECTURE.md's ("Shapes the
 * spec leaves open"); defaults: `slippageBps` 50 (the quote stream's is 100, the spec's), `swapMode` ExactIn,
 * `maxHops` 3, every DEX, no `maxAccounts` bound (an integer in 8..256 when given). Mints are resolved here (a symbol with the spec's aliases, or a base58 mint); whether a
 * route exists is the search's business (404 `NO_ROUTE`), not the parser's.
 */
import type { ResolvedToken } from '../../engine/services/price-service-types.js';
import type { QuoteInput } from '../../engine/services/quote-service.js';
import { ApiError } from '../errors.js';
import { jsonObjectBody } from '../json-body.js';

/** The quote stream's default slippage (the spec's table); the REST quote defaults to {@link DEFAULT_SLIPPAGE_BPS}. */
export const STREAM_DEFAULT_SLIPPAGE_BPS = 100;
/** `POST /v1/quote`'s default slippage (ARCHITECTURE.md). */
export const DEFAULT_SLIPPAGE_BPS = 50;
/** The spec's slippage bounds. */
export const SLIPPAGE_BPS_RANGE = [1, 5000] as const;
/**
 * `maxAccounts` bounds: a route's swap transaction references its legs' accounts plus a fixed overhead
 * (engine/router/README.md, "maxAccounts"). 8 is below any route (the smallest, one AMM v4 leg, needs 13): such a
 * bound is valid and answers NO_ROUTE; 256 is the most accounts a v0 transaction can address (u8 lookup indices).
 */
export const MAX_ACCOUNTS_RANGE = [8, 256] as const;
/** Largest amount accepted: a u64 (no SPL token amount is larger). */
export const MAX_AMOUNT = 2n ** 64n - 1n;

/** Swap modes. */
export type SwapModeParam = 'ExactIn' | 'ExactOut';

/** A parsed quote request. */
export interface QuoteRequest {
  readonly input: ResolvedToken;
  readonly output: ResolvedToken;
  /** Atomic units of the input (ExactIn) or the output (ExactOut). */
  readonly amount: bigint;
  readonly slippageBps: number;
  readonly swapMode: SwapModeParam;
  readonly onlyDirectRoutes: boolean;
  /** 1 to 3 (1 when `onlyDirectRoutes`). */
  readonly maxHops: number;
  /** DEX ids to keep (empty: every one). */
  readonly dexes: readonly string[];
  /** DEX ids to leave out. */
  readonly excludeDexes: readonly string[];
  /** Intermediates restricted to the liquid connectors. Default true. */
  readonly restrictIntermediateTokens: boolean;
  /** Most accounts a route's swap transaction may reference ({@link MAX_ACCOUNTS_RANGE}), or null for no bound. */
  readonly maxAccounts: number | null;
}

/** What parsing needs from the service. */
export interface QuoteRequestContext {
  /** Symbol or mint -> token; null when it is neither. */
  readonly resolve: (input: string) => ResolvedToken | null;
  /** The registered DEX ids (`dexes` and `excludeDexes` must name them). */
  readonly dexIds: readonly string[];
  /** The default slippage of the route parsing it. */
  readonly defaultSlippageBps?: number;
}

/** A raw request: a JSON body's fields, or query parameters as strings. */
export type RawQuoteRequest = Readonly<Record<string, unknown>>;

function invalid(field: string, details: string): ApiError {
  return new ApiError('INVALID_REQUEST', `Invalid ${field}`, { details });
}

function token(raw: RawQuoteRequest, field: 'inputMint' | 'outputMint', ctx: QuoteRequestContext): ResolvedToken {
  const v = raw[field];
  if (v === undefined || v === null || v === '') throw invalid(field, `${field} is required`);
  if (typeof v !== 'string') throw invalid(field, `${field} must be a mint address or a symbol`);
  const t = ctx.resolve(v);
  if (t === null) throw invalid(field, `${field} is neither a known symbol nor a base58 mint address`);
  return t;
}

function amount(raw: RawQuoteRequest): bigint {
  const v = raw.amount;
  if (v === undefined || v === null || v === '') throw invalid('amount', 'amount is required');
  // A JSON number past 2^53 has already lost digits: only strings (and small safe integers) are exact.
  const text = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v;
  if (typeof text !== 'string' || !/^[0-9]+$/.test(text)) throw invalid('amount', 'amount must be a positive integer string in atomic units');
  const n = BigInt(text);
  if (n === 0n) throw invalid('amount', 'amount must be positive');
  if (n > MAX_AMOUNT) throw invalid('amount', 'amount exceeds u64');
  return n;
}

function integer(raw: RawQuoteRequest, field: string, fallback: number | null, min: number, max: number): number | null {
  const v = raw[field];
  if (v === undefined || v === null || v === '') return fallback;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^[+-]?[0-9]+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw invalid(field, `${field} must be an integer in [${min}, ${max}]`);
  return n;
}

function boolean(raw: RawQuoteRequest, field: string, fallback: boolean): boolean {
  const v = raw[field];
  if (v === undefined || v === null || v === '') return fallback;
  if (v === true || v === 'true' || v === '1') return true;
  if (v === false || v === 'false' || v === '0') return false;
  throw invalid(field, `${field} must be true or false`);
}

function dexList(raw: RawQuoteRequest, field: 'dexes' | 'excludeDexes', ctx: QuoteRequestContext): string[] {
  const v = raw[field];
  if (v === undefined || v === null || v === '') return [];
  const items = typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter((s) => s !== '') : v;
  if (!Array.isArray(items) || items.some((d) => typeof d !== 'string')) throw invalid(field, `${field} must be a list of DEX ids`);
  const unknown = (items as string[]).filter((d) => !ctx.dexIds.includes(d));
  if (unknown.length > 0) throw invalid(field, `unknown DEX id(s) ${unknown.join(', ')}; known: ${ctx.dexIds.join(', ')}`);
  return [...new Set(items as string[])];
}

/** Parses and checks a quote request; throws ApiError `INVALID_REQUEST` (400) naming the first bad field. */
export function parseQuoteRequest(raw: RawQuoteRequest, ctx: QuoteRequestContext): QuoteRequest {
  const input = token(raw, 'inputMint', ctx);
  const output = token(raw, 'outputMint', ctx);
  if (input.mint === output.mint) throw invalid('outputMint', 'inputMint and outputMint are the same token');
  const swapMode = raw.swapMode ?? 'ExactIn';
  if (swapMode !== 'ExactIn' && swapMode !== 'ExactOut') throw invalid('swapMode', 'swapMode must be ExactIn or ExactOut');
  const onlyDirectRoutes = boolean(raw, 'onlyDirectRoutes', false);
  const maxHops = integer(raw, 'maxHops', 3, 1, 3)!;
  const dexes = dexList(raw, 'dexes', ctx);
  const excludeDexes = dexList(raw, 'excludeDexes', ctx);
  if (dexes.length > 0 && dexes.every((d) => excludeDexes.includes(d))) throw invalid('excludeDexes', 'excludeDexes removes every DEX of dexes');
  return {
    input,
    output,
    amount: amount(raw),
    slippageBps: integer(raw, 'slippageBps', ctx.defaultSlippageBps ?? DEFAULT_SLIPPAGE_BPS, SLIPPAGE_BPS_RANGE[0], SLIPPAGE_BPS_RANGE[1])!,
    swapMode,
    onlyDirectRoutes,
    maxHops: onlyDirectRoutes ? 1 : maxHops,
    dexes,
    excludeDexes,
    restrictIntermediateTokens: boolean(raw, 'restrictIntermediateTokens', true),
    maxAccounts: integer(raw, 'maxAccounts', null, MAX_ACCOUNTS_RANGE[0], MAX_ACCOUNTS_RANGE[1]),
  };
}

/** The raw request of a JSON body: an object, or 400 `INVALID_REQUEST`. */
export function rawFromBody(body: Buffer | null): RawQuoteRequest {
  const b = jsonObjectBody(body);
  if (!b.ok) throw invalid('body', b.details);
  return b.value as RawQuoteRequest;
}

/** The raw request of a query string (`GET /v1/quote`, the quote stream): each parameter once, as text. */
export function rawFromQuery(query: URLSearchParams): RawQuoteRequest {
  const out: Record<string, string> = {};
  for (const [k, v] of query) {
    if (k in out) throw invalid(k, `${k} is given more than once`);
    out[k] = v;
  }
  return out;
}

/** The quote service's input of a parsed request. */
export function quoteInputOf(q: QuoteRequest): QuoteInput {
  return {
    inputMint: q.input.mint,
    outputMint: q.output.mint,
    amount: q.amount,
    swapMode: q.swapMode,
    slippageBps: q.slippageBps,
    maxHops: q.maxHops,
    onlyDirectRoutes: q.onlyDirectRoutes,
    dexes: q.dexes,
    excludeDexes: q.excludeDexes,
    restrictIntermediateTokens: q.restrictIntermediateTokens,
    maxAccounts: q.maxAccounts,
  };
}
