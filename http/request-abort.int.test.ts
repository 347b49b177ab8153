import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { mountRoute, type InflightTracker } from './pipeline.js';
import { noRateLimit } from './rate-limit.js';
import { ANONYMOUS, type Reply, type RequestContext } from './request-context.js';
import type { RouteDef } from './route.js';
import { SseHub } from './sse.js';
import { loadUws } from './uws.js';

const uWS = loadUws();
let app: TemplatedApp;
let listen: us_listen_socket;
let port = 0;
const tracker: InflightTracker = { inflight: 0 };
/** Per request path: resolves with whether the handler's signal fired, once the handler has started. */
const started = new Map<string, (ctx: RequestContext) => void>();

/** A handler that answers only when its request's signal fires (what a route search abandoned by its client does). */
function waitForAbort(ctx: RequestContext): Promise<Reply> {
  started.get(ctx.path)?.(ctx);
  return new Promise((resolve) => ctx.signal!.addEventListener('abort', () => resolve({ status: 200, body: { aborted: true } }), { once: true }));
}

function route(over: Partial<RouteDef>): RouteDef {
  return { name: 'probe', method: 'get', pattern: '/probe', auth: 'none', apiKeyQuery: false, meter: null, anonCacheTtlMs: 0, handler: waitForAbort, ...over };
}

before(async () => {
  app = uWS.App();
  const deps = { stages: { auth: () => ANONYMOUS, rateLimit: noRateLimit, cache: null }, hub: new SseHub({ heartbeatMs: 60_000 }), tracker };
  mountRoute(app, route({}), deps);
  mountRoute(app, route({ name: 'probe.post', method: 'post', pattern: '/probe-body', maxBodyBytes: 1024 }), deps);
  listen = await new Promise<us_listen_socket>((resolve, reject) => app.listen('127.0.0.1', 0, (ls) => (ls ? resolve(ls) : reject(new Error('no listen')))));
  port = uWS.us_socket_local_port(listen as unknown as Parameters<typeof uWS.us_socket_local_port>[0]);
});

after(() => {
  uWS.us_listen_socket_close(listen);
  (app as unknown as { close?: () => void }).close?.();
});

/** Sends `request`, waits for the handler to start, closes the connection; resolves with the handler's context. */
async function abandon(path: string, request: string): Promise<RequestContext> {
  const ctxSeen = new Promise<RequestContext>((resolve) => started.set(path, resolve));
  const socket: Socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(request);
  const ctx = await ctxSeen;
  socket.destroy();
  return ctx;
}

test('a GET whose client goes away fires the request signal (uWS onAborted)', { timeout: 20_000 }, async () => {
  const ctx = await abandon('/probe', 'GET /probe HTTP/1.1\r\nHost: x\r\n\r\n');
  await new Promise<void>((resolve) => (ctx.signal!.aborted ? resolve() : ctx.signal!.addEventListener('abort', () => resolve(), { once: true })));
  assert.equal(ctx.signal!.aborted, true);
});

test('a POST whose client goes away after its body fires the request signal too', { timeout: 20_000 }, async () => {
  const body = '{"a":1}';
  const ctx = await abandon('/probe-body', `POST /probe-body HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
  await new Promise<void>((resolve) => (ctx.signal!.aborted ? resolve() : ctx.signal!.addEventListener('abort', () => resolve(), { once: true })));
  assert.equal(ctx.signal!.aborted, true);
});
