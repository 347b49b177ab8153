/**
 * The tracking service's key streams: an event emitted before the submission answered (the Geyser landed signal
 * comes while the transaction is being sent) still reaches the key's open streams, once, and in order.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TxTracker, type TxEvent } from '../tx/tx-tracker.js';
import { TxTrackingService } from './tx-tracking-service.js';

test('landed before submitted: the key\'s streams get it when the submission is registered, then the rest', async () => {
  const tracker = new TxTracker({ call: async () => ({ value: [] }) as never }, { roundMs: 1e9 });
  const expected: [string, string][] = [];
  const svc = new TxTrackingService(tracker, { expect: async (s, p) => void expected.push([s, p]) });
  const mine: TxEvent[] = [];
  const other: TxEvent[] = [];
  svc.subscribe({ keyId: 1 }, (e) => mine.push(e));
  svc.subscribe({ keyId: 2 }, (e) => other.push(e));
  await svc.expect('s1', 'payer');
  assert.deepEqual(expected, [['s1', 'payer']]);
  tracker.observe({ type: 'landed', signature: 's1', slot: 3, source: 'geyser', err: null });
  assert.equal(mine.length, 0, 'not known as the key\'s yet');
  svc.submitted(1, 's1');
  svc.submitted(1, 's1');
  assert.deepEqual(mine.map((e) => e.type), ['landed'], 'replayed once');
  tracker.observe({ type: 'processed', signature: 's1', slot: 3, source: 'poll', err: null });
  assert.deepEqual(mine.map((e) => e.type), ['landed', 'processed']);
  assert.equal(other.length, 0, 'another key sees nothing');
  tracker.close();
});

test('without a landed source, expect resolves at once', async () => {
  const tracker = new TxTracker({ call: async () => ({ value: [] }) as never }, { roundMs: 1e9 });
  await new TxTrackingService(tracker).expect('s', 'p');
  tracker.close();
});
