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

test('with a live stage stream, own submissions are polled late and slowly, and a poll\'s news waits 1 s for the stream', async () => {
  const n = node();
  const clock = { ms: 0 };
  const t = new TxTracker(n.rpc, { roundMs: 3_600_000, now: () => clock.ms });
  let live = true;
  t.attachStream(() => live);
  const got: TxEvent[] = [];
  t.subscribe((e) => got.push(`${e.signature}:${e.type}:${e.source}` as never));
  t.follow('own', true);
  t.follow('other');
  n.status.set('own', { slot: 7, err: null, confirmationStatus: 'processed', confirmations: 0 });
  n.status.set('other', { slot: 7, err: null, confirmationStatus: 'finalized', confirmations: null });
  await t.round();
  assert.deepEqual(n.calls, [1], 'only the other signature is polled at once');
  assert.deepEqual(got.splice(0), ['other:processed:poll', 'other:confirmed:poll', 'other:finalized:poll']);
  got.push('start' as never);
  clock.ms = 2000;
  await t.round();
  assert.deepEqual(n.calls, [1, 1], 'the own submission\'s first poll after 2 s');
  assert.deepEqual(got.length, 1, 'its news is held for the stream');
  // The stream reports it within the grace: the poll's news is dropped.
  t.observe({ type: 'processed', signature: 'own', slot: 7, source: 'geyser', err: null });
  n.status.set('own', { slot: 7, err: null, confirmationStatus: 'confirmed', confirmations: 1 });
  clock.ms = 3000;
  await t.round();
  assert.deepEqual(got.slice(1), ['own:landed:geyser', 'own:processed:geyser']);
  clock.ms = 6000;
  await t.round();
  assert.equal(n.calls.length, 3, 'the next poll 4 s after the last');
  // The stream is late by more than the grace: the poll reports it.
  clock.ms = 6999;
  await t.round();
  assert.equal(got.length, 3);
  clock.ms = 7000;
  await t.round();
  assert.deepEqual(got.slice(3), ['own:confirmed:poll']);
  assert.equal(t.stats.late, 1);
  // The stream goes down: the normal pace (the third poll: 500 ms after the last) and no hold.
  live = false;
  n.status.set('own', { slot: 7, err: null, confirmationStatus: 'finalized', confirmations: null });
  clock.ms = 7000 + 500;
  await t.round();
  assert.deepEqual(got.slice(4), ['own:finalized:poll']);
  t.close();
});

test('pollSoon: a submission whose slot the stream lost is polled at once and its news reported at once', async () => {
  const n = node();
  const clock = { ms: 0 };
  const t = new TxTracker(n.rpc, { roundMs: 3_600_000, now: () => clock.ms });
  t.attachStream(() => true);
  const got: string[] = [];
  t.subscribe((e) => got.push(`${e.type}:${e.source}`));
  t.observe({ type: 'landed', signature: 'own', slot: 3, source: 'geyser', err: null });
  t.observe({ type: 'processed', signature: 'own', slot: 3, source: 'geyser', err: null });
  t.follow('own', true);
  await t.round();
  assert.deepEqual(n.calls, []);
  t.pollSoon('own');
  n.status.set('own', { slot: 4, err: null, confirmationStatus: 'confirmed', confirmations: 1 });
  await t.round();
  assert.deepEqual(n.calls, [1]);
  assert.deepEqual(got, ['landed:geyser', 'processed:geyser', 'confirmed:poll']);
  t.pollSoon('unknown');
  t.close();
});
