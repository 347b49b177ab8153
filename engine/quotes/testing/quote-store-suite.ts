/**
 * Test support: what every QuoteStore must do, written once and run against each store (`quote-store.memory.test.ts`,
 * `quote-store.redis.test.ts`).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EXPIRED_KEPT_MS, newQuoteId, type QuoteStore } from '../quote-store.js';

/** Two stores over the same quotes (one object in memory; two connections for Redis), and their teardown. */
export interface QuoteStoreHarness {
  readonly a: QuoteStore;
  readonly b: QuoteStore;
  close(): Promise<void>;
}

/** Registers the suite for one backend. `make(now)` builds stores whose own clock is `now`. */
export function quoteStoreSuite(label: string, make: (now: () => number) => Promise<QuoteStoreHarness>): void {
  describe(`${label}: quote store`, () => {
    let h: QuoteStoreHarness;
    const t0 = Date.now();
    before(async () => {
      h = await make(() => t0);
    });
    after(async () => {
      await h.close();
    });

    test('a quote is taken once, with its payload, by any instance', async () => {
      const id = newQuoteId();
      const payload = JSON.stringify({ route: ['a:b', 'c'], amount: '18446744073709551615' });
      await h.a.put({ quoteId: id, expiresAtMs: t0 + 30_000, payload });
      const first = await h.b.take(id, t0 + 29_999);
      assert.deepEqual(first, { status: 'ok', quote: { quoteId: id, expiresAtMs: t0 + 30_000, payload } });
      assert.deepEqual(await h.a.take(id, t0 + 1), { status: 'not-found' }, 'consumed');
      assert.deepEqual(await h.b.take(newQuoteId(), t0), { status: 'not-found' }, 'never issued');
    });

    test('an expired quote reads as expired on every take until its mark ends, then as unknown', async () => {
      const id = newQuoteId();
      await h.a.put({ quoteId: id, expiresAtMs: t0 + 30_000, payload: 'x' });
      assert.deepEqual(await h.b.take(id, t0 + 30_000), { status: 'expired' }, 'expired at expiresAt itself');
      assert.deepEqual(await h.a.take(id, t0 + 31_000), { status: 'expired' }, 'still expired: an expired take consumes nothing');
      assert.deepEqual(await h.a.take(id, t0 + 30_000 + EXPIRED_KEPT_MS), { status: 'not-found' });
    });

    test('two instances taking one id at once: exactly one gets it', async () => {
      for (let i = 0; i < 20; i++) {
        const id = newQuoteId();
        await h.a.put({ quoteId: id, expiresAtMs: t0 + 30_000, payload: String(i) });
        const rs = await Promise.all([h.a.take(id, t0), h.b.take(id, t0), h.a.take(id, t0), h.b.take(id, t0)]);
        assert.equal(rs.filter((r) => r.status === 'ok').length, 1, `round ${i}: ${JSON.stringify(rs)}`);
        assert.equal(rs.filter((r) => r.status === 'not-found').length, 3);
      }
    });
  });
}
