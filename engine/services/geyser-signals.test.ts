/**
 * The Geyser sources over fake watches (the Geyser server lies outside the service) and a real tracker: the filters
 * of both watches grow with new fee payers before submission and shrink when their transactions end (finalized,
 * failed, or expired); a deshred transaction becomes `landed` only for a tracked signature; a transaction update is
 * `processed` (or `failed` with its error), its slot's statuses `confirmed` and `finalized`, all with source geyser;
 * a dead slot, or one passed by a finalized slot, lets its transactions go to polling at once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TxTracker, type TxEvent } from '../tx/tx-tracker.js';
import { GeyserSignals, type SignalWatch, type StageHandlers, type StageWatch } from './geyser-signals.js';

class FakeWatch implements SignalWatch {
  open = true;
  started = false;
  closed = false;
  readonly writes: string[][] = [];
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

class FakeStages extends FakeWatch implements StageWatch {
  live = true;
  constructor(readonly h: StageHandlers) {
    super();
  }
}

/** A scripted node: statuses per signature; every call recorded. */
function node(): { call: <T>(m: string, p: unknown[]) => Promise<T>; status: Map<string, unknown>; asked: string[][] } {
  const status = new Map<string, unknown>();
  const asked: string[][] = [];
  return {
    status,
    asked,
    call: async <T>(_m: string, p: unknown[]): Promise<T> => {
      asked.push(p[0] as string[]);
      return { value: (p[0] as string[]).map((s) => status.get(s) ?? null) } as T;
    },
  };
}

function setup(now: () => number = Date.now): {
  tracker: TxTracker;
  signals: GeyserSignals;
  landedWatch: FakeWatch & { onTransaction: (s: string, slot: number) => void };
  stages: FakeStages;
  events: TxEvent[];
  rpc: ReturnType<typeof node>;
} {
  const rpc = node();
  const tracker = new TxTracker(rpc, { roundMs: 1e9, now });
  let landedWatch: (FakeWatch & { onTransaction: (s: string, slot: number) => void }) | undefined;
  let stages: FakeStages | undefined;
  const signals = new GeyserSignals(
    tracker,
    (cb) => (landedWatch = Object.assign(new FakeWatch(), { onTransaction: cb })),
    (h) => (stages = new FakeStages(h)),
    { sweepMs: 1e9, ttlMs: 1000, lingerMs: 0, now },
  );
  const events: TxEvent[] = [];
  tracker.subscribe((e) => events.push(e));
  return { tracker, signals, landedWatch: landedWatch!, stages: stages!, events, rpc };
}

const ev = (type: TxEvent['type'], signature: string): TxEvent => ({ type, signature, slot: 7, source: 'poll', err: type === 'failed' ? 'x' : null });
const line = (e: TxEvent): string => `${e.signature}:${e.type}:${e.slot}:${e.source}`;

test('payers join both filters before submission and leave when none of their transactions is tracked', async () => {
  const { tracker, signals, landedWatch, stages } = setup();
  signals.start();
  assert.equal(landedWatch.started && stages.started, true);
  await signals.expect('s1', 'A');
  await signals.expect('s2', 'A');
  await signals.expect('s3', 'B');
  for (const w of [landedWatch, stages]) assert.deepEqual(w.writes, [['A'], ['A', 'B']], 'one write per new payer');
  tracker.observe(ev('finalized', 's1'));
  assert.equal(stages.writes.length, 2, 'A still pays s2');
  tracker.observe(ev('failed', 's2'));
  assert.deepEqual(stages.writes.at(-1), ['B'], 'A left with its last transaction');
  tracker.observe(ev('confirmed', 's3'));
  assert.deepEqual(landedWatch.writes.at(-1), ['B'], 'not an end');
  tracker.observe(ev('finalized', 's3'));
  for (const w of [landedWatch, stages]) assert.deepEqual(w.writes.at(-1), [], 'empty filter');
  assert.deepEqual(signals.watchedPayers, []);
  assert.equal(signals.watching, true);
  stages.open = false;
  assert.equal(signals.watching, false, 'both streams must be open');
  signals.close();
  assert.equal(landedWatch.closed && stages.closed, true);
  tracker.close();
});

test('a tracked signature: landed from the deshred stream, processed from its transaction update, confirmed and finalized from its slot', async () => {
  const { tracker, signals, landedWatch, stages, events } = setup();
  await signals.expect('s1', 'A');
  await signals.expect('s2', 'A');
  landedWatch.onTransaction('other', 5);
  stages.h.onTransaction('other', 5, null);
  assert.equal(events.length, 0, 'untracked signatures are ignored');
  landedWatch.onTransaction('s1', 9);
  stages.h.onTransaction('s1', 9, null);
  tracker.follow('s1', true);
  stages.h.onSlot(9, 0);
  stages.h.onSlot(9, 4);
  assert.deepEqual(events.map(line), ['s1:landed:9:geyser', 's1:processed:9:geyser'], 'processed and lifecycle statuses add nothing');
  stages.h.onTransaction('s2', 10, null);
  stages.h.onSlot(9, 1);
  assert.deepEqual(events.slice(2).map(line), ['s2:processed:10:geyser', 's1:confirmed:9:geyser'], 'only the slot\'s own transactions are confirmed');
  stages.h.onSlot(10, 1);
  stages.h.onSlot(9, 2);
  stages.h.onSlot(10, 2);
  assert.deepEqual(events.slice(4).map(line), ['s2:confirmed:10:geyser', 's1:finalized:9:geyser', 's2:finalized:10:geyser']);
  assert.equal(signals.placed, 0, 'finished transactions leave the slot book');
  signals.close();
  tracker.close();
});

test('a failed transaction update is failed with its error; a late update of a confirmed slot is confirmed at once', async () => {
  const { tracker, signals, stages, events } = setup();
  await signals.expect('bad', 'A');
  await signals.expect('late', 'A');
  tracker.follow('bad', true);
  tracker.follow('late', true);
  stages.h.onTransaction('bad', 11, '{"InstructionError":[0,{"Custom":1}]}');
  assert.deepEqual(events.map((e) => [e.type, e.source, e.err]), [['failed', 'geyser', '{"InstructionError":[0,{"Custom":1}]}']], 'failed alone, no landed before it');
  stages.h.onSlot(12, 1);
  stages.h.onTransaction('late', 12, null);
  assert.deepEqual(events.slice(1).map(line), ['late:landed:12:geyser', 'late:processed:12:geyser', 'late:confirmed:12:geyser']);
  signals.close();
  tracker.close();
});

test('a dead slot, or one passed by a finalized slot, releases its transactions to polling at once', async () => {
  const { tracker, signals, stages, events, rpc } = setup(() => 0);
  await signals.expect('forked', 'A');
  await signals.expect('dead', 'A');
  tracker.follow('forked', true);
  tracker.follow('dead', true);
  stages.h.onTransaction('forked', 20, null);
  stages.h.onTransaction('dead', 21, null);
  assert.equal(signals.placed, 2);
  // The stream is live: an own submission's first poll waits 2 s.
  await tracker.round();
  assert.equal(rpc.asked.length, 0);
  stages.h.onSlot(21, 6);
  assert.equal(signals.placed, 1, 'the dead slot let go of its transaction');
  await tracker.round();
  assert.deepEqual(rpc.asked, [['dead']], 'polled at once');
  // Slot 22 finalized, 20 never confirmed: off the rooted chain.
  stages.h.onSlot(22, 2);
  assert.equal(signals.placed, 0);
  rpc.status.set('forked', { slot: 23, err: null, confirmationStatus: 'confirmed', confirmations: 1 });
  await tracker.round();
  assert.deepEqual(rpc.asked.at(-1), ['forked']);
  assert.deepEqual(events.slice(-1).map(line), ['forked:confirmed:23:poll'], 'reported from the poll at once (the stream lost it)');
  // The transaction landed again on the surviving fork: the stream places it anew and finishes it.
  stages.h.onTransaction('forked', 23, null);
  stages.h.onSlot(23, 2);
  assert.deepEqual(events.slice(-1).map(line), ['forked:finalized:23:geyser']);
  signals.close();
  tracker.close();
});

test('signatures that never end leave after their deadline (the sweep), and their payer with them', async () => {
  let now = 0;
  const { tracker, signals, landedWatch, stages } = setup(() => now);
  await signals.expect('s1', 'A');
  now = 500;
  await signals.expect('s2', 'B');
  now = 1001;
  signals.expireNow();
  assert.deepEqual(landedWatch.writes.at(-1), ['B']);
  now = 1501;
  signals.expireNow();
  assert.deepEqual(stages.writes.at(-1), []);
  signals.close();
  tracker.close();
});
