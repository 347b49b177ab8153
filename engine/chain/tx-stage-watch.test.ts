/**
 * The stage watch over a fake Geyser client (the server lies outside the service): the Subscribe request (processed
 * commitment, every slot status, the payers' transaction statuses only when there are payers: an empty
 * `accountInclude` would match everything), transaction statuses reported with base58 signatures and their error
 * decoded from Agave's bincode to the JSON-RPC shape, slot statuses reported as numbered, `live` only while updates
 * flow, and a lost stream reported and reopened with the current filter (the shared machinery of
 * `filtered-stream.ts`, whose acks and backoff `deshred-watch.test.ts` covers).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import bs58 from 'bs58';
import type { StreamClient, StreamHandlers } from './filtered-stream.js';
import { GrpcStatus } from './grpc-status.js';
import { txErrorJson, TxStageWatch, txStageRequest } from './tx-stage-watch.js';
import { CommitmentLevel, type SubscribeRequest, type SubscribeUpdate } from './yellowstone.js';

interface FakeStream {
  readonly writes: SubscribeRequest[];
  readonly h: StreamHandlers<SubscribeUpdate>;
}

function fakeServer(): { connect: () => Promise<StreamClient<SubscribeRequest, SubscribeUpdate>>; next: () => Promise<FakeStream> } {
  const waiting: ((s: FakeStream) => void)[] = [];
  return {
    connect: async () => ({
      async subscribe(request, h) {
        const s: FakeStream = { writes: [request], h };
        waiting.shift()?.(s);
        return { write: (r) => void s.writes.push(r), close: () => undefined };
      },
      close: () => undefined,
    }),
    next: () => new Promise<FakeStream>((r) => waiting.push(r)).then((s) => new Promise((r) => setImmediate(() => r(s)))),
  };
}

const update = (u: Partial<SubscribeUpdate>): SubscribeUpdate => ({ filters: ['x'], createdAt: new Date(), ...u }) as SubscribeUpdate;
const A = 'So11111111111111111111111111111111111111112';
/** Agave's bincode of `InstructionError(0, Custom(1))`: tag 8 (u32 LE), index u8, Custom tag 25 (u32 LE), code u32 LE. */
const CUSTOM_1 = Uint8Array.from([8, 0, 0, 0, 0, 25, 0, 0, 0, 1, 0, 0, 0]);

test('the request: processed, every slot status, the payers\' transaction statuses only when there are payers', () => {
  const empty = txStageRequest([]);
  assert.equal(empty.commitment, CommitmentLevel.PROCESSED);
  assert.deepEqual(empty.slots, { stages: { filterByCommitment: false, interslotUpdates: true } });
  assert.deepEqual(empty.transactionsStatus, {});
  assert.deepEqual(empty.transactions, {});
  assert.deepEqual(txStageRequest([A]).transactionsStatus, { tracked: { vote: false, accountInclude: [A], accountExclude: [], accountRequired: [] } });
  assert.equal(txStageRequest([A]).transactionsStatus.tracked!.failed, undefined, 'failed transactions included');
});

test('the error of a failed transaction in the JSON-RPC shape; unknown bytes in hex', () => {
  assert.equal(txErrorJson(CUSTOM_1), '{"InstructionError":[0,{"Custom":1}]}');
  assert.equal(txErrorJson(Uint8Array.from([4, 0, 0, 0])), '"InsufficientFundsForFee"');
  assert.equal(txErrorJson(Uint8Array.from([250, 0, 0, 0])), '{"undecoded":"fa000000"}');
});

test('transaction statuses and slot statuses are reported; live while updates flow; a lost stream is told and reopened', async (t) => {
  const keep = setInterval(() => undefined, 1000);
  t.after(() => clearInterval(keep));
  const server = fakeServer();
  const clock = { ms: 0 };
  const txs: [string, number, string | null][] = [];
  const slots: [number, number][] = [];
  let lost = 0;
  const watch = new TxStageWatch({
    connect: server.connect,
    onTransaction: (s, slot, err) => txs.push([s, slot, err]),
    onSlot: (slot, status) => slots.push([slot, status]),
    onLost: () => lost++,
    now: () => clock.ms,
    staleMs: 3000,
    firstBackoffMs: 1,
    ackTimeoutMs: 60_000,
  });
  let next = server.next();
  watch.start();
  const s1 = await next;
  assert.deepEqual(s1.writes[0], txStageRequest([]));
  assert.equal(watch.live, true, 'open counts as delivering');
  void watch.setAccounts([A]);
  assert.deepEqual(s1.writes.at(-2), txStageRequest([A]));
  const ok = new Uint8Array(64).fill(1);
  const bad = new Uint8Array(64).fill(2);
  s1.h.onUpdate(update({ transactionStatus: { slot: '300000010', signature: ok, isVote: false, index: '0', err: undefined } }));
  s1.h.onUpdate(update({ transactionStatus: { slot: '300000010', signature: bad, isVote: false, index: '1', err: { err: CUSTOM_1 } } }));
  // A `transaction` update (the other filter) reads the same.
  s1.h.onUpdate(update({ transaction: { slot: '300000011', transaction: { signature: ok, isVote: false, transaction: undefined, meta: { err: { err: CUSTOM_1 } } as never, index: '0' } } }));
  s1.h.onUpdate(update({ slot: { slot: '300000010', status: 1 as never } }));
  s1.h.onUpdate(update({ slot: { slot: '300000009', status: 6 as never, deadError: 'x' } }));
  assert.deepEqual(txs, [
    [bs58.encode(ok), 300000010, null],
    [bs58.encode(bad), 300000010, '{"InstructionError":[0,{"Custom":1}]}'],
    [bs58.encode(ok), 300000011, '{"InstructionError":[0,{"Custom":1}]}'],
  ]);
  assert.deepEqual(slots, [[300000010, 1], [300000009, 6]]);
  assert.deepEqual(watch.counts, { transactions: 3, slots: 2 });
  clock.ms = 2999;
  assert.equal(watch.live, true);
  clock.ms = 3000;
  assert.equal(watch.live, false, 'silent for 3 s');
  s1.h.onUpdate(update({ slot: { slot: '300000011', status: 0 as never } }));
  assert.equal(watch.live, true);
  next = server.next();
  s1.h.onEnd(Object.assign(new Error('gone'), { code: GrpcStatus.UNAVAILABLE }));
  assert.equal(lost, 1);
  assert.equal(watch.live, false);
  const s2 = await next;
  assert.deepEqual(s2.writes[0], txStageRequest([A]), 'reopened with the current filter');
  watch.close();
});
