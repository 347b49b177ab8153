/**
 * GET /v1/quote/stream (key; `?apiKey=` allowed): SSE of the ranked quote. The request is `GET /v1/quote`'s
 * (`quote-request.ts`, slippage default 100) plus `tickHz` (default 2, clamped to [1, 5]) and `minMoveBps`
 * (default 1, 0 to 10000). A bad parameter is a plain 400 before the stream opens. Otherwise the first quote is
 * computed before the answer starts and is the stream's first frame (`quote`); the stream then follows
 * `engine/services/quote-stream.ts` (a frame when the amount moved by minMoveBps; later failures dropped).
 *
 * A failing initial quote (404 NO_ROUTE or EXCEEDED_SLIPPAGE, 504 ROUTE_TIMEOUT, 503 while the service warms up)
 * opens the stream, sends the spec's terminal `error` event `{ error, status, inputMint, outputMint }` (plus
 * `code` and `details`, as the REST error body has them) and closes it. Only the connect is metered (the
 * pipeline's rate-limit stage runs once; ticks never pass through it); the stream holds one of the key's slots.
 */
import type { QuoteStreamStart, QuoteStreams } from '../../engine/services/quote-stream.js';
import { DEFAULT_MIN_MOVE_BPS, DEFAULT_TICK_HZ, MAX_MIN_MOVE_BPS, clampTickHz } from '../../engine/services/quote-stream-rules.js';
import type { PriceService } from '../../engine/services/price-service-types.js';
import { ApiError, type ErrorCode } from '../errors.js';
import { numberParam } from '../query.js';
import type { RequestContext, StreamReply } from '../request-context.js';
import type { RouteDef } from '../route.js';
import { sseFrame, type SseHub } from '../sse.js';
import { STREAM_DEFAULT_SLIPPAGE_BPS, parseQuoteRequest, quoteInputOf, rawFromQuery, type QuoteRequestContext } from './quote-request.js';

/** `tickHz`: any finite number, clamped to [1, 5]; absent -> 2; anything else 400 INVALID_REQUEST. */
export function tickHzParam(query: URLSearchParams): number {
  const v = query.get('tickHz');
  if (v === null || v === '') return DEFAULT_TICK_HZ;
  const n = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw new ApiError('INVALID_REQUEST', 'Invalid tickHz', { details: 'tickHz must be a number (clamped to [1, 5])' });
  return clampTickHz(n);
}

/** The spec's terminal `error` event, then the end of the stream. */
function terminal(hub: SseHub, e: ApiError, inputMint: string, outputMint: string): StreamReply {
  const status = e.status;
  const payload = { error: e.message, code: e.code, status, ...(e.details ? { details: e.details } : {}), inputMint, outputMint };
  return { stream: { firstFrame: sseFrame('error', payload), status, open: (client) => hub.end(client) } };
}

function failure(start: Extract<QuoteStreamStart, { ok: false }>): ApiError {
  const code: ErrorCode = start.code;
  return new ApiError(code, code === 'ROUTE_TIMEOUT' ? 'Route search timed out' : 'No route', { details: start.message });
}

async function connect(svc: PriceService, streams: QuoteStreams, hub: SseHub, parse: QuoteRequestContext, ctx: RequestContext): Promise<StreamReply> {
  const q = parseQuoteRequest(rawFromQuery(ctx.query), parse);
  const tickHz = tickHzParam(ctx.query);
  // An empty value is the default, as for every other parameter of the quote request.
  const minMoveBps = ctx.query.get('minMoveBps') === '' ? DEFAULT_MIN_MOVE_BPS : numberParam(ctx.query, 'minMoveBps', DEFAULT_MIN_MOVE_BPS, 0, MAX_MIN_MOVE_BPS);
  const inputMint = q.input.mint;
  const outputMint = q.output.mint;
  if (!svc.ready()) {
    const warming = new ApiError('SERVICE_UNAVAILABLE', 'The price service is warming up', { details: `${svc.poolCount()} pools indexed so far` });
    return terminal(hub, warming, inputMint, outputMint);
  }
  const first = await streams.first({ input: quoteInputOf(q), tickHz, minMoveBps });
  if (!first.ok) return terminal(hub, failure(first), inputMint, outputMint);
  return {
    stream: {
      firstFrame: sseFrame('quote', first.body),
      open: (client) => {
        // Key 'quote': a client under backpressure is sent only the latest quote, never a queue of stale ones.
        const stream = first.start({ frame: (body) => hub.send(client, 'quote', sseFrame('quote', body)) });
        hub.onClose(client, () => stream.close());
      },
    },
  };
}

/** The quote stream route. */
export function quoteStreamRoute(svc: PriceService, dexIds: readonly string[], streams: QuoteStreams, hub: SseHub): RouteDef {
  const parse: QuoteRequestContext = { resolve: (s) => svc.resolve(s), dexIds, defaultSlippageBps: STREAM_DEFAULT_SLIPPAGE_BPS };
  return {
    name: 'stream.quote',
    method: 'get',
    pattern: '/v1/quote/stream',
    auth: 'key',
    apiKeyQuery: true,
    meter: 'quote-stream',
    stream: true,
    anonCacheTtlMs: 0,
    handler: (ctx) => connect(svc, streams, hub, parse, ctx),
  };
}
