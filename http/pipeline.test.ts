import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnonymousCache } from './anon-cache.js';
import { keyAuth } from './auth.js';
import type { Tier } from '../engine/tiers/tier.js';
import { ApiError } from './errors.js';
import { reloadLogLevel } from './log.js';
import { runPipeline, type PipelineOutcome, type PipelineStages, type WireReply } from './pipeline.js';
import { noRateLimit } from './rate-limit.js';
import { createRequestContext, type RequestContextInit, type RouteHandler } from './request-context.js';
import type { RouteDef } from './route.js';

process.env.LOG_LEVEL = 'silent';
reloadLogLevel();

function route(handler: RouteHandler, over: Partial<RouteDef> = {}): RouteDef {
  return { name: 't', method: 'get', pattern: '/t', auth: 'none', apiKeyQuery: false, meter: 'prices', anonCacheTtlMs: 0, handler, ...over };
}

const KEYS = new Map<string, { id: number; tier: Tier }>([
  ['k1', { id: 1, tier: 'free' }],
  ['k2', { id: 2, tier: 'starter' }],
  ['k3', { id: 3, tier: 'pro' }],
]);
const auth = keyAuth((k) => KEYS.get(k) ?? null);

function stages(over: Partial<PipelineStages> = {}): PipelineStages {
  return { auth, rateLimit: noRateLimit, cache: new AnonymousCache(), ...over };
}

async function run(r: RouteDef, init: Partial<RequestContextInit> = {}, st: PipelineStages = stages()): Promise<WireReply> {
  const out: PipelineOutcome = await runPipeline(r, createRequestContext({ path: '/t', ...init }), st);
  assert.equal(out.kind, 'reply');
  return out as WireReply;
}

const body = (w: WireReply): Record<string, unknown> => JSON.parse(w.body.toString()) as Record<string, unknown>;

test('a sync handler answers synchronously with a JSON body', () => {
  const out = runPipeline(route(() => ({ status: 200, body: { a: 1 } })), createRequestContext({ path: '/t' }), stages());
  assert.ok(!(out instanceof Promise), 'sync stages must keep the sync path');
  const w = out as WireReply;
  assert.equal(w.status, 200);
  assert.equal(w.headers['content-type'], 'application/json');
  assert.equal(w.body, '{"a":1}');
});

test('pre-serialized bodies pass through untouched', async () => {
  const w = await run(route(() => ({ status: 200, body: Buffer.from('{"x":2}'), headers: { 'content-type': 'text/plain' } })));
  assert.equal(w.body.toString(), '{"x":2}');
  assert.equal(w.headers['content-type'], 'text/plain');
});

test('an ApiError becomes its catalog status and body', async () => {
  const w = await run(route(() => { throw new ApiError('INVALID_REQUEST', 'bad', { details: 'tokens missing' }); }));
  assert.equal(w.status, 400);
  assert.deepEqual(body(w), { error: 'bad', code: 'INVALID_REQUEST', details: 'tokens missing' });
});

test('an unexpected throw is 500 INTERNAL without internals', async () => {
  const w = await run(route(() => { throw new TypeError('secret stack detail'); }));
  assert.equal(w.status, 500);
  assert.deepEqual(body(w), { error: 'Internal server error', code: 'INTERNAL' });
});

test('an async rejection is 500 INTERNAL', async () => {
  const w = await run(route(async () => { throw new Error('boom'); }));
  assert.equal(w.status, 500);
  assert.equal(body(w).code, 'INTERNAL');
});

test('a body that cannot serialize is 500 INTERNAL', async () => {
  const w = await run(route(() => ({ status: 200, body: { n: 1n } })));
  assert.equal(w.status, 500);
});

test('503 carries Retry-After', async () => {
  const w = await run(route(() => { throw new ApiError('SERVICE_UNAVAILABLE', 'warming'); }));
  assert.equal(w.status, 503);
  assert.equal(w.headers['retry-after'], '5');
});

test('auth: a key route without a key is 401 UNAUTHORIZED; the handler never runs', async () => {
  const r = route(() => { throw new Error('handler must not run'); }, { auth: 'key' });
  const w = await run(r);
  assert.equal(w.status, 401);
  assert.equal(body(w).code, 'UNAUTHORIZED');
  const blank = await run(r, { headers: { 'x-api-key': '   ' } });
  assert.equal(blank.status, 401);
});

test('auth: header key passes; query apiKey only where the route allows it', async () => {
  let seen: unknown;
  const h: RouteHandler = (ctx) => { seen = ctx.principal; return { status: 200, body: {} }; };
  assert.equal((await run(route(h, { auth: 'key' }), { headers: { 'x-api-key': 'k1' } })).status, 200);
  assert.deepEqual(seen, { kind: 'key', apiKey: 'k1', via: 'header', keyId: 1, tier: 'free' });
  assert.equal((await run(route(h, { auth: 'key' }), { rawQuery: 'apiKey=k2' })).status, 401);
  assert.equal((await run(route(h, { auth: 'key', apiKeyQuery: true }), { rawQuery: 'apiKey=k2' })).status, 200);
  assert.deepEqual(seen, { kind: 'key', apiKey: 'k2', via: 'query', keyId: 2, tier: 'starter' });
  // On a 'none' route the header key is still recognised (it bypasses the anonymous cache).
  await run(route(h), { headers: { 'x-api-key': 'k3' } });
  assert.deepEqual(seen, { kind: 'key', apiKey: 'k3', via: 'header', keyId: 3, tier: 'pro' });
  await run(route(h));
  assert.deepEqual(seen, { kind: 'anonymous' });
});

test('auth: an unknown key is 401 on every route, public ones included', async () => {
  const h: RouteHandler = () => ({ status: 200, body: {} });
  for (const over of [{ auth: 'key' as const }, { auth: 'none' as const }]) {
    const w = await run(route(h, over), { headers: { 'x-api-key': 'nope' } });
    assert.equal(w.status, 401);
    assert.equal(body(w).code, 'UNAUTHORIZED');
  }
});

test('auth: below the minimum tier is 403 with a bare { error } body, anonymous included', async () => {
  const r = route(() => ({ status: 200, body: { ok: true } }), { auth: 'key', apiKeyQuery: true, minTier: 'starter' });
  for (const init of [{}, { headers: { 'x-api-key': 'k1' } }]) {
    const w = await run(r, init);
    assert.equal(w.status, 403);
    assert.deepEqual(Object.keys(body(w)), ['error']);
  }
  assert.equal((await run(r, { headers: { 'x-api-key': 'nope' } })).status, 401);
  assert.equal((await run(r, { rawQuery: 'apiKey=k2' })).status, 200);
  assert.equal((await run(r, { headers: { 'x-api-key': 'k3' } })).status, 200);
});

test('stream slots: taken for stream routes, given back when the request ends without a stream', async () => {
  let held = 0;
  const slots = async () => {
    held++;
    let done = false;
    return { release: () => { if (!done) held--; done = true; } };
  };
  const statuses: number[] = [];
  const st = stages({ slots, observe: (_c, _r, s) => statuses.push(s) });
  const bad = route(() => { throw new ApiError('INVALID_REQUEST', 'bad tokens'); }, { auth: 'key', stream: true });
  assert.equal((await run(bad, { headers: { 'x-api-key': 'k1' } }, st)).status, 400);
  assert.equal(held, 0);
  const ok = route(() => ({ stream: { firstFrame: 'x', open: () => undefined } }), { auth: 'key', stream: true });
  const out = await runPipeline(ok, createRequestContext({ path: '/t', headers: { 'x-api-key': 'k1' } }), st);
  assert.equal(out.kind, 'stream');
  assert.equal(held, 1);
  if (out.kind === 'stream') out.lease?.release();
  assert.equal(held, 0);
  assert.deepEqual(statuses, [400, 200]);
});

test('rate-limit stage: headers land on success and on handler errors; a 429 keeps its body and headers', async () => {
  const rl = { x: 0 };
  const st = stages({
    rateLimit: () => {
      rl.x++;
      if (rl.x > 2) {
        throw new ApiError('RATE_LIMITED', 'Rate limit exceeded', {
          extra: { limit: 2, tier: 'anonymous', retryAfterSeconds: 7 },
          headers: { 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '0' },
        });
      }
      return { headers: { 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': String(2 - rl.x) } };
    },
  });
  const ok = await run(route(() => ({ status: 200, body: {} })), {}, st);
  assert.equal(ok.headers['x-ratelimit-remaining'], '1');
  const err = await run(route(() => { throw new ApiError('INVALID_REQUEST', 'x'); }), {}, st);
  assert.equal(err.status, 400);
  assert.equal(err.headers['x-ratelimit-remaining'], '0');
  const limited = await run(route(() => { throw new Error('handler must not run'); }), {}, st);
  assert.equal(limited.status, 429);
  assert.equal(limited.headers['retry-after'], '7');
  assert.deepEqual(body(limited), { error: 'Rate limit exceeded', code: 'RATE_LIMITED', limit: 2, tier: 'anonymous', retryAfterSeconds: 7 });
});

test('rate-limit stage is skipped on unmetered routes', async () => {
  const st = stages({ rateLimit: () => { throw new Error('must not be called'); } });
  assert.equal((await run(route(() => ({ status: 200, body: {} }), { meter: null }), {}, st)).status, 200);
});

test('anonymous cache: hit within TTL keyed by full URL; a key bypasses it; errors are not cached', async () => {
  let calls = 0;
  const r = route(() => ({ status: 200, body: { calls: ++calls } }), { anonCacheTtlMs: 60_000 });
  const st = stages();
  const a = await run(r, { rawQuery: 'tokens=SOL' }, st);
  const b = await run(r, { rawQuery: 'tokens=SOL' }, st);
  assert.equal(a.cache, 'miss');
  assert.equal(b.cache, 'hit');
  assert.deepEqual(body(b), { calls: 1 });
  const c = await run(r, { rawQuery: 'tokens=sol' }, st);
  assert.deepEqual(body(c), { calls: 2 }, 'a different URL is a different entry');
  const keyed = await run(r, { rawQuery: 'tokens=SOL', headers: { 'x-api-key': 'k1' } }, st);
  assert.deepEqual(body(keyed), { calls: 3 });
  assert.equal(keyed.cache, undefined);

  let failing = 0;
  const bad = route(() => { failing++; throw new ApiError('SERVICE_UNAVAILABLE', 'warming'); }, { anonCacheTtlMs: 60_000 });
  await run(bad, {}, st);
  await run(bad, {}, st);
  assert.equal(failing, 2);
});

test('anonymous cache expires after its TTL', async () => {
  let calls = 0;
  const r = route(() => ({ status: 200, body: { calls: ++calls } }), { anonCacheTtlMs: 30 });
  const st = stages();
  await run(r, {}, st);
  await new Promise((res) => setTimeout(res, 60));
  assert.deepEqual(body(await run(r, {}, st)), { calls: 2 });
});

test('anonymous cache: a route that ages its answers serves hits older by the time since they were computed', async () => {
  let calls = 0;
  const r = route(() => ({ status: 200, body: { ageMs: 10, calls: ++calls } }), {
    anonCacheTtlMs: 60_000,
    ageCached: (b, elapsedMs) => ({ ...(b as { ageMs: number }), ageMs: (b as { ageMs: number }).ageMs + elapsedMs }),
  });
  const st = stages();
  const first = await run(r, {}, st);
  const computedBy = Date.now();
  assert.equal(body(first).ageMs, 10);
  await new Promise((res) => setTimeout(res, 40));
  // Why measured here: a 40 ms timer can span 39 wall-clock ms (whole-ms clock), as CI once saw.
  const waited = Date.now() - computedBy;
  assert.ok(waited >= 30, `waited ${waited}`);
  const hit = await run(r, {}, st);
  assert.equal(hit.cache, 'hit');
  assert.equal(body(hit).calls, 1, 'served from the cache');
  assert.ok(Number(body(hit).ageMs) >= 10 + waited, `aged: ${String(body(hit).ageMs)}, waited ${waited}`);
});

test('a stream reply passes through as a stream outcome with stage headers', async () => {
  const st = stages({ rateLimit: () => ({ headers: { 'x-ratelimit-limit': '9' } }) });
  const out = await runPipeline(
    route(() => ({ stream: { firstFrame: 'x', open: () => {} } }), { auth: 'key' }),
    createRequestContext({ path: '/t', headers: { 'x-api-key': 'k1' } }),
    st,
  );
  assert.equal(out.kind, 'stream');
  assert.equal(out.headers['x-ratelimit-limit'], '9');
});
