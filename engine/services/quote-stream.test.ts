import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QuoteStreams, type QuoteStreamHandle } from './quote-stream.js';
import { clampTickHz, minMoveCentiBps, movedEnough, tickPeriodMs, watchedAmount } from './quote-stream-rules.js';
import type { QuoteBody } from './quote-service.js';
import { FAKE_STREAM_INPUT, FakeStreamQuotes, ManualTicker, fakeQuoteBody, settle } from './testing/fake-stream-quotes.js';

interface Rig {
  fake: FakeStreamQuotes;
  ticker: ManualTicker;
  streams: QuoteStreams;
  frames: QuoteBody[];
  handle: QuoteStreamHandle;
}

/** A started stream over the fakes (50 ms timer resolution). */
async function rig(tickHz = 5, minMoveBps = 1, setup?: (f: FakeStreamQuotes) => void, withChanges = false): Promise<Rig> {
  const fake = new FakeStreamQuotes();
  setup?.(fake);
  const ticker = new ManualTicker();
  const errors: unknown[] = [];
  const streams = new QuoteStreams({
    quote: fake.quote,
    writeSeq: fake.writeSeq,
    generation: fake.generation,
    ...(withChanges ? { changes: fake.changes } : {}),
    now: ticker.clock,
    timer: ticker.timer,
    resolutionMs: 50,
    onError: (e) => errors.push(e),
  });
  const first = await streams.first({ input: FAKE_STREAM_INPUT, tickHz, minMoveBps });
  assert.ok(first.ok);
  const frames: QuoteBody[] = [];
  const handle = first.start({ frame: (b) => frames.push(b) });
  return { fake, ticker, streams, frames, handle };
}

test('rules: the tickHz clamp and its period, the threshold in integers, the watched amount', () => {
  assert.deepEqual([0, 0.2, 1, 2, 3.5, 5, 10, -4].map(clampTickHz), [1, 1, 1, 2, 3.5, 5, 5, 1]);
  assert.deepEqual([10, 5, 2, 1, 0.1].map(tickPeriodMs), [200, 200, 500, 1000, 1000]);
  const c = minMoveCentiBps(10);
  assert.equal(movedEnough(1_000_000n, 1_000_999n, c), false, '9.99 bps < 10');
  assert.equal(movedEnough(1_000_000n, 1_001_000n, c), true, 'exactly 10 bps');
  assert.equal(movedEnough(1_000_000n, 999_000n, c), true, 'a fall counts as a move');
  assert.equal(movedEnough(1_000_000n, 999_001n, c), false);
  assert.equal(movedEnough(1_000_000n, 1_000_000n, minMoveCentiBps(0)), true, 'minMoveBps 0: every recompute');
  assert.equal(movedEnough(10_000n, 10_001n, minMoveCentiBps(0.5)), true, 'half a bps honoured: 1 bps move');
  assert.equal(movedEnough(100_000n, 100_004n, minMoveCentiBps(0.5)), false, '0.4 bps < 0.5');
  // Amounts past 2^53 stay exact.
  const big = 2n ** 63n;
  assert.equal(movedEnough(big, big + big / 10_000n - 1n, minMoveCentiBps(1)), false);
  assert.equal(movedEnough(big, big + big / 10_000n + 1n, minMoveCentiBps(1)), true);
  const exactOut = { ...fakeQuoteBody(5n, 1), swapMode: 'ExactOut' as const };
  assert.equal(watchedAmount(exactOut), 1_000_000n, 'ExactOut watches the input the route needs');
  assert.equal(watchedAmount(fakeQuoteBody(5n, 1)), 5n);
});

test('the first quote is computed and stored on connect; an idle stream does no route work, tick after tick', async () => {
  const { fake, ticker, streams, frames, handle } = await rig(5);
  assert.equal(fake.calls, 1);
  assert.equal(fake.commits, 1, 'the first frame is stored under its quoteId');
  assert.equal(ticker.running?.periodMs, 50, 'one shared timer');
  await ticker.advance(10_000);
  assert.equal(handle.counters.ticks, 50, '5 Hz for 10 s');
  assert.equal(handle.counters.skipped, 50);
  assert.equal(handle.counters.recomputes, 0);
  assert.equal(fake.calls, 1, 'no route search while nothing was written');
  assert.deepEqual(frames, []);
  assert.equal(streams.stats.recomputes, 0);
});

test('a write to a watched pool recomputes once at the next tick; a write elsewhere does not', async () => {
  const { fake, ticker, frames, handle } = await rig(5);
  fake.write(99);
  await ticker.advance(1000);
  assert.equal(fake.calls, 1, 'pool 99 is not one the search read');
  fake.write(1);
  fake.out = 1_010_000n;
  await ticker.advance(200);
  assert.equal(fake.calls, 2);
  assert.equal(frames.length, 1);
  assert.equal(frames[0]!.bestRoute.outputAmount, '1010000');
  assert.equal(fake.commits, 2, 'the sent frame is stored');
  await ticker.advance(2000);
  assert.equal(fake.calls, 2, 'idle again after the recompute');
  assert.equal(handle.counters.recomputes, 1);
});

test('minMoveBps: a smaller move emits nothing and is not stored; the threshold is against the last frame sent', async () => {
  const { fake, ticker, frames, handle } = await rig(5, 10);
  const step = async (out: bigint): Promise<void> => {
    fake.out = out;
    fake.write(0);
    await ticker.advance(200);
  };
  await step(1_000_999n); // 9.99 bps
  assert.equal(frames.length, 0);
  assert.equal(fake.commits, 1, 'a held quote is never stored');
  await step(1_000_500n);
  await step(1_000_900n);
  assert.equal(frames.length, 0, 'small moves do not add up against each other: each is held');
  await step(1_001_000n); // 10 bps from the first frame's 1,000,000
  assert.equal(frames.length, 1);
  await step(1_001_900n); // ~9 bps from the last frame sent
  assert.equal(frames.length, 1);
  await step(1_002_002n); // 10 bps from 1,001,000
  assert.equal(frames.length, 2);
  assert.deepEqual([handle.counters.recomputes, handle.counters.held, handle.counters.emitted], [6, 4, 2]);
  assert.notEqual(frames[0]!.quoteId, frames[1]!.quoteId, 'every frame has its own quoteId');
});

test('minMoveBps 0: every recompute emits, even an unchanged amount', async () => {
  const { fake, ticker, frames } = await rig(5, 0);
  fake.write(2);
  await ticker.advance(200);
  assert.equal(frames.length, 1);
  assert.equal(frames[0]!.bestRoute.outputAmount, '1000000');
});

test('tickHz is clamped to [1, 5]: 10 Hz checks 5 times a second, 0.2 Hz once', async () => {
  for (const [hz, period, ticks] of [
    [10, 200, 5],
    [5, 200, 5],
    [2, 500, 2],
    [0.2, 1000, 1],
  ] as const) {
    const { ticker, handle } = await rig(hz);
    assert.equal(handle.periodMs, period, `tickHz ${hz}`);
    await ticker.advance(1000);
    assert.equal(handle.counters.ticks, ticks, `tickHz ${hz}`);
  }
});

test('a topology change recomputes and adopts the new search pools', async () => {
  const { fake, ticker, handle } = await rig(5);
  fake.gen = 1;
  fake.pools = [3, 4];
  await ticker.advance(200);
  assert.equal(fake.calls, 2, 'the generation moved');
  await ticker.advance(1000);
  assert.equal(fake.calls, 2, 'then idle');
  fake.write(0);
  await ticker.advance(1000);
  assert.equal(fake.calls, 2, 'pool 0 is no longer read by the search');
  fake.write(4);
  await ticker.advance(200);
  assert.equal(fake.calls, 3);
  assert.equal(handle.counters.recomputes, 2);
});

test('only the initial quote can fail the stream: later 404s and 504s and throws are dropped silently', async () => {
  const fake = new FakeStreamQuotes();
  fake.fail = 'NO_ROUTE';
  const ticker = new ManualTicker();
  const streams = new QuoteStreams({ quote: fake.quote, writeSeq: fake.writeSeq, generation: fake.generation, now: ticker.clock, timer: ticker.timer });
  const refused = await streams.first({ input: FAKE_STREAM_INPUT, tickHz: 2, minMoveBps: 1 });
  assert.deepEqual(refused, { ok: false, code: 'NO_ROUTE', message: 'fake' });
  assert.equal(fake.commits, 0);
  assert.equal(ticker.running, null, 'nothing registered');

  const { fake: f, ticker: t, frames, handle } = await rig(5);
  f.fail = 'NO_ROUTE';
  f.write(0);
  await t.advance(200);
  assert.equal(f.calls, 2);
  await t.advance(1000);
  assert.equal(f.calls, 2, 'a 404 is state: retried only when something moves');
  f.fail = 'ROUTE_TIMEOUT';
  f.write(0);
  await t.advance(200);
  await t.advance(200);
  assert.equal(f.calls, 4, 'a timeout says nothing about the pools: the next tick retries');
  // A later EXCEEDED_SLIPPAGE read pools: they become the watched set.
  f.fail = 'EXCEEDED_SLIPPAGE';
  f.pools = [7];
  f.write(0);
  await t.advance(200);
  assert.equal(f.calls, 5);
  f.write(0);
  await t.advance(400);
  assert.equal(f.calls, 5, 'pool 0 no longer watched');
  f.fail = null;
  f.pools = [0, 1, 2];
  f.throws = true;
  f.write(7);
  await t.advance(200);
  assert.equal(f.calls, 6);
  f.throws = false;
  f.out = 2_000_000n;
  await t.advance(200);
  assert.equal(f.calls, 7, 'a thrown search (the 503 case) is retried too');
  assert.equal(frames.length, 1, 'the stream stayed open and sends the next good quote');
  assert.equal(handle.counters.dropped, 5);
});

test('a stream never overlaps its own recompute; a closed stream sends nothing and stops the timer', async () => {
  const { fake, ticker, streams, frames, handle } = await rig(5, 0);
  fake.hold = true;
  fake.write(0);
  await ticker.advance(200);
  fake.write(1);
  await ticker.advance(1000);
  assert.equal(fake.calls, 2, 'one search in flight');
  assert.equal(handle.counters.overlapped, 5);
  fake.release();
  await settle();
  assert.equal(frames.length, 1);
  // The write during the held search: the search's sequences were taken before it, so the next tick recomputes.
  await ticker.advance(200);
  assert.equal(fake.calls, 3);
  fake.release();
  await settle();
  fake.write(2);
  await ticker.advance(200);
  assert.equal(fake.calls, 4);
  handle.close();
  fake.release();
  await settle();
  assert.equal(frames.length, 2, 'the answer of a closed stream is not sent');
  assert.equal(ticker.running, null, 'the last stream closed: the timer stopped');
  assert.equal(streams.size, 0);
});

test('many idle streams share one timer and do no route work', async () => {
  const fake = new FakeStreamQuotes();
  const ticker = new ManualTicker();
  const streams = new QuoteStreams({ quote: fake.quote, writeSeq: fake.writeSeq, generation: fake.generation, now: ticker.clock, timer: ticker.timer });
  for (let i = 0; i < 1000; i++) {
    const first = await streams.first({ input: FAKE_STREAM_INPUT, tickHz: 1 + (i % 5), minMoveBps: 1 });
    assert.ok(first.ok);
    first.start({ frame: () => assert.fail('no frame while idle') });
  }
  assert.equal(ticker.starts, 1);
  await ticker.advance(3000);
  assert.equal(fake.calls, 1000, 'only the first quotes');
  assert.equal(streams.stats.recomputes, 0);
  assert.equal(streams.stats.skipped, streams.stats.ticks);
  assert.ok(streams.stats.ticks >= 1000 * 3);
  streams.close();
  assert.equal(ticker.running, null);
});

test('with the change count wired, an idle tick reads no sequence at all; an announced write is still found', async () => {
  const { fake, ticker, handle } = await rig(5, 1, undefined, true);
  const reads = fake.seqReads;
  await ticker.advance(10_000);
  assert.equal(handle.counters.skipped, 50);
  assert.equal(fake.seqReads, reads, 'one load of the count per tick, no sequence read');
  fake.write(99);
  await ticker.advance(200);
  assert.ok(fake.seqReads > reads, 'a write anywhere makes the next tick look at the sequences');
  assert.equal(fake.calls, 1, 'pool 99 is not watched: no recompute');
  fake.write(2);
  fake.out = 1_020_000n;
  await ticker.advance(200);
  assert.equal(fake.calls, 2, 'a watched pool written: one recompute');
  const after = fake.seqReads;
  await ticker.advance(2000);
  assert.equal(fake.seqReads, after, 'idle again: no sequence read');
});
