/**
 * The fixed, named request pipeline every route runs:
 *
 *   copy request -> onAborted -> auth -> rate limit -> anonymous cache -> handler -> serialize -> corked write
 *
 * `runPipeline` holds the stages after the copy and never throws or rejects: anything thrown becomes a catalog
 * error (500 INTERNAL for the unexpected, logged). `mountRoute` is the uWS glue around it; it turns uWS
 * `onAborted` into the context's `signal` (an AbortSignal made on first read) so handlers can abandon work.
 */
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { isCacheableStatus, type CachedReply, type ResponseCache } from './anon-cache.js';
import { presentedKey, type AuthStage } from './auth.js';
import { ApiError, errorAnswer, internalErrorAnswer, isApiError, statusLine } from './errors.js';
import { log } from './log.js';
import { copyAddress, ipText } from './remote-address.js';
import { isPromiseLike, step, type MaybePromise } from './maybe-promise.js';
import type { SlotLease } from '../engine/limits/types.js';
import type { RateLimitStage } from './rate-limit.js';
import { ANONYMOUS, isStreamReply, type Principal, type Reply, type RequestContext, type StreamReply } from './request-context.js';
import type { RouteDef } from './route.js';
import type { SseHub } from './sse.js';
import type { StreamSlotStage } from './stream-slots.js';

/** Called once per request with its final status (usage counters for points). */
export type OutcomeObserver = (ctx: RequestContext, route: RouteDef, status: number) => void;

/** The pluggable stages of the pipeline. */
export interface PipelineStages {
  readonly auth: AuthStage;
  readonly rateLimit: RateLimitStage;
  /** Null disables the anonymous cache. */
  readonly cache: ResponseCache | null;
  /** Concurrent-stream slots of stream routes; absent: streams are not limited. */
  readonly slots?: StreamSlotStage | null;
  /** Sees every final status (after auth decided the principal). */
  readonly observe?: OutcomeObserver | null;
}

/** A serialized answer, ready to write. `cache` tells whether the anonymous cache answered. */
export interface WireReply {
  readonly kind: 'reply';
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Buffer;
  readonly cache?: 'hit' | 'miss';
}

/** A validated stream request, ready to open. `lease` is the stream slot to give back when it closes. */
export interface WireStream {
  readonly kind: 'stream';
  readonly headers: Readonly<Record<string, string>>;
  readonly stream: StreamReply['stream'];
  readonly lease: SlotLease | null;
}

/** What the pipeline produces for one request. */
export type PipelineOutcome = WireReply | WireStream;

const JSON_TYPE = 'application/json';
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Serializes a handler reply: objects to JSON (or the handler's own `json` of it), strings and buffers as given;
 * default content type JSON; `extra` headers (rate limits) after the reply's own.
 */
export function serializeReply(reply: Reply, extra?: Readonly<Record<string, string>>): WireReply {
  const b = reply.body;
  const body =
    reply.json ?? (typeof b === 'string' || Buffer.isBuffer(b) ? b : b instanceof Uint8Array ? Buffer.from(b) : JSON.stringify(b ?? null));
  // Why Object.assign, not spread: V8 spreads objects with hyphenated header keys on a slow path (~2 µs here).
  const headers = reply.headers?.['content-type']
    ? Object.assign({}, reply.headers, extra)
    : Object.assign({ 'content-type': JSON_TYPE }, reply.headers, extra);
  return { kind: 'reply', status: reply.status, headers, body };
}

/** Turns anything thrown into a serialized catalog error (500 INTERNAL for the unexpected, logged). */
export function toErrorWire(e: unknown, routeName: string, path: string, extraHeaders: Readonly<Record<string, string>> = NO_HEADERS): WireReply {
  let answer;
  if (isApiError(e)) {
    answer = errorAnswer(e);
    if (answer.status >= 500 && answer.status !== 503) log.warn('api error', { route: routeName, path, code: e.code, msg: e.message });
  } else {
    // Never leak internals to the client; log them instead.
    log.error('unhandled error in request pipeline', { route: routeName, path, err: e });
    answer = internalErrorAnswer();
  }
  return {
    kind: 'reply',
    status: answer.status,
    headers: Object.assign({ 'content-type': JSON_TYPE }, extraHeaders, answer.headers),
    body: JSON.stringify(answer.body),
  };
}

function withHeaders(w: CachedReply, extra: Readonly<Record<string, string>>, cache?: 'hit' | 'miss'): WireReply {
  const headers: Record<string, string> = Object.assign({}, w.headers, extra);
  if (cache) headers['x-cache'] = cache;
  return cache ? { kind: 'reply', status: w.status, headers, body: w.body, cache } : { kind: 'reply', status: w.status, headers, body: w.body };
}

/**
 * A cached answer re-serialized with its ages grown by the time since it was stored. Why the memo: ages are whole
 * ms, so every hit within one ms gets the same bytes; serializing once per ms instead of once per hit keeps the
 * cache worth having under load.
 */
function aged(hit: CachedReply, ageCached: (body: unknown, elapsedMs: number) => unknown): CachedReply {
  if (hit.source === undefined || hit.storedAtMs === undefined) return hit;
  const now = Date.now();
  if (hit.aged?.atMs !== now) hit.aged = { atMs: now, body: JSON.stringify(ageCached(hit.source, now - hit.storedAtMs)) };
  return { status: hit.status, headers: hit.headers, body: hit.aged.body };
}

/** The anonymous-cache key of a request: the full URL. */
export function cacheKey(ctx: RequestContext): string {
  return ctx.rawQuery ? `${ctx.path}?${ctx.rawQuery}` : ctx.path;
}

/**
 * Runs auth -> rate limit -> stream slot -> anonymous cache -> handler -> serialize for one request. Synchronous
 * when every stage is; never throws and never rejects. A stream slot taken for a request that ends without a
 * stream is given back here.
 */
export function runPipeline(route: RouteDef, ctx: RequestContext, stages: PipelineStages): MaybePromise<PipelineOutcome> {
  // The rate-limit stage's headers, taken as they are (only ever merged into new objects, never written to).
  let extraHeaders: Readonly<Record<string, string>> = NO_HEADERS;
  let lease: SlotLease | null = null;
  const done = (o: PipelineOutcome): PipelineOutcome => {
    if (o.kind === 'reply' && lease !== null) lease.release();
    stages.observe?.(ctx, route, o.kind === 'reply' ? o.status : (o.stream.status ?? 200));
    return o;
  };
  const fail = (e: unknown): PipelineOutcome => done(toErrorWire(e, route.name, ctx.path, extraHeaders));
  try {
    const out = step(stages.auth(ctx, route), (principal) => {
      ctx.principal = principal;
      return step(route.meter !== null ? stages.rateLimit(ctx, route) : undefined, (rl) => {
        if (rl?.headers) extraHeaders = rl.headers;
        const slot = route.stream && stages.slots ? stages.slots(ctx) : null;
        return step(slot, (l): MaybePromise<PipelineOutcome> => {
          lease = l;
          const key =
            route.anonCacheTtlMs > 0 && stages.cache !== null && principal === ANONYMOUS ? cacheKey(ctx) : null;
          if (key !== null) {
            const hit = stages.cache!.get(key);
            if (hit) return done(withHeaders(route.ageCached ? aged(hit, route.ageCached) : hit, extraHeaders, 'hit'));
          }
          return step(route.handler(ctx), (reply): PipelineOutcome => {
            if (isStreamReply(reply)) return done({ kind: 'stream', headers: { ...extraHeaders }, stream: reply.stream, lease });
            // Why: a reply the anonymous cache does not see is built with its extra headers in one merge.
            if (key === null) return done(serializeReply(reply, extraHeaders));
            const wire = serializeReply(reply);
            if (isCacheableStatus(wire.status)) {
              const entry: CachedReply = route.ageCached ? { ...wire, source: reply.body, storedAtMs: Date.now() } : wire;
              stages.cache!.set(key, entry, route.anonCacheTtlMs);
            }
            return done(withHeaders(wire, extraHeaders, 'miss'));
          });
        });
      });
    });
    return isPromiseLike(out) ? out.then(undefined, fail) : out;
  } catch (e) {
    return fail(e);
  }
}

/** Request headers every route copies (the recommended nginx front forwards exactly these: http/nginx-front.conf). */
export const BASE_HEADERS = ['x-api-key', 'accept', 'x-forwarded-for'] as const;

/**
 * Headers added to every answer. Why expose: a page script on another origin reads only CORS-safelisted response
 * headers unless told otherwise, and it needs the rate-limit headers and Retry-After to back off.
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Cache',
};

/** Counts requests between copy and write, so `close()` can wait for them. */
export interface InflightTracker {
  inflight: number;
}

/** What `mountRoute` needs besides the route. */
export interface MountDeps {
  readonly stages: PipelineStages;
  readonly hub: SseHub;
  readonly tracker: InflightTracker;
}

function paramNames(pattern: string): string[] {
  return pattern
    .split('/')
    .filter((s) => s.startsWith(':'))
    .map((s) => s.slice(1));
}

function safeDecode(s: string): string {
  // Why: most parameters hold no escape, and decoding one without '%' gives it back unchanged.
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** True when the request carries header `name` at all, even with an empty value (`getHeader` returns '' for both). */
function headerSent(req: HttpRequest, name: string): boolean {
  let sent = false;
  req.forEach((k) => {
    if (k === name) sent = true;
  });
  return sent;
}

/**
 * The request context `copyRequest` builds. Why a class: an object literal with a getter is built on a slow path
 * on every request (3.5% of the price route's JavaScript time in a profile), a class's getters live once on its
 * prototype. The query is parsed and the peer address formatted only when read.
 */
class CopiedRequest implements RequestContext {
  principal: Principal = ANONYMOUS;
  /** Set once the body is read (routes that read one), before the pipeline runs. */
  body: Buffer | null = null;
  /** `performance.now()` when the request was copied (the latency histogram of http/metrics.ts). */
  readonly startedAt = performance.now();
  /** The peer address as copied (anonymous callers only; see copyRequest). */
  rawAddress: Uint8Array | null = null;
  private parsedQuery: URLSearchParams | undefined;
  private addressText: string | undefined;
  private abort: AbortController | undefined;
  private gone = false;

  constructor(
    readonly method: string,
    readonly path: string,
    readonly rawQuery: string,
    readonly params: Readonly<Record<string, string>>,
    readonly headers: Readonly<Record<string, string>>,
    readonly receivedAtMs: number,
  ) {}

  get query(): URLSearchParams {
    return (this.parsedQuery ??= new URLSearchParams(this.rawQuery));
  }

  get remoteAddress(): string {
    return (this.addressText ??= this.rawAddress ? ipText(this.rawAddress) : '');
  }

  /** Why lazy: an AbortController per request would cost the hot price path for routes that never read it. */
  get signal(): AbortSignal {
    if (this.abort === undefined) {
      this.abort = new AbortController();
      if (this.gone) this.abort.abort();
    }
    return this.abort.signal;
  }

  /** The client went away (uWS onAborted): fires {@link signal} if it was read, or makes it born aborted. */
  aborted(): void {
    this.gone = true;
    this.abort?.abort();
  }
}

/** The lower-case method `getMethod()` reports for a route's method (uWS names DELETE `del`). */
function methodOf(route: RouteDef): string {
  return route.method === 'del' ? 'delete' : route.method;
}

/**
 * Copies what the pipeline needs out of uWS. Why: `HttpRequest` is stack-allocated and invalid once the
 * handler returns (so after any await or callback); everything must be read here, synchronously.
 */
export function copyRequest(req: HttpRequest, res: HttpResponse, route: RouteDef, params: readonly string[]): CopiedRequest {
  const headers: Record<string, string> = {};
  for (const h of BASE_HEADERS) {
    // Why: uWS only matches lower-case header names.
    const v = req.getHeader(h);
    if (v) headers[h] = v;
  }
  // Why: uWS trims a value of blanks or non-ASCII bytes only to '', the same as no header. On the routes where a
  // missing key is not already 401 (public, forensics), a sent but blank key must still be 401: record it as ''.
  if (headers['x-api-key'] === undefined && (route.auth === 'none' || route.minTier !== undefined) && headerSent(req, 'x-api-key')) {
    headers['x-api-key'] = '';
  }
  if (route.copyHeaders) {
    for (const h of route.copyHeaders) {
      const v = req.getHeader(h);
      if (v) headers[h] = v;
    }
  }
  const p: Record<string, string> = {};
  for (let i = 0; i < params.length; i++) p[params[i]!] = safeDecode(req.getParameter(i));
  // Why the route's method, not getMethod(): a route is mounted for one method, and that saves a native call.
  const ctx = new CopiedRequest(methodOf(route), req.getUrl(), req.getQuery() ?? '', p, headers, Date.now());
  // Why: the remote address lives on the socket; copy it now (the response may be gone after an abort). Only an
  // anonymous caller needs it (its rate-limit subject): reading it costs a native call per request, so a request
  // that presents a key skips it, and the text is made only when read.
  if (!presentedKey(ctx, route)) ctx.rawAddress = copyAddress(res.getRemoteAddress());
  return ctx;
}

/** {@link CORS_HEADERS} as header lines, each after a line break (the tail of {@link writeWire}'s one header call). */
const CORS_TAIL = Object.entries(CORS_HEADERS)
  .map(([k, v]) => `\r\n${k}: ${v}`)
  .join('');

/**
 * Writes a serialized answer: the answer's headers, then {@link CORS_HEADERS}. Must run inside a corked callback
 * (or the request handler itself).
 *
 * Why one `writeHeader` call: uWS writes a header as `key: value\r\n`, with no check of its own, so the first
 * header's value followed by `\r\nkey: value` for each other header puts exactly the bytes of one call per header on
 * the wire (http/write-wire.int.test.ts checks it), for one native call instead of six or seven: the biggest cost left on the
 * price route after pricing was memoized (bench/README.md). Why no `writeStatus` for 200: uWS writes `200 OK`
 * itself before the first header, the same bytes.
 */
export function writeWire(res: HttpResponse, w: WireReply): void {
  if (w.status !== 200) res.writeStatus(statusLine(w.status));
  let key: string | undefined;
  let value = '';
  const headers = w.headers;
  for (const k in headers) {
    if (key === undefined) {
      key = k;
      value = headers[k]!;
    } else {
      value += `\r\n${k}: ${headers[k]!}`;
    }
  }
  if (key === undefined) {
    for (const k in CORS_HEADERS) res.writeHeader(k, CORS_HEADERS[k]!);
  } else {
    res.writeHeader(key, value + CORS_TAIL);
  }
  res.end(w.body);
}

interface Lifecycle {
  aborted: boolean;
  onAbort: (() => void) | null;
}

/**
 * Writes a pipeline outcome. `inHandler`: called from the uWS request handler itself (the synchronous path).
 */
function deliver(res: HttpResponse, life: Lifecycle, out: PipelineOutcome, route: RouteDef, deps: MountDeps, inHandler = false): void {
  deps.tracker.inflight--;
  // Why: touching `res` after onAborted fired throws ("must not be accessed after ... onAborted").
  if (life.aborted) {
    if (out.kind === 'stream') out.lease?.release();
    return;
  }
  // Why: inside the request handler uWS already holds the socket corked, and a nested cork would only run its
  // callback: a reply is written directly (one native call and one closure fewer per request).
  if (inHandler && out.kind === 'reply') {
    writeWire(res, out);
    return;
  }
  // Why: writes outside the request handler must be corked (one syscall; uWS warns otherwise).
  res.cork(() => {
    if (out.kind === 'reply') {
      writeWire(res, out);
      return;
    }
    const client = deps.hub.open(res, out.stream.firstFrame, { ...CORS_HEADERS, ...out.headers });
    life.onAbort = () => deps.hub.remove(client);
    // Why: every way a stream ends (client abort, server end, shutdown) runs the hub's close hooks once.
    if (out.lease) deps.hub.onClose(client, () => out.lease!.release());
    try {
      out.stream.open(client);
    } catch (e) {
      log.error('stream open failed', { route: route.name, err: e });
      deps.hub.end(client);
    }
  });
}

/**
 * Reads the request body (at most `max` bytes), then calls `then` with it; answers 400 itself when it is larger.
 * Why copy each chunk: uWS hands out views of its own buffer, valid only inside the callback.
 */
function readBody(
  res: HttpResponse,
  life: Lifecycle,
  max: number,
  route: RouteDef,
  path: string,
  then: (body: Buffer) => void,
  refused: () => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  res.onData((chunk, isLast) => {
    if (tooLarge || life.aborted) return;
    size += chunk.byteLength;
    if (size > max) {
      tooLarge = true;
      refused();
      const wire = toErrorWire(new ApiError('INVALID_REQUEST', `Request body larger than ${max} bytes`), route.name, path);
      res.cork(() => writeWire(res, wire));
      return;
    }
    chunks.push(Buffer.from(new Uint8Array(chunk)));
    if (isLast) then(Buffer.concat(chunks, size));
  });
}

/** Registers `route` on `app`, running the fixed pipeline for each request. */
export function mountRoute(app: TemplatedApp, route: RouteDef, deps: MountDeps): void {
  const params = paramNames(route.pattern);
  const maxBody = route.maxBodyBytes ?? 0;
  app[route.method](route.pattern, (res, req) => {
    const ctx = copyRequest(req, res, route, params);
    const life: Lifecycle = { aborted: false, onAbort: null };
    deps.tracker.inflight++;
    if (maxBody > 0) {
      let settled = false;
      const settle = (): void => {
        if (!settled) deps.tracker.inflight--;
        settled = true;
      };
      // Why: until the body is in, an abort must release the in-flight count; after, deliver() does.
      life.onAbort = settle;
      res.onAborted(() => {
        life.aborted = true;
        life.onAbort?.();
        ctx.aborted();
      });
      readBody(res, life, maxBody, route, ctx.path, (body) => {
        settled = true;
        life.onAbort = null;
        ctx.body = body;
        const out = runPipeline(route, ctx, deps.stages);
        if (isPromiseLike(out)) out.then((o) => deliver(res, life, o, route, deps));
        else deliver(res, life, out, route, deps);
      }, settle);
      return;
    }
    const out = runPipeline(route, ctx, deps.stages);
    // Why: returning from a handler without responding and without an abort handler aborts the whole
    // process. A synchronous reply is written before the handler returns and needs none (one native call and
    // one closure saved on the hot path); an async outcome or a stream gets one before the handler returns.
    if (isPromiseLike(out) || out.kind === 'stream') {
      res.onAborted(() => {
        life.aborted = true;
        life.onAbort?.();
        ctx.aborted();
      });
    }
    if (isPromiseLike(out)) out.then((o) => deliver(res, life, o, route, deps));
    else deliver(res, life, out, route, deps, true);
  });
}
