/**
 * Test support: the behaviour every SlotLimiter must show, written once and run against each backend
 * (`limits.memory.test.ts`, `limits.redis.test.ts`).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { isEngineError } from '../../errors.js';
import type { SlotDecision, SlotLease, SlotLimiter } from '../types.js';

/** Two limiters counting the same subjects (one object for memory; two connections for Redis). */
export interface SlotHarness {
  readonly a: SlotLimiter;
  readonly b: SlotLimiter;
  /**
   * Resolves once every release already issued has reached the backend. Release is fire-and-forget: one
   * instance sees its own releases in order, another instance only once they have landed.
   */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/** Builds a harness. */
export type SlotFactory = () => Promise<SlotHarness>;

function leaseOf(d: SlotDecision): SlotLease {
  assert.equal(d.ok, true, `expected a slot, got ${JSON.stringify(d)}`);
  if (!d.ok) throw new Error('unreachable');
  return d.lease;
}

/** Registers the slot-counter suite for one backend. */
export function slotsSuite(label: string, make: SlotFactory): void {
  describe(`${label}: slot limiter`, () => {
    let h: SlotHarness;
    const subject = (name: string): string => `${name}:${randomUUID()}`;

    before(async () => {
      h = await make();
    });
    after(async () => {
      await h.close();
    });

    test('acquire up to the limit, the next is refused, a release frees one, a double release frees one only', async () => {
      const s = subject('cap');
      const leases: SlotLease[] = [];
      for (let i = 1; i <= 3; i++) {
        const d = await h.a.acquire(s, 3);
        assert.equal(d.held, i);
        leases.push(leaseOf(d));
      }
      assert.deepEqual(await h.a.acquire(s, 3), { ok: false, held: 3 });
      leases[0].release();
      leases[0].release();
      assert.equal(await h.a.held(s), 2);
      const again = await h.a.acquire(s, 3);
      assert.equal(again.held, 3);
      assert.deepEqual(await h.a.acquire(s, 3), { ok: false, held: 3 });
      for (const l of [...leases, leaseOf(again)]) l.release();
      assert.equal(await h.a.held(s), 0);
    });

    test('limit 0 refuses, Infinity always grants', async () => {
      const s = subject('edges');
      assert.deepEqual(await h.a.acquire(s, 0), { ok: false, held: 0 });
      const leases = [];
      for (let i = 0; i < 20; i++) leases.push(leaseOf(await h.a.acquire(s, Infinity)));
      assert.equal(await h.a.held(s), 20);
      for (const l of leases) l.release();
      assert.equal(await h.a.held(s), 0);
    });

    test('bad limits throw synchronously', () => {
      for (const limit of [-1, 1.5, NaN]) {
        assert.throws(() => h.a.acquire('s', limit), (e: unknown) => isEngineError(e, 'LIMITS_BAD_ARGUMENT'));
      }
    });

    test('1000 acquire/release cycles leave nothing held (no leak)', async () => {
      const s = subject('leak');
      // Limit 2, not 1: the other instance's last release may still be in flight (release is fire-and-forget).
      for (let i = 0; i < 1000; i++) {
        const l = leaseOf(await (i % 2 === 0 ? h.a : h.b).acquire(s, 2));
        l.release();
        if (i % 3 === 0) l.release();
      }
      await h.settle();
      assert.equal(await h.a.held(s), 0);
      assert.equal(await h.b.held(s), 0);
    });

    test('instances share one count; 100 concurrent acquires with limit 10 grant exactly 10', async () => {
      const s = subject('shared');
      const la = leaseOf(await h.a.acquire(s, 2));
      const lb = leaseOf(await h.b.acquire(s, 2));
      assert.deepEqual(await h.a.acquire(s, 2), { ok: false, held: 2 });
      assert.equal(await h.b.held(s), 2);
      la.release();
      lb.release();
      await h.settle();
      const out = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? h.a : h.b).acquire(s, 10)));
      const granted = out.filter((d) => d.ok);
      assert.equal(granted.length, 10);
      assert.equal(await h.a.held(s), 10);
      for (const d of granted) if (d.ok) d.lease.release();
      await h.settle();
      assert.equal(await h.b.held(s), 0);
    });
  });
}
