/**
 * The deshred watch over a fake client: the filter written on open and on change (an empty set matches nothing),
 * `setAccounts` resolving on the pong of its ping, transactions reported with base58 signatures, and a stream that
 * ends with an error reopened with the current filter, the wait chosen by gRPC status code.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import bs58 from 'bs58';
import type { DeshredClient, DeshredHandlers, DeshredSubscription } from './geyser-deshred.js';
import { DeshredWatch } from './deshred-watch.js';
import { GrpcStatus } from './grpc-status.js';
import type { SubscribeDeshredRequest, SubscribeUpdateDeshred } from './yellowstone.js';

/** One fake stream: what was written, and the handlers to drive it. */
interface FakeStream {
  readonly writes: SubscribeDeshredRequest[];
  readonly h: DeshredHandlers;
  closed: boolean;
}

function fakeServer(): { streams: FakeStream[]; clients: number; connect: () => Promise<DeshredClient>; next: () => Promise<FakeStream> } {
  const streams: FakeStream[] = [];
  const waiting: ((s: FakeStream) => void)[] = [];
  const server = {
    streams,
    clients: 0,
    connect: async (): Promise<DeshredClient> => {
      server.clients++;
      return {
        async subscribe(request, h): Promise<DeshredSubscription> {
          const s: FakeStream = { writes: [request], h, closed: false };
          streams.push(s);
          waiting.shift()?.(s);
          return { write: (r) => void s.writes.push(r), close: () => void (s.closed = true) };
        },
        close: () => undefined,
      };
    },
    // Why setImmediate: the watch takes the stream once subscribe() resolved; the test looks after that.
    next: (): Promise<FakeStream> => new Promise<FakeStream>((r) => waiting.push(r)).then((s) => new Promise((r) => setImmediate(() => r(s)))),
  };
  return server;
}

const update = (u: Partial<SubscribeUpdateDeshred>): SubscribeUpdateDeshred => ({ filters: [], createdAt: new Date(), ...u }) as SubscribeUpdateDeshred;
const grpcError = (code: number): Error => Object.assign(new Error(`status ${code}`), { code });
/** Keeps the event loop up while a test waits on the watch's reconnect timer (unref'd, as in production). */
function keepAlive(t: { after(fn: () => void): void }): void {
  const h = setInterval(() => undefined, 1000);
  t.after(() => clearInterval(h));
}

const A = 'So11111111111111111111111111111111111111112';
const B = 'Vote111111111111111111111111111111111111111';

test('filters: written on open and on change, acknowledged by the pong of a ping; empty matches nothing', async () => {
  const server = fakeServer();
  const seen: [string, number][] = [];
  const watch = new DeshredWatch({ connect: server.connect, onTransaction: (s, slot) => seen.push([s, slot]), ackTimeoutMs: 60_000 });
  const first = server.next();
  assert.equal(watch.open, false);
  await watch.setAccounts([A]);
  watch.start();
  const s = await first;
  assert.deepEqual(s.writes[0], { deshredTransactions: { tracked: { vote: false, accountInclude: [A], accountExclude: [], accountRequired: [] } }, slots: {} });
  assert.ok(s.writes[1]!.ping, 'a ping at once');
  assert.equal(watch.open, true);
  const applied = watch.setAccounts([A, B]);
  const ping = s.writes.at(-1)!.ping!;
  assert.deepEqual(s.writes.at(-2)!.deshredTransactions.tracked!.accountInclude, [A, B]);
  let done = false;
  void applied.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  assert.equal(done, false, 'waits for the pong');
  s.h.onUpdate(update({ pong: { id: ping.id } }));
  await applied;
  const sig = new Uint8Array(64).fill(7);
  s.h.onUpdate(update({ deshredTransaction: { slot: '300000001', transaction: { signature: sig } as never } }));
  assert.deepEqual(seen, [[bs58.encode(sig), 300000001]]);
  assert.deepEqual(s.writes.at(-1)!.deshredTransactions.tracked!.accountInclude, [A, B], 'the ping carries the filter');
  void watch.setAccounts([]);
  assert.deepEqual(s.writes.at(-2), { deshredTransactions: {}, slots: {} });
  watch.close();
  assert.equal(s.closed, true);
});

test('a stream error reopens the stream with the current filter; the wait follows the gRPC status code', async (t) => {
  keepAlive(t);
  const server = fakeServer();
  const watch = new DeshredWatch({ connect: server.connect, onTransaction: () => undefined, firstBackoffMs: 1, maxBackoffMs: 40, ackTimeoutMs: 60_000 });
  let next = server.next();
  watch.start();
  const s1 = await next;
  // A waiter of the failed stream is let go.
  const pending = watch.setAccounts([B]);
  next = server.next();
  s1.h.onEnd(grpcError(GrpcStatus.UNAVAILABLE));
  await pending;
  assert.equal(watch.open, false);
  assert.equal(watch.stats.lastStatus, GrpcStatus.UNAVAILABLE);
  assert.equal(watch.stats.lastDelayMs, 1, 'first backoff');
  const s2 = await next;
  assert.deepEqual(s2.writes[0]!.deshredTransactions.tracked!.accountInclude, [B], 'the filter is written again');
  assert.equal(watch.stats.connects, 2);
  assert.equal(server.clients, 2, 'a fresh client per attempt');
  // Nothing delivered on s2: the backoff grows.
  next = server.next();
  s2.h.onEnd(grpcError(GrpcStatus.INTERNAL));
  assert.equal(watch.stats.lastDelayMs, 2);
  const s3 = await next;
  // A server without SubscribeDeshred: the longest wait, whatever the backoff was.
  s3.h.onUpdate(update({ pong: { id: 1 } }));
  next = server.next();
  s3.h.onEnd(grpcError(GrpcStatus.UNIMPLEMENTED));
  assert.equal(watch.stats.lastDelayMs, 40);
  await next;
  assert.equal(watch.stats.errors, 3);
  watch.close();
});

test('a connect that fails is retried; a closed watch stays closed', async (t) => {
  keepAlive(t);
  let calls = 0;
  const server = fakeServer();
  const watch = new DeshredWatch({
    connect: async () => {
      if (++calls === 1) throw grpcError(GrpcStatus.UNAVAILABLE);
      return server.connect();
    },
    onTransaction: () => undefined,
    firstBackoffMs: 1,
  });
  const next = server.next();
  watch.start();
  const s = await next;
  assert.equal(calls, 2);
  watch.close();
  s.h.onEnd(grpcError(GrpcStatus.UNAVAILABLE));
  assert.equal(watch.stats.errors, 1, 'the end of a stream after close is not an error');
});
