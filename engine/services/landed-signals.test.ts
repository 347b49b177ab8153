/**
 * The landed source over a fake deshred watch and a real tracker: the filter grows with new fee payers before
 * submission, shrinks when their transactions end (finalized, failed, or expired), and a deshred transaction becomes
 * `landed` (source geyser) only for a tracked signature.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TxTracker, type TxEvent } from '../tx/tx-tracker.js';
import { LandedSignals, type LandedWatch } from './landed-signals.js';

class FakeWatch implements LandedWatch {
  open = true;
  started = false;
  closed = false;
  readonly writes: string[][] = [];
  constructor(readonly onTransaction: (signature: string, slot: number) => void) {}
  start(): void {
    this.started = true;
  }
  setAccounts(accounts: Iterable<string>): Promise<void> {
    this.writes.push([...accounts].sort());
    return Promise.resolve();
  }
  close(): void {
    this.closed = true;
  }
}

function setup(now: () => number = Date.now): { tracker: TxTracker; landed: LandedSignals; watch: FakeWatch; events: TxEvent[] } {
  const tracker = new TxTracker({ call: async () => ({ value: [] }) as never }, { roundMs: 1e9 });
  let watch: FakeWatch | undefined;
  const landed = new LandedSignals(tracker, (cb) => (watch = new FakeWatch(cb)), { sweepMs: 1e9, ttlMs: 1000, lingerMs: 0, now });
  const events: TxEvent[] = [];
  tracker.subscribe((e) => events.push(e));
  return { tracker, landed, watch: watch!, events };
}

const ev = (type: TxEvent['type'], signature: string): TxEvent => ({ type, signature, slot: 7, source: 'poll', err: type === 'failed' ? 'x' : null });

test('payers join the filter before submission and leave when none of their transactions is tracked', async () => {
  const { tracker, landed, watch } = setup();
  landed.start();
  assert.equal(watch.started, true);
  await landed.expect('s1', 'A');
  await landed.expect('s2', 'A');
  await landed.expect('s3', 'B');
  assert.deepEqual(watch.writes, [['A'], ['A', 'B']], 'one write per new payer');
  tracker.observe(ev('finalized', 's1'));
  assert.equal(watch.writes.length, 2, 'A still pays s2');
  tracker.observe(ev('failed', 's2'));
  assert.deepEqual(watch.writes.at(-1), ['B'], 'A left with its last transaction');
  tracker.observe(ev('confirmed', 's3'));
  assert.deepEqual(watch.writes.at(-1), ['B'], 'not an end');
  tracker.observe(ev('finalized', 's3'));
  assert.deepEqual(watch.writes.at(-1), [], 'empty filter');
  assert.deepEqual(landed.watchedPayers, []);
  landed.close();
  assert.equal(watch.closed, true);
  tracker.close();
});

test('a tracked signature seen in the deshred stream is landed (geyser) first; others are ignored', async () => {
  const { tracker, landed, watch, events } = setup();
  await landed.expect('s1', 'A');
  watch.onTransaction('other', 5);
  assert.equal(events.length, 0);
  watch.onTransaction('s1', 9);
  assert.deepEqual(events, [{ type: 'landed', signature: 's1', slot: 9, source: 'geyser', err: null }]);
  tracker.follow('s1');
  tracker.observe(ev('processed', 's1'));
  assert.deepEqual(events.map((e) => e.type), ['landed', 'processed']);
  landed.close();
  tracker.close();
});

test('signatures that never end leave after their deadline (the sweep), and their payer with them', async () => {
  let now = 0;
  const { tracker, landed, watch } = setup(() => now);
  await landed.expect('s1', 'A');
  now = 500;
  await landed.expect('s2', 'B');
  now = 1001;
  landed.expireNow();
  assert.deepEqual(watch.writes.at(-1), ['B']);
  now = 1501;
  landed.expireNow();
  assert.deepEqual(watch.writes.at(-1), []);
  landed.close();
  tracker.close();
});
