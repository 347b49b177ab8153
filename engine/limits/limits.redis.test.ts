import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { RedisConnection } from './redis-connection.js';
import { RedisSlotLimiter } from './redis-slots.js';
import { RedisWindowLimiter } from './redis-window.js';
import { slotsSuite } from './testing/slots-suite.js';
import { SharedRedis } from './testing/shared-redis.js';
import type { LimitsLog } from './types.js';
import { sleep, windowSuite } from './testing/window-suite.js';
import { windowStartOf } from './window.js';

// The shared Redis of the dev box / CI (see README: how to start it). Keys live under a random prefix, deleted after.
const redis = new SharedRedis('limits');
const PREFIX = redis.prefix;

const logs: { level: string; msg: string }[] = [];
const log: LimitsLog = (level, msg) => logs.push({ level, msg });
const raw = redis.raw;
const open = (logTo: LimitsLog = log): Promise<RedisConnection> => redis.open(logTo);

before(() => redis.start());
after(() => redis.stop());

windowSuite('redis', async (windowMs) => {
  const [ca, cb] = [await open(), await open()];
  const a = new RedisWindowLimiter(ca, { windowMs });
  const b = new RedisWindowLimiter(cb, { windowMs });
  return {
    a,
    b,
    close: async () => {
      await Promise.all([a.close(), b.close()]);
    },
  };
});

slotsSuite('redis', async () => {
  const [ca, cb] = [await open(), await open()];
  const a = new RedisSlotLimiter(ca);
  const b = new RedisSlotLimiter(cb);
  return {
    a,
    b,
    // Commands on one connection run in order: a PING answered means every release sent before it has landed.
    settle: async () => {
      await Promise.all([ca.redis.ping(), cb.redis.ping()]);
    },
    close: async () => {
      await Promise.all([a.close(), b.close()]);
    },
  };
});

test('redis window: the counter lives at <prefix>rl:<bucket>:<windowStartSec> and expires after its window', async () => {
  const l = new RedisWindowLimiter(await open());
  const now = Date.now();
  const bucket = `key:${randomUUID()}:prices`;
  const d = await l.consume(bucket, 3, 10, now);
  const key = `${PREFIX}rl:${bucket}:${windowStartOf(now, 60_000) / 1000}`;
  assert.equal(await raw.get(key), '3');
  const ttl = await raw.pttl(key);
  // Window end + 10 s slack, measured from the caller's clock.
  assert.ok(ttl > d.resetAtMs - now && ttl <= d.resetAtMs - now + 10_000, `pttl ${ttl}`);
  // A refusal writes nothing.
  assert.equal((await l.consume(bucket, 8, 10, now)).allowed, false);
  assert.equal(await raw.get(key), '3');
  await l.close();
});

test('redis window: a sub-second window gets its own key per window (decimal seconds)', async () => {
  const l = new RedisWindowLimiter(await open(), { windowMs: 250 });
  const bucket = `key:${randomUUID()}`;
  const t = 1_800_000_000_125;
  assert.equal((await l.consume(bucket, 1, 1, t)).allowed, true);
  assert.equal((await l.consume(bucket, 1, 1, t + 124)).allowed, false);
  assert.deepEqual(await l.consume(bucket, 1, 1, t + 125), { allowed: true, used: 1, limit: 1, resetAtMs: t + 375 });
  assert.equal(await raw.get(`${PREFIX}rl:${bucket}:1800000000`), '1');
  assert.equal(await raw.get(`${PREFIX}rl:${bucket}:1800000000.25`), '1');
  await l.close();
});

test('redis slots: a lease is a ZSET member scored with its expiry on the server clock', async () => {
  const l = new RedisSlotLimiter(await open(), { leaseTtlMs: 5000 });
  const subject = `key:${randomUUID()}`;
  const d = await l.acquire(subject, 3);
  const members = await raw.zrange(`${PREFIX}slots:${subject}`, 0, '-1', 'WITHSCORES');
  assert.equal(members.length, 2);
  const [secs, micros] = await raw.time();
  const left = Number(members[1]) - (Number(secs) * 1000 + Number(micros) / 1000);
  assert.ok(left > 3000 && left <= 5000, `expires in ${left} ms`);
  if (d.ok) d.lease.release();
  await l.close();
});

test('redis slots: refresh keeps live leases past the TTL; a crashed instance frees its slots after one TTL', async () => {
  const ttl = 1000;
  const crashLogs: string[] = [];
  const crashing = await open((_level, msg) => crashLogs.push(msg));
  const a = new RedisSlotLimiter(crashing, { leaseTtlMs: ttl });
  const b = new RedisSlotLimiter(await open(), { leaseTtlMs: ttl });
  const subject = `key:${randomUUID()}`;
  assert.equal((await a.acquire(subject, 2)).ok, true);
  assert.equal((await a.acquire(subject, 2)).ok, true);
  await sleep(ttl * 1.6);
  assert.equal(await b.held(subject), 2, 'refreshed leases outlive the TTL');
  assert.deepEqual(await b.acquire(subject, 2), { ok: false, held: 2 });
  // The crash: the connection drops, nothing is released and nothing refreshes any more.
  crashing.redis.disconnect();
  const crashedAt = Date.now();
  while ((await b.held(subject)) > 0) {
    assert.ok(Date.now() - crashedAt < ttl + 1000, 'the crashed slots did not expire');
    await sleep(50);
  }
  const freedAfter = Date.now() - crashedAt;
  assert.ok(freedAfter <= ttl + 300, `freed after ${freedAfter} ms`);
  assert.equal((await b.acquire(subject, 2)).ok, true);
  // The dropped connection counts as an outage for the instance that lost it (logged once).
  assert.equal(crashLogs.length, 1);
  await Promise.all([a.close(), b.close()]);
});

test('redis slots: close() releases the live leases at once', async () => {
  const a = new RedisSlotLimiter(await open());
  const b = new RedisSlotLimiter(await open());
  const subject = `key:${randomUUID()}`;
  const d = await a.acquire(subject, 3);
  await a.acquire(subject, 3);
  assert.equal(a.liveLeases, 2);
  await a.close();
  assert.equal(await b.held(subject), 0);
  // A release after close is a no-op, not an error.
  if (d.ok) d.lease.release();
  await b.close();
});

test('redis: no outage was logged while Redis was up', () => {
  assert.deepEqual(logs, []);
});
