import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PriceEntry } from '../../engine/router/price-types.js';
import type { ResolvedToken } from '../../engine/services/price-service-types.js';
import { serializeReply } from '../pipeline.js';
import { createRequestContext, type Reply } from '../request-context.js';
import { FakePriceService } from '../testing/fake-price-service.js';
import { priceRoute } from './prices.js';

/** The fake with a settable inputs version (null: unknown) and a log of the ms each price was taken at. */
class VersionedService extends FakePriceService {
  version: number | null = 7;
  readonly pricedAt: number[] = [];
  override price(token: ResolvedToken, optimistic: boolean, nowMs = Date.now()): PriceEntry {
    this.pricedAt.push(nowMs);
    const e = super.price(token, optimistic);
    return 'status' in e ? e : { ...e, timestamp: nowMs };
  }
  inputsVersion(): number | null {
    return this.version;
  }
}

function setup(): { svc: VersionedService; ask: (token: string) => Reply; clock: { ms: number } } {
  const svc = new VersionedService();
  const clock = { ms: 1_000 };
  const route = priceRoute(svc, { now: () => clock.ms });
  const ask = (token: string): Reply => route.handler(createRequestContext({ path: `/v1/price/${token}`, params: { token } })) as Reply;
  return { svc, ask, clock };
}

test('the same token in the same ms and inputs version is priced and serialized once', () => {
  const { svc, ask } = setup();
  const a = ask('SOL');
  const b = ask('SOL');
  assert.equal(svc.pricedAt.length, 1);
  assert.equal(b, a);
  assert.equal(a.status, 200);
  assert.equal(String(a.json), JSON.stringify(a.body));
  assert.equal(String(serializeReply(b).body), JSON.stringify(a.body));
});

test('a new ms prices again, at that ms (timestamp and ages stay exact)', () => {
  const { svc, ask, clock } = setup();
  ask('SOL');
  clock.ms++;
  const b = ask('SOL');
  assert.deepEqual(svc.pricedAt, [1_000, 1_001]);
  assert.equal((b.body as { timestamp: number }).timestamp, 1_001);
});

test('a moved inputs version prices again within the same ms', () => {
  const { svc, ask } = setup();
  ask('SOL');
  svc.version = 8;
  ask('SOL');
  svc.confirmed.set(svc.resolve('SOL')!.mint, 175);
  svc.version = 9;
  const c = ask('SOL');
  assert.equal(svc.pricedAt.length, 3);
  assert.equal((c.body as { priceUsd: number }).priceUsd, 175);
});

test('an unknown inputs version memoizes nothing', () => {
  const { svc, ask } = setup();
  svc.version = null;
  const a = ask('SOL');
  ask('SOL');
  assert.equal(svc.pricedAt.length, 2);
  assert.equal(a.json, undefined);
});

test('tokens are memoized apart, unavailable answers keep their 404, unknown tokens are never memoized', () => {
  const { svc, ask } = setup();
  assert.equal(ask('SOL').status, 200);
  assert.equal(ask('WBTC').status, 404);
  assert.equal(ask('WBTC').status, 404);
  assert.equal(svc.pricedAt.length, 2);
  for (let i = 0; i < 2; i++) assert.throws(() => ask('NOT-A-TOKEN'), (e: { code?: string }) => e.code === 'INVALID_REQUEST');
});
