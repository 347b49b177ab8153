/**
 * POST /v1/quote (JSON body) and GET /v1/quote (the same fields as query parameters, the convention Jupiter's users
 * have): the request parsed strictly (`quote-request.ts`), one route search in a quote worker, the spec's quote
 * frame plus ARCHITECTURE.md's fields (`engine/services/quote-service.ts`). Errors are the spec's: 400
 * INVALID_REQUEST, 404 NO_ROUTE / EXCEEDED_SLIPPAGE, 504 ROUTE_TIMEOUT, 503 SERVICE_UNAVAILABLE while warming; each
 * echoes `inputMint` and `outputMint`. The request's abort signal (`ctx.signal`, fired when the client goes away)
 * goes with the quote: the route task is abandoned and no quote is stored; the error it ends in is never written.
 */
import type { QuoteService } from '../../engine/services/quote-service.js';
import type { PriceService } from '../../engine/services/price-service-types.js';
import { ApiError } from '../errors.js';
import type { RequestContext, Reply } from '../request-context.js';
import type { RouteDef } from '../route.js';
import { parseQuoteRequest, quoteInputOf, rawFromBody, rawFromQuery, type QuoteRequestContext, type RawQuoteRequest } from './quote-request.js';
import { requireReady } from './warm-gate.js';

/** Largest quote request body (a JSON object of a dozen short fields). */
export const QUOTE_BODY_LIMIT = 16 * 1024;

async function answer(svc: PriceService, quotes: QuoteService, parse: QuoteRequestContext, raw: RawQuoteRequest, signal?: AbortSignal): Promise<Reply> {
  requireReady(svc);
  const q = parseQuoteRequest(raw, parse);
  const echo = { inputMint: q.input.mint, outputMint: q.output.mint };
  const out = await quotes.quote(quoteInputOf(q), signal);
  if (!out.ok) {
    // Why 503 (not logged): the client is gone, so the pipeline writes nothing; this only ends the request's promise.
    if (out.code === 'CANCELLED') throw new ApiError('SERVICE_UNAVAILABLE', 'Request abandoned', { details: out.message, extra: echo });
    throw new ApiError(out.code, out.code === 'ROUTE_TIMEOUT' ? 'Route search timed out' : 'No route', { details: out.message, extra: echo });
  }
  return { status: 200, body: out.body };
}

/** The two quote routes. */
export function quoteRoutes(svc: PriceService, quotes: QuoteService): RouteDef[] {
  const parse: QuoteRequestContext = { resolve: (s) => svc.resolve(s), dexIds: quotes.dexIds };
  const common = { auth: 'key', apiKeyQuery: false, meter: 'quote', anonCacheTtlMs: 0 } as const;
  return [
    { ...common, name: 'quote', method: 'post', pattern: '/v1/quote', maxBodyBytes: QUOTE_BODY_LIMIT, handler: (ctx: RequestContext) => answer(svc, quotes, parse, rawFromBody(ctx.body), ctx.signal) },
    { ...common, name: 'quote.get', method: 'get', pattern: '/v1/quote', handler: (ctx: RequestContext) => answer(svc, quotes, parse, rawFromQuery(ctx.query), ctx.signal) },
  ];
}
