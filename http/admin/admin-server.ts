/**
 * The admin API: key management for operators and for the command-line tool while the service runs (PGlite
 * allows one process, so the tool cannot open the store then). Bound to loopback by default and authenticated
 * by `Authorization: Bearer <admin token>`. Control plane only: plain JSON in and out.
 *
 *   GET  /admin/health                 -> { ok: true }
 *   GET  /admin/keys                   -> { keys: [KeyView], count }
 *   POST /admin/keys                   { tier, label?, referrer? } -> 201 CreatedKey (the key is shown once)
 *   POST /admin/keys/:id/revoke        -> KeyView
 *   POST /admin/keys/:id/tier          { tier } -> KeyView
 *   GET  /metrics                      -> Prometheus text (no token: counts only; http/metrics-endpoint.ts)
 */
import type { HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { EngineError, isEngineError } from '../../engine/errors.js';
import type { KeyService } from '../../engine/keys/key-service.js';
import { statusLine } from '../errors.js';
import { log } from '../log.js';
import { loadUws } from '../uws.js';
import { mountMetrics, type MetricsText } from '../metrics-endpoint.js';
import { tokenMatches } from './admin-token.js';

/** Options of {@link startAdminServer}. */
export interface AdminServerOptions {
  readonly keys: KeyService;
  readonly token: string;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Served as `GET /metrics` (absent: no metrics route). */
  readonly metrics?: MetricsText;
}

/** A listening admin API. */
export interface AdminServer {
  readonly port: number;
  readonly url: string;
  close(): void;
}

interface AdminRequest {
  readonly params: readonly string[];
  readonly body: Record<string, unknown>;
}

type AdminHandler = (r: AdminRequest) => Promise<{ status: number; body: unknown }>;

const MAX_BODY = 16 * 1024;

const ERROR_STATUS: Readonly<Record<string, number>> = { BAD_TIER: 400, UNKNOWN_REFERRER: 400, UNKNOWN_KEY: 404, BAD_REQUEST: 400 };

function send(res: HttpResponse, status: number, body: unknown): void {
  res.cork(() => {
    res.writeStatus(statusLine(status)).writeHeader('content-type', 'application/json').end(JSON.stringify(body));
  });
}

function route(app: TemplatedApp, method: 'get' | 'post', pattern: string, nParams: number, token: string, fn: AdminHandler): void {
  app[method](pattern, (res, req) => {
    const auth = req.getHeader('authorization');
    const params = Array.from({ length: nParams }, (_, i) => req.getParameter(i) ?? '');
    let aborted = false;
    res.onAborted(() => (aborted = true));
    const presented = auth.startsWith('Bearer ') ? auth.slice(7).trim() : '';
    if (!tokenMatches(presented, token)) {
      send(res, 401, { error: 'admin token required (Authorization: Bearer <token>)', code: 'UNAUTHORIZED' });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    res.onData((chunk, last) => {
      if (aborted || size > MAX_BODY) return;
      size += chunk.byteLength;
      if (size > MAX_BODY) return send(res, 400, { error: 'body too large', code: 'INVALID_REQUEST' });
      chunks.push(Buffer.from(new Uint8Array(chunk)));
      if (!last) return;
      let body: Record<string, unknown> = {};
      try {
        const text = Buffer.concat(chunks).toString('utf8').trim();
        if (text) body = JSON.parse(text) as Record<string, unknown>;
        if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('not an object');
      } catch {
        return send(res, 400, { error: 'body must be a JSON object', code: 'INVALID_REQUEST' });
      }
      fn({ params, body }).then(
        (r) => !aborted && send(res, r.status, r.body),
        (e: unknown) => {
          if (aborted) return;
          if (isEngineError(e) && ERROR_STATUS[e.code]) return send(res, ERROR_STATUS[e.code]!, { error: e.message, code: e.code });
          log.error('admin request failed', { pattern, err: e });
          send(res, 500, { error: 'internal error', code: 'INTERNAL' });
        },
      );
    });
  });
}

/** A key id in the path: decimal digits only (400 otherwise); one no key can have is the service's 404. */
function idParam(s: string): number {
  const id = /^[0-9]{1,20}$/.test(s) ? Number(s) : NaN;
  if (!Number.isInteger(id) || id <= 0) throw new EngineError('BAD_REQUEST', `bad key id ${s.slice(0, 32)}`);
  return id;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Starts the admin API. */
export async function startAdminServer(opts: AdminServerOptions): Promise<AdminServer> {
  const uWS = loadUws();
  const app = uWS.App();
  const { keys, token } = opts;
  route(app, 'get', '/admin/health', 0, token, async () => ({ status: 200, body: { ok: true } }));
  route(app, 'get', '/admin/keys', 0, token, async () => {
    const list = await keys.list();
    return { status: 200, body: { keys: list, count: list.length } };
  });
  route(app, 'post', '/admin/keys', 0, token, async ({ body }) => ({
    status: 201,
    body: await keys.create({ tier: str(body.tier) ?? 'free', label: str(body.label) ?? null, referrer: str(body.referrer) ?? null }),
  }));
  route(app, 'post', '/admin/keys/:id/revoke', 1, token, async ({ params }) => ({ status: 200, body: await keys.revoke(idParam(params[0]!)) }));
  route(app, 'post', '/admin/keys/:id/tier', 1, token, async ({ params, body }) => ({
    status: 200,
    body: await keys.setTier(idParam(params[0]!), str(body.tier) ?? ''),
  }));
  if (opts.metrics) mountMetrics(app, opts.metrics);
  app.any('/*', (res) => {
    res.writeStatus('404 Not Found').writeHeader('content-type', 'application/json').end(JSON.stringify({ error: 'no such admin route', code: 'ROUTE_NOT_FOUND' }));
  });
  const ls = await new Promise<us_listen_socket>((resolve, reject) =>
    app.listen(opts.host, opts.port, (s) => (s ? resolve(s) : reject(new Error(`admin API cannot listen on ${opts.host}:${opts.port}`)))),
  );
  const port = uWS.us_socket_local_port(ls as unknown as Parameters<typeof uWS.us_socket_local_port>[0]);
  const host = opts.host === '0.0.0.0' || opts.host === '::' ? '127.0.0.1' : opts.host;
  log.info('admin API listening', { host: opts.host, port });
  return {
    port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () => {
      uWS.us_listen_socket_close(ls);
      (app as unknown as { close?: () => void }).close?.();
    },
  };
}
