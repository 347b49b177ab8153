/**
 * The plain request context handlers receive, and the reply shapes they return. Nothing here touches uWS, so
 * handlers are testable without sockets.
 */
import type { Tier } from '../engine/tiers/tier.js';
import type { MaybePromise } from './maybe-promise.js';
import type { SseClient } from './sse.js';

/** Who is calling, as decided by the auth stage. */
export type Principal =
  | { readonly kind: 'anonymous' }
  | {
      readonly kind: 'key';
      /** The key as presented (never logged). */
      readonly apiKey: string;
      readonly via: 'header' | 'query';
      /** The key's id in the store. */
      readonly keyId: number;
      readonly tier: Tier;
    };

/** The anonymous principal (shared, immutable). */
export const ANONYMOUS: Principal = Object.freeze({ kind: 'anonymous' });

/** Everything a stage or handler may read about a request, copied out of uWS before any await. */
export interface RequestContext {
  /** Lower-case method (`get`). */
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  /** Raw query string without `?` ('' when none). */
  readonly rawQuery: string;
  /** Decoded query parameters. */
  readonly query: URLSearchParams;
  /** Path parameters by name (`:token` -> `token`), URL-decoded. */
  readonly params: Readonly<Record<string, string>>;
  /** The request headers the pipeline copies (lower-case names). */
  readonly headers: Readonly<Record<string, string>>;
  /** Peer address as text; empty when the request presents an API key (only anonymous callers are limited by address). */
  readonly remoteAddress: string;
  /** When the request arrived (epoch ms). */
  readonly receivedAtMs: number;
  /** `performance.now()` when the request was copied (latency metrics); absent in contexts built without a socket. */
  readonly startedAt?: number;
  /** The request body (POST, PATCH, DELETE routes that read one), or null. */
  readonly body: Buffer | null;
  /** Set by the auth stage. */
  principal: Principal;
  /**
   * Fires when the client goes away before the answer is written (uWS `onAborted`): work for this request may
   * stop. Made on first read (the price routes never read it). Absent in contexts built without a socket.
   */
  readonly signal?: AbortSignal;
}

/** A plain reply: status, a body (object to serialize, or pre-serialized), optional headers. */
export interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * `JSON.stringify(body)` (as text or UTF-8 bytes), when the handler already holds it (a memoized answer): written
   * as is instead of serializing `body` again. `body` stays the object (the anonymous cache ages it).
   */
  readonly json?: string | Buffer;
}

/** What a stream handler returns once the request is validated: the first frame and the open hook. */
export interface StreamReply {
  readonly stream: {
    /** Serialized first frame (`ready`), written together with the headers. */
    readonly firstFrame: string;
    /** Called once the SSE client is registered; may start async work (snapshots). */
    open(client: SseClient): void;
    /**
     * The status the outcome observer records for this connect (default 200): a stream that opens only to send
     * its terminal error (the quote stream's failed initial quote) reports that error's status.
     */
    readonly status?: number;
  };
}

/** A route handler: plain context in, plain reply (or a stream) out. */
export type RouteHandler = (ctx: RequestContext) => MaybePromise<Reply | StreamReply>;

/** True when the handler's answer opens a stream. */
export function isStreamReply(r: Reply | StreamReply): r is StreamReply {
  return (r as StreamReply).stream !== undefined;
}

/** Fields to build a context in tests or tools. */
export interface RequestContextInit {
  method?: string;
  path: string;
  rawQuery?: string;
  params?: Record<string, string>;
  headers?: Record<string, string>;
  remoteAddress?: string;
  receivedAtMs?: number;
  body?: Buffer | null;
}

/** Builds a {@link RequestContext} from plain fields. */
export function createRequestContext(init: RequestContextInit): RequestContext {
  const rawQuery = init.rawQuery ?? '';
  return {
    method: init.method ?? 'get',
    path: init.path,
    rawQuery,
    query: new URLSearchParams(rawQuery),
    params: init.params ?? {},
    headers: init.headers ?? {},
    remoteAddress: init.remoteAddress ?? '127.0.0.1',
    receivedAtMs: init.receivedAtMs ?? Date.now(),
    body: init.body ?? null,
    principal: ANONYMOUS,
  };
}

/** The tier of a principal (`anonymous` without a key). */
export function tierOf(p: Principal): Tier {
  return p.kind === 'key' ? p.tier : 'anonymous';
}
