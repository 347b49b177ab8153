import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStore } from '../store/open.js';
import type { UsageDelta } from '../store/types.js';
import { WINDOW_MS } from './scoring.js';
import { UsageMeter } from './usage-meter.js';

const T0 = Date.UTC(2024, 0, 1, 10, 0);

class FakeUsage {
  readonly batches: UsageDelta[][] = [];
  failNext = 0;
  async addBatch(deltas: readonly UsageDelta[]): Promise<void> {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('store down');
    }
    this.batches.push([...deltas]);
  }
}

const byKey = (ds: readonly UsageDelta[]) =>
  Object.fromEntries(ds.map((d) => [`${d.apiKeyId}@${(d.windowStart.getTime() - T0) / WINDOW_MS}`, [d.apiSuccessful, d.rpcSuccessful, d.rateLimited, d.requests]]));

test('record counts per (key, window) by outcome; flush writes them in one batch', async () => {
  const usage = new FakeUsage();
  const m = new UsageMeter(usage);
  m.record(1, 'ok', T0);
  m.record(1, 'ok', T0 + 1000);
  m.record(1, 'rpc-ok', T0 + 2000);
  m.record(1, 'rate-limited', T0 + 3000);
  m.record(1, 'other', T0 + 4000);
  m.record(2, 'ok', T0 + WINDOW_MS - 1);
  m.record(1, 'ok', T0 + WINDOW_MS);
  assert.equal(m.pendingPairs, 3);
  assert.equal(usage.batches.length, 0, 'record never touches the store');
  assert.equal(await m.flush(), 3);
  assert.equal(usage.batches.length, 1);
  assert.deepEqual(byKey(usage.batches[0]!), { '1@0': [2, 1, 1, 5], '2@0': [1, 0, 0, 1], '1@1': [1, 0, 0, 1] });
  assert.equal(m.pendingPairs, 0);
  assert.equal(await m.flush(), 0);
  assert.equal(usage.batches.length, 1, 'nothing to write: no call');
});

test('a failed flush keeps its counts; a later flush writes them once, merged with newer ones', async () => {
  const usage = new FakeUsage();
  const m = new UsageMeter(usage);
  m.record(7, 'ok', T0);
  m.record(7, 'rpc-ok', T0);
  usage.failNext = 2;
  await assert.rejects(m.flush(), /store down/);
  m.record(7, 'ok', T0);
  m.record(8, 'rate-limited', T0);
  await assert.rejects(m.flush(), /store down/);
  assert.equal(m.pendingPairs, 2);
  assert.equal(await m.flush(), 2);
  assert.deepEqual(byKey(usage.batches[0]!), { '7@0': [2, 1, 0, 3], '8@0': [0, 0, 1, 1] });
  assert.equal(await m.flush(), 0);
  assert.equal(usage.batches.length, 1);
});

test('flushes never overlap: records made during a flush go out in the next one', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const batches: UsageDelta[][] = [];
  const m = new UsageMeter({
    addBatch: async (d) => {
      batches.push([...d]);
      if (batches.length === 1) await gate;
    },
  });
  m.record(1, 'ok', T0);
  const first = m.flush();
  m.record(1, 'ok', T0);
  m.record(1, 'ok', T0);
  const second = m.flush();
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(batches.length, 1, 'the second flush waits for the first');
  release();
  assert.deepEqual(await Promise.all([first, second]), [1, 1]);
  assert.deepEqual(batches.map((b) => b[0]!.apiSuccessful), [1, 2]);
});

test('start flushes periodically, errors go to onError, stop flushes the rest', async () => {
  const usage = new FakeUsage();
  const errors: unknown[] = [];
  const m = new UsageMeter(usage, { onError: (e) => errors.push(e) });
  usage.failNext = 1;
  m.record(3, 'ok', T0);
  m.start(10);
  while (usage.batches.length < 1) await new Promise((r) => setTimeout(r, 5));
  assert.equal(errors.length, 1);
  m.record(3, 'ok', T0);
  await m.stop();
  const total = usage.batches.flat().reduce((s, d) => s + d.apiSuccessful, 0);
  assert.equal(total, 2);
});

test('against a real store: counts land in usage_windows and add up across flushes', async () => {
  const store = await openStore({ dataDir: 'memory://' });
  try {
    const m = new UsageMeter(store.usage);
    for (let i = 0; i < 1000; i++) m.record(i % 10, i % 4 === 0 ? 'rate-limited' : 'ok', T0 + i);
    assert.equal(await m.flush(), 10);
    for (let i = 0; i < 10; i++) m.record(i, 'rpc-ok', T0);
    await m.flush();
    const w = await store.usage.get(3, new Date(T0));
    assert.deepEqual([w!.apiSuccessful, w!.rpcSuccessful, w!.rateLimited, w!.requests], [100, 1, 0, 101]);
    const w0 = await store.usage.get(0, new Date(T0));
    assert.deepEqual([w0!.apiSuccessful, w0!.rateLimited, w0!.requests], [50, 50, 101]);
  } finally {
    await store.close();
  }
});
