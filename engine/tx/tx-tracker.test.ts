import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TxTracker, type TxEvent } from './tx-tracker.js';

/** A scripted node (the cluster lies outside the service): statuses per signature, calls counted. */
function node(): { rpc: { call: <T>(m: string, p: unknown[]) => Promise<T> }; status: Map<string, unknown>; calls: number[] } {
  const status = new Map<string, unknown>();
  const calls: number[] = [];
  return {
    status,
    calls,
    rpc: {
      call: async <T>(_m: string, p: unknown[]): Promise<T> => {
        const sigs = p[0] as string[];
        calls.push(sigs.length);
        return { value: sigs.map((s) => status.get(s) ?? null) } as T;
      },
    },
  };
}

test('events come in lifecycle order, each once; a first sight at finalized emits the stages it passed; landed only when observed', async () => {
  const n = node();
  const clock = { ms: 0 };
  const t = new TxTracker(n.rpc, { roundMs: 3_600_000, now: () => clock.ms });
  const got: TxEvent[] = [];
  t.subscribe((e) => got.push(e));
  t.observe({ type: 'landed', signature: 'a', slot: 5, source: 'geyser', err: null });
  t.follow('a');
  t.follow('b');
  n.status.set('a', { slot: 5, err: null, confirmationStatus: 'processed', confirmations: 0 });
  n.status.set('b', { slot: 6, err: null, confirmationStatus: 'finalized', confirmations: null });
  await t.round();
  assert.deepEqual(got.map((e) => `${e.signature}:${e.type}:${e.source}`), ['a:landed:geyser', 'a:processed:poll', 'b:processed:poll', 'b:confirmed:poll', 'b:finalized:poll']);
  assert.equal(t.size, 1, 'b is finished');
  // Backoff: nothing is asked again before a's delay passes; then confirmed, once.
  await t.round();
  assert.equal(n.calls.length, 1);
  n.status.set('a', { slot: 5, err: null, confirmationStatus: 'confirmed', confirmations: 1 });
  clock.ms += 250;
  await t.round();
  await t.round();
  assert.deepEqual(got.slice(5).map((e) => e.type), ['confirmed']);
  assert.deepEqual(t.history('b').map((e) => e.type), ['processed', 'confirmed', 'finalized']);
  assert.equal(t.follow('b'), false, 'a finished signature is not followed again');
  t.close();
});

test('a failure is terminal; an unseen signature is dropped silently after the budget', async () => {
  const n = node();
  const clock = { ms: 0 };
  const t = new TxTracker(n.rpc, { roundMs: 3_600_000, budgetMs: 1000, now: () => clock.ms });
  const got: TxEvent[] = [];
  t.subscribe((e) => got.push(e));
  t.follow('bad');
  t.follow('never');
  n.status.set('bad', { slot: 9, err: { InstructionError: [0, { Custom: 1 }] }, confirmationStatus: 'confirmed', confirmations: 1 });
  await t.round();
  assert.deepEqual(got.map((e) => [e.signature, e.type, e.err]), [['bad', 'failed', '{"InstructionError":[0,{"Custom":1}]}']]);
  clock.ms += 1001;
  await t.round();
  assert.equal(t.size, 0);
  assert.equal(t.stats.expired, 1);
  assert.equal(got.length, 1);
  t.close();
});

test('a submission of the service starts with landed even when a poll sees it processed before the Geyser signal', async () => {
  const n = node();
  const t = new TxTracker(n.rpc, { roundMs: 3_600_000, now: () => 0 });
  const got: TxEvent[] = [];
  t.subscribe((e) => got.push(e));
  t.follow('own', true);
  t.follow('other');
  n.status.set('own', { slot: 7, err: null, confirmationStatus: 'processed', confirmations: 0 });
  n.status.set('other', { slot: 7, err: null, confirmationStatus: 'processed', confirmations: 0 });
  await t.round();
  assert.deepEqual(got.map((e) => `${e.signature}:${e.type}:${e.source}`), ['own:landed:poll', 'own:processed:poll', 'other:processed:poll']);
  // The late Geyser signal changes nothing: landed was already told.
  t.observe({ type: 'landed', signature: 'own', slot: 7, source: 'geyser', err: null });
  assert.equal(got.length, 3);
  t.close();
});
