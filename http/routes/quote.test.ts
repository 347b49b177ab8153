import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { QuoteStore } from '../../engine/quotes/quote-store.js';
import type { RouteAnswer } from '../../engine/router/route-wire.js';
import { QuoteService } from '../../engine/services/quote-service.js';
import { ApiError } from '../errors.js';
import { createRequestContext, type Reply } from '../request-context.js';
import { FakePriceService } from '../testing/fake-price-service.js';
import { quoteRoutes } from './quote.js';

const store: QuoteStore = { put: async () => undefined, take: async () => ({ status: 'not-found' }), close: async () => undefined };

function routes(answer: RouteAnswer, svc = new FakePriceService()): { post: (body: unknown) => Promise<Reply>; svc: FakePriceService } {
  // The route search (a worker in the service) answers what the test says: the quote service and the route are real.
  const quotes = new QuoteService({ route: async () => answer, store, poolCount: () => 3 });
  const [post] = quoteRoutes(svc, quotes);
  return {
    svc,
    post: (body) => post!.handler(createRequestContext({ path: '/v1/quote', body: Buffer.from(JSON.stringify(body)) })) as Promise<Reply>,
  };
}

const ASK = { inputMint: 'SOL', outputMint: 'USDC', amount: '1000000' };

async function code(p: Promise<Reply>): Promise<{ code: string; status: number; extra: Readonly<Record<string, unknown>> }> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ApiError);
    return { code: e.code, status: e.status, extra: e.extra };
  }
  assert.fail('expected an error');
}

test('POST /v1/quote: a search past its deadline is 504 ROUTE_TIMEOUT with the mints echoed', async () => {
  const { post } = routes({ ok: false, code: 'ROUTE_TIMEOUT', message: 'route search deadline passed', contextSlot: 1n });
  const e = await code(post(ASK));
  assert.equal(e.code, 'ROUTE_TIMEOUT');
  assert.equal(e.status, 504);
  assert.ok(typeof e.extra.inputMint === 'string' && typeof e.extra.outputMint === 'string');
});

test('POST /v1/quote: 503 SERVICE_UNAVAILABLE while the startup snapshot loads, then answers', async () => {
  const svc = new FakePriceService();
  svc.isReady = false;
  const { post } = routes({ ok: false, code: 'NO_ROUTE', message: 'none', contextSlot: 1n }, svc);
  const e = await code(post(ASK));
  assert.equal(e.code, 'SERVICE_UNAVAILABLE');
  assert.equal(e.status, 503);
  svc.isReady = true;
  assert.equal((await code(post(ASK))).code, 'NO_ROUTE');
});
