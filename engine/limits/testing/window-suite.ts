/**
 * Test support: the behaviour every WindowLimiter must show, written once and run against each backend
 * (`limits.memory.test.ts`, `limits.redis.test.ts`).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { isEngineError } from '../../errors.js';
import type { WindowDecision, WindowLimiter } from '../types.js';
import { windowStartOf } from '../window.js';

/** Two limiters counting the same buckets (one object for memory; two connections for Redis). */
export interface WindowHarness {
  readonly a: WindowLimiter;
  readonly b: WindowLimiter;
  close(): Promise<void>;
}

/** Builds a harness whose limiters use windows of `windowMs`. */
export type WindowFactory = (windowMs: number) => Promise<WindowHarness>;

const MIN = 60_000;

/** Registers the window-counter suite for one backend. */
export function windowSuite(label: string, make: WindowFactory): void {
  describe(`${label}: window limiter`, () => {
    let h: WindowHarness;
    // A time in the middle of a minute, so `t0 + small` stays in one window whatever the wall clock says.
    const t0 = windowStartOf(Date.now(), MIN) + 20_000;
    const end = windowStartOf(t0, MIN) + MIN;
    const bucket = (name: string): string => `${name}:${randomUUID()}`;
    const consume = async (l: WindowLimiter, b: string, cost: number, limit: number, now = t0): Promise<WindowDecision> =>
      await l.consume(b, cost, limit, now);

    before(async () => {
      h = await make(MIN);
    });
    after(async () => {
      await h.close();
    });

    test('exact quota: N allowed, N+1 refused with used = N, and refused calls count nothing', async () => {
      const b = bucket('exact');
      for (let i = 1; i <= 5; i++) {
        assert.deepEqual(await consume(h.a, b, 1, 5, t0 + i), { allowed: true, used: i, limit: 5, resetAtMs: end });
      }
      for (let i = 0; i < 3; i++) {
        assert.deepEqual(await consume(h.a, b, 1, 5), { allowed: false, used: 5, limit: 5, resetAtMs: end });
      }
      // A higher limit for the same bucket sees 5, not 8: the refusals above were not counted.
      assert.deepEqual(await consume(h.a, b, 1, 10), { allowed: true, used: 6, limit: 10, resetAtMs: end });
    });

    test('a batch that does not fit is refused whole; one that fits is allowed', async () => {
      const b = bucket('batch');
      assert.equal((await consume(h.a, b, 7, 10)).used, 7);
      assert.deepEqual(await consume(h.a, b, 5, 10), { allowed: false, used: 7, limit: 10, resetAtMs: end });
      assert.deepEqual(await consume(h.a, b, 3, 10), { allowed: true, used: 10, limit: 10, resetAtMs: end });
      assert.equal((await consume(h.a, b, 1, 10)).allowed, false);
    });

    test('the next window starts from zero', async () => {
      const b = bucket('reset');
      for (let i = 0; i < 3; i++) await consume(h.a, b, 1, 3);
      assert.equal((await consume(h.a, b, 1, 3)).allowed, false);
      // The last millisecond of the window still belongs to it; the boundary belongs to the next one.
      assert.equal((await consume(h.a, b, 1, 3, end - 1)).allowed, false);
      assert.deepEqual(await consume(h.a, b, 1, 3, end), { allowed: true, used: 1, limit: 3, resetAtMs: end + MIN });
    });

    test('a real 1 s window resets on the wall clock', async () => {
      const short = await make(1000);
      try {
        const b = bucket('wall');
        let now = Date.now();
        // Start early in a second, so the two calls below land in the same window.
        if (now % 1000 > 700) {
          await sleep(1000 - (now % 1000));
          now = Date.now();
        }
        assert.equal((await short.a.consume(b, 2, 2, now)).allowed, true);
        const refused = await short.a.consume(b, 1, 2, Date.now());
        assert.equal(refused.allowed, false);
        assert.equal(refused.resetAtMs, windowStartOf(now, 1000) + 1000);
        await sleep(refused.resetAtMs - Date.now() + 5);
        assert.deepEqual(await short.a.consume(b, 1, 2, Date.now()), {
          allowed: true,
          used: 1,
          limit: 2,
          resetAtMs: refused.resetAtMs + 1000,
        });
      } finally {
        await short.close();
      }
    });

    test('buckets are independent', async () => {
      const x = bucket('x');
      const y = bucket('y');
      assert.equal((await consume(h.a, x, 2, 2)).allowed, true);
      assert.equal((await consume(h.a, x, 1, 2)).allowed, false);
      assert.deepEqual(await consume(h.a, y, 1, 2), { allowed: true, used: 1, limit: 2, resetAtMs: end });
    });

    test('limit 0 refuses everything, Infinity allows everything (and still counts), cost 0 is a peek', async () => {
      const b = bucket('edges');
      assert.deepEqual(await consume(h.a, b, 1, 0), { allowed: false, used: 0, limit: 0, resetAtMs: end });
      assert.deepEqual(await consume(h.a, b, 1000, Infinity), { allowed: true, used: 1000, limit: Infinity, resetAtMs: end });
      assert.deepEqual(await consume(h.a, b, 0, 2000), { allowed: true, used: 1000, limit: 2000, resetAtMs: end });
      assert.deepEqual(await consume(h.a, b, 0, 10), { allowed: false, used: 1000, limit: 10, resetAtMs: end });
      const fresh = bucket('peek');
      assert.deepEqual(await consume(h.a, fresh, 0, 0), { allowed: true, used: 0, limit: 0, resetAtMs: end });
    });

    test('bad arguments throw synchronously (caller bugs are not outages)', () => {
      const bad = (fn: () => unknown): void =>
        assert.throws(fn, (e: unknown) => isEngineError(e, 'LIMITS_BAD_ARGUMENT'));
      bad(() => h.a.consume('b', -1, 5, t0));
      bad(() => h.a.consume('b', 1.5, 5, t0));
      bad(() => h.a.consume('b', 1, -1, t0));
      bad(() => h.a.consume('b', 1, NaN, t0));
      bad(() => h.a.consume('b', 1, 5, NaN));
    });

    test('1000 concurrent consumes of one bucket with limit 100: exactly 100 allowed (500 per limiter)', async () => {
      const b = bucket('race');
      const calls = Array.from({ length: 1000 }, (_, i) => (i % 2 === 0 ? h.a : h.b).consume(b, 1, 100, t0));
      const out = await Promise.all(calls);
      const allowed = out.filter((d) => d.allowed);
      assert.equal(allowed.length, 100);
      // Each grant saw a distinct count: no two callers were handed the same unit.
      assert.deepEqual(
        allowed.map((d) => d.used).sort((p, q) => p - q),
        Array.from({ length: 100 }, (_, i) => i + 1),
      );
      assert.ok(out.filter((d) => !d.allowed).every((d) => d.used === 100));
      assert.equal((await consume(h.b, b, 0, 100)).used, 100);
    });
  });
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
