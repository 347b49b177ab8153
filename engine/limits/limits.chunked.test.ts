import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { ChunkRule } from './chunk-size.js';
import { chunkSizeOf } from './chunk-size.js';
import { ChunkedRedisWindowLimiter } from './redis-chunked-window.js';
import type { ChunkedWindowOptions } from './redis-chunked-window.js';
import { RedisWindowLimiter } from './redis-window.js';
import { SharedRedis } from './testing/shared-redis.js';
import type { LimitsLog, WindowDecision, WindowLimiter } from './types.js';
import { sleep, windowSuite } from './testing/window-suite.js';
import { windowStartOf } from './window.js';

// The shared Redis (README: how to start it), under a random prefix deleted after.
const redis = new SharedRedis('chunked');
const logs: string[] = [];
const log: LimitsLog = (_level, msg) => logs.push(msg);
const MIN = 60_000;

before(() => redis.start());
after(() => redis.stop());

/** A chunked limiter on its own connection (no sweep timer: tests sweep by hand). */
async function limiter(opts: ChunkedWindowOptions = {}): Promise<ChunkedRedisWindowLimiter> {
  return new ChunkedRedisWindowLimiter(await redis.open(log), { sweepIntervalMs: 0, ...opts });
}

// The contract suite three ways. The default rule on two instances: the suite's quotas are all below 200, so every
// call is counted per call, exactly. Then a quarter of the quota per chunk (the 1000-call race runs in waves of 25)
// and the whole quota as one chunk (every test of the suite on reserved units), on one instance: the suite's
// exact counts hold there, while across instances `used` is each instance's view (README, "Headers"), which the
// multi-instance tests below check instead (no overshoot, the whole quota granted, the early-refusal bound).
windowSuite('redis chunked (default rule, two instances)', async (windowMs) => {
  const [a, b] = [await limiter({ windowMs }), await limiter({ windowMs })];
  return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
});
const oneInstance = (chunk: ChunkRule) => async (windowMs: number) => {
  const l = await limiter({ windowMs, chunk });
  return { a: l, b: l, close: () => l.close() };
};
windowSuite('redis chunked (chunk = limit / 4)', oneInstance({ divisor: 4, max: 1000 }));
windowSuite('redis chunked (chunk = limit)', oneInstance({ divisor: 1, max: 1000 }));

// The tests below take the window of `t0`, and `close()` gives units back only to windows still live on the wall
// clock: start them with at least 30 s left in the wall clock's minute (they take a few seconds), or a minute that
// ends mid-file leaves the units unreturned (seen in CI: 4501 counted where 4000 were granted).
let t0 = 0;
before(async () => {
  const roomMs = MIN - (Date.now() % MIN);
  if (roomMs < 30_000) await sleep(roomMs + 50);
  t0 = windowStartOf(Date.now(), MIN) + 20_000;
});
const keyOf = (bucket: string, nowMs: number): string => `rl:${bucket}:${windowStartOf(nowMs, MIN) / 1000}`;
const isPromise = (d: unknown): boolean => d instanceof Promise;

test('chunked: granted from the local chunk without waiting, topped up in the background, one Redis call per chunk', async () => {
  const l = await limiter();
  const bucket = `steady:${randomUUID()}`;
  const limit = 1_000_000; // chunk 1000 (the rule's ceiling)
  assert.equal(chunkSizeOf(limit), 1000);
  let promises = 0;
  let allowed = 0;
  const used: number[] = [];
  for (let round = 0; round < 20; round++) {
    for (let i = 0; i < 200; i++) {
      const d = l.consume(bucket, 1, limit, t0);
      if (isPromise(d)) promises++;
      const r = await d;
      if (r.allowed) allowed++;
      used.push(r.used);
    }
    // Time for the background top-up's reply between bursts of 200 (less than the low-water mark of 500).
    await sleep(5);
  }
  await l.settle();
  assert.equal(allowed, 4000);
  assert.equal(promises, 1, 'only the first request of the window waited for Redis');
  assert.deepEqual(used, Array.from({ length: 4000 }, (_, i) => i + 1), 'one instance: used is the exact count');
  // Reserved = granted + held; the holding never exceeds a chunk.
  const held = l.held(bucket);
  assert.ok(held > 0 && held <= 1000, `held ${held}`);
  assert.equal(await redis.count(keyOf(bucket, t0)), 4000 + held);
  await l.close();
  assert.equal(await redis.count(keyOf(bucket, t0)), 4000, 'close gave the unused units back');
});

test('chunked: two instances hammering one bucket never grant more than the quota, and grant all of it', async () => {
  const rule = { divisor: 50, max: 1000 };
  const limit = 5000;
  const chunk = chunkSizeOf(limit, rule); // 100
  const [a, b] = [await limiter({ chunk: rule }), await limiter({ chunk: rule })];
  const bucket = `hammer:${randomUUID()}`;
  let granted = 0;
  let maxHeld = 0;
  const settle = (d: WindowDecision | Promise<WindowDecision>, cost: number): Promise<void> =>
    Promise.resolve(d).then((r) => {
      if (r.allowed) granted += cost;
      assert.ok(r.used <= limit, `used ${r.used}`);
    });
  // 30 rounds of 300 requests on each instance (costs 1-3, about 36,000 units asked for), interleaved, the
  // event loop turning between rounds so replies and top-ups land in between.
  for (let round = 0; round < 30; round++) {
    const batch: Promise<void>[] = [];
    for (let i = 0; i < 300; i++) {
      const cost = 1 + ((i * 7 + round) % 3);
      batch.push(settle(a.consume(bucket, cost, limit, t0), cost), settle(b.consume(bucket, cost, limit, t0), cost));
      maxHeld = Math.max(maxHeld, a.held(bucket), b.held(bucket));
    }
    await Promise.all(batch);
    await Promise.all([a.settle(), b.settle()]);
    const reserved = await redis.count(keyOf(bucket, t0));
    assert.ok(reserved <= limit, `reserved ${reserved}`);
    assert.equal(reserved, granted + a.held(bucket) + b.held(bucket), 'every reserved unit is granted or held');
  }
  assert.ok(maxHeld <= chunk, `an instance held ${maxHeld} > chunk ${chunk}`);
  assert.ok(granted <= limit);
  // Drain with single units: what either instance still holds is granted, then both refuse at exactly the quota.
  for (const l of [a, b, a, b]) {
    for (;;) {
      const d = await l.consume(bucket, 1, limit, t0);
      if (!d.allowed) break;
      granted++;
    }
  }
  assert.equal(granted, limit);
  assert.equal(await redis.count(keyOf(bucket, t0)), limit);
  await Promise.all([a.close(), b.close()]);
});

test('chunked: early refusal is bounded by (k - 1) chunks, and reached exactly when the others hold full chunks', async () => {
  const rule = { divisor: 30, max: 1000 };
  const limit = 300;
  const chunk = chunkSizeOf(limit, rule); // 10
  const [a, b, c] = [await limiter({ chunk: rule }), await limiter({ chunk: rule }), await limiter({ chunk: rule })];
  const bucket = `early:${randomUUID()}`;
  // A and B serve one request each and keep a full chunk.
  assert.equal((await a.consume(bucket, 1, limit, t0)).allowed, true);
  assert.equal((await b.consume(bucket, 1, limit, t0)).allowed, true);
  assert.equal(a.held(bucket), chunk);
  assert.equal(b.held(bucket), chunk);
  // C serves until refused: the refusal comes (k - 1) * chunk = 20 units before the quota, never sooner.
  const usedByC: number[] = [];
  let refusal: WindowDecision | undefined;
  while (refusal === undefined) {
    const d = await c.consume(bucket, 1, limit, t0);
    if (d.allowed) usedByC.push(d.used);
    else refusal = d;
  }
  const served = 2 + usedByC.length;
  assert.equal(served, limit - 2 * chunk);
  // C's view: the units A and B hold count as used (conservative), and it only grows: 23 (2 granted + 20 held +
  // its own first) up to the whole quota.
  assert.deepEqual(usedByC, Array.from({ length: usedByC.length }, (_, i) => 23 + i));
  // Remaining as C sees it: everything reserved counts as used.
  assert.deepEqual(refusal, { allowed: false, used: limit, limit, resetAtMs: windowStartOf(t0, MIN) + MIN });
  // The held units are not lost: A and B still grant them, then the total is exactly the quota.
  for (const l of [a, b]) {
    for (let i = 0; i < chunk; i++) assert.equal((await l.consume(bucket, 1, limit, t0)).allowed, true);
    assert.equal((await l.consume(bucket, 1, limit, t0)).allowed, false);
  }
  assert.equal(await redis.count(keyOf(bucket, t0)), limit);
  await Promise.all([a.close(), b.close(), c.close()]);
});

test('chunked: unused units go back to Redis on close and when idle; otherwise they expire with their window', async () => {
  const rule = { divisor: 10, max: 1000 };
  const limit = 100; // chunk 10
  const a = await limiter({ chunk: rule, idleReturnMs: 2000 });
  const b = await limiter({ chunk: rule });
  const bucket = `back:${randomUUID()}`;
  const key = keyOf(bucket, t0);
  await a.consume(bucket, 1, limit, t0);
  await b.consume(bucket, 1, limit, t0);
  assert.equal(await redis.count(key), 22);
  // Expiry: the counter (and with it every reservation) lives until its window ends, plus the slack.
  const pttl = await redis.raw.pttl(redis.prefix + key);
  const end = windowStartOf(t0, MIN) + MIN;
  assert.ok(pttl > 0 && pttl <= end - t0 + 10_000, `pttl ${pttl}`);
  // Idle: nothing happens before the idle period, then A's 10 units go back and its entry is dropped.
  await a.sweep(t0 + 1999);
  assert.equal(a.held(bucket), 10);
  await a.sweep(t0 + 2000);
  assert.equal(a.held(bucket), 0);
  assert.equal(a.size, 0);
  assert.equal(await redis.count(key), 12);
  // Close: B's units go back.
  await b.close();
  assert.equal(await redis.count(key), 2);
  // The given-back units are usable by anyone: 98 more fit.
  const c = await limiter({ chunk: rule });
  let n = 0;
  while ((await c.consume(bucket, 1, limit, t0)).allowed) n++;
  assert.equal(n, 98);
  // A window that ended is dropped without a Redis call (its counter expires on its own).
  const old = `old:${randomUUID()}`;
  await c.consume(old, 1, limit, t0);
  await c.sweep(end);
  assert.equal(c.held(old), 0);
  assert.equal(await redis.count(keyOf(old, t0)), 11);
  await Promise.all([a.close(), c.close()]);
});

test('chunked: the next window\'s first chunk is reserved ahead of the boundary, so the boundary does not wait', async () => {
  const rule = { divisor: 10, max: 1000 };
  const l = await limiter({ chunk: rule }); // lead: a tenth of the window, at most 1000 ms
  const bucket = `roll:${randomUUID()}`;
  const w0 = windowStartOf(t0, MIN);
  const next = w0 + MIN;
  for (let i = 1; i <= 5; i++) assert.equal((await l.consume(bucket, 1, 100, w0 + 30_000)).used, i);
  assert.equal(l.held(bucket), 6);
  // Within 1000 ms of the end: this request is served from the current window and reserves the next one's chunk.
  assert.equal((await l.consume(bucket, 1, 100, next - 1000)).used, 6);
  await l.settle();
  assert.equal(await redis.count(keyOf(bucket, next)), 10);
  // (The current window's holding fell to the top-up mark, 5, and was topped up to 10: 6 granted + 10 held.)
  assert.equal(await redis.count(keyOf(bucket, w0)), 16);
  // The boundary: answered at once from the reserved chunk, counting from 1, with the next reset.
  const d = l.consume(bucket, 1, 100, next);
  assert.equal(isPromise(d), false);
  assert.deepEqual(d, { allowed: true, used: 1, limit: 100, resetAtMs: next + MIN });
  assert.equal(l.held(bucket), 9);
  // The past window's 10 held units are dropped (they expire with its counter); a request stamped before the
  // boundary that arrives now is counted on the past window's counter, per call.
  assert.deepEqual(await l.consume(bucket, 1, 100, next - 1), { allowed: true, used: 17, limit: 100, resetAtMs: next });
  // Without the lead, the first request of a window waits for its reservation.
  const m = await limiter({ chunk: rule, nextWindowLeadMs: 0 });
  const other = `roll0:${randomUUID()}`;
  await m.consume(other, 1, 100, next - 1);
  const first = m.consume(other, 1, 100, next);
  assert.equal(isPromise(first), true);
  assert.equal((await first).used, 1);
  await Promise.all([l.close(), m.close()]);
});

test('chunked: a chunk reserved ahead and never used goes back when idle; a window that ended moves to it', async () => {
  const rule = { divisor: 10, max: 1000 };
  const l = await limiter({ chunk: rule, idleReturnMs: 2000 });
  const bucket = `ahead:${randomUUID()}`;
  const next = windowStartOf(t0, MIN) + MIN;
  await l.consume(bucket, 1, 100, next - 500);
  await l.settle();
  assert.equal(await redis.count(keyOf(bucket, next)), 10);
  // The window ends with no request: the sweep moves the bucket to its next holding...
  await l.sweep(next);
  assert.equal(l.size, 1);
  assert.equal(l.held(bucket), 10);
  // ...and gives its units back once idle.
  await l.sweep(next - 500 + 2000);
  assert.equal(l.size, 0);
  assert.equal(await redis.count(keyOf(bucket, next)), 0);
  await l.close();
});

test('chunked: an instance whose view aged re-reads the count in the background, so its used follows the others', async () => {
  const rule = { divisor: 100, max: 1000 };
  const limit = 1000; // chunk 10
  const [a, b] = [await limiter({ chunk: rule }), await limiter({ chunk: rule })];
  const bucket = `view:${randomUUID()}`;
  assert.equal((await a.consume(bucket, 1, limit, t0)).used, 1);
  for (let i = 0; i < 500; i++) await b.consume(bucket, 1, limit, t0);
  await b.settle();
  // Within the refresh period A answers from what it last saw...
  const stale = a.consume(bucket, 1, limit, t0 + 999);
  assert.equal(isPromise(stale), false);
  assert.equal((await stale).used, 2);
  // ...and once its view is older than that, the answer is still immediate and starts a re-read.
  assert.equal((await a.consume(bucket, 1, limit, t0 + 1000)).used, 3);
  await a.settle();
  const fresh = a.consume(bucket, 1, limit, t0 + 1001);
  assert.equal(isPromise(fresh), false);
  // B granted 500 and holds up to a chunk: A now counts all of it.
  const used = (await fresh).used;
  assert.ok(used >= 504 && used <= 504 + 10, `used ${used}`);
  await Promise.all([a.close(), b.close()]);
});

test('chunked: a chunked and a per-call instance count one quota (same counter)', async () => {
  const rule = { divisor: 10, max: 1000 };
  const chunked = await limiter({ chunk: rule });
  const perCall = new RedisWindowLimiter(await redis.open(log));
  const bucket = `mixed:${randomUUID()}`;
  const both: WindowLimiter[] = [chunked, perCall];
  let granted = 0;
  for (let i = 0; i < 200; i++) if ((await both[i % 2]!.consume(bucket, 1, 100, t0)).allowed) granted++;
  assert.equal(granted, 100);
  assert.equal(await redis.count(keyOf(bucket, t0)), 100);
  await Promise.all([chunked.close(), perCall.close()]);
});

test('chunked: a flood of refused requests is refused without waiting, one background call re-checking', async () => {
  const rule = { divisor: 10, max: 1000 };
  const l = await limiter({ chunk: rule });
  const bucket = `flood:${randomUUID()}`;
  while ((await l.consume(bucket, 1, 100, t0)).allowed);
  await l.settle();
  let promises = 0;
  for (let i = 0; i < 1000; i++) {
    const d = l.consume(bucket, 1, 100, t0);
    if (isPromise(d)) promises++;
    assert.deepEqual(await d, { allowed: false, used: 100, limit: 100, resetAtMs: windowStartOf(t0, MIN) + MIN });
  }
  assert.equal(promises, 0);
  // Units given back by another instance (as its close would) are seen after one re-check.
  await l.settle();
  await redis.raw.decrby(redis.prefix + keyOf(bucket, t0), 5);
  assert.equal((await l.consume(bucket, 1, 100, t0)).allowed, false, 'refused from the stale count; starts the re-check');
  await l.settle();
  assert.equal(l.held(bucket), 5);
  assert.deepEqual(await l.consume(bucket, 1, 100, t0), { allowed: true, used: 96, limit: 100, resetAtMs: windowStartOf(t0, MIN) + MIN });
  await l.close();
});

test('chunked: bad chunk rules throw at construction', async () => {
  const conn = await redis.open(log);
  for (const chunk of [{ divisor: 0, max: 10 }, { divisor: 1.5, max: 10 }, { divisor: 10, max: 0 }]) {
    assert.throws(() => new ChunkedRedisWindowLimiter(conn, { chunk }), (e: unknown) => (e as { code?: string }).code === 'LIMITS_BAD_ARGUMENT');
  }
});

test('chunked: no outage was logged while Redis was up', () => {
  assert.deepEqual(logs, []);
});
