/**
 * The account watch over a fake client: the request of an interest (two named filters, none for an empty list, the
 * commitment), the filter rewritten on change and acknowledged by a pong, updates reported with base58 keys.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import bs58 from 'bs58';
import { AccountWatch, accountWatchRequest, type AccountUpdate } from './account-watch.js';
import type { StreamClient, StreamHandlers } from './filtered-stream.js';
import { CommitmentLevel, type SubscribeRequest, type SubscribeUpdate } from './yellowstone.js';

interface FakeStream {
  readonly writes: SubscribeRequest[];
  readonly h: StreamHandlers<SubscribeUpdate>;
  closed: boolean;
}

function fakeServer(): { connect: () => Promise<StreamClient<SubscribeRequest, SubscribeUpdate>>; next: () => Promise<FakeStream> } {
  const waiting: ((s: FakeStream) => void)[] = [];
  return {
    connect: async () => ({
      async subscribe(request, h) {
        const s: FakeStream = { writes: [request], h, closed: false };
        waiting.shift()?.(s);
        return { write: (r) => void s.writes.push(r), close: () => void (s.closed = true) };
      },
      close: () => undefined,
    }),
    next: () => new Promise<FakeStream>((r) => waiting.push(r)).then((s) => new Promise((r) => setImmediate(() => r(s)))),
  };
}

const A = 'So11111111111111111111111111111111111111112';
const P = 'CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C';

test('the request: one filter per list, none for an empty list, the commitment', () => {
  const both = accountWatchRequest({ accounts: [A], owners: [P] }, 'processed');
  assert.equal(both.commitment, CommitmentLevel.PROCESSED);
  assert.deepEqual(both.accounts, { accounts: { account: [A], owner: [], filters: [] }, owners: { account: [], owner: [P], filters: [] } });
  assert.deepEqual(accountWatchRequest({ accounts: [], owners: [P] }, 'confirmed').accounts, { owners: { account: [], owner: [P], filters: [] } });
  assert.equal(accountWatchRequest({ accounts: [], owners: [] }, 'confirmed').commitment, CommitmentLevel.CONFIRMED);
  assert.deepEqual(accountWatchRequest({ accounts: [], owners: [] }, 'processed').accounts, {}, 'no filter: nothing matches');
});

test('filters written on change and acknowledged; updates reported with base58 keys', async () => {
  const server = fakeServer();
  const seen: AccountUpdate[] = [];
  const watch = new AccountWatch({ connect: server.connect, commitment: 'processed', onAccount: (u) => seen.push(u), ackTimeoutMs: 60_000 });
  const first = server.next();
  watch.start();
  const s = await first;
  assert.deepEqual(s.writes[0]!.accounts, {});
  const applied = watch.setInterest({ accounts: [A], owners: [P] });
  assert.deepEqual(s.writes.at(-2)!.accounts['accounts']!.account, [A]);
  assert.deepEqual(s.writes.at(-2)!.accounts['owners']!.owner, [P]);
  assert.deepEqual(watch.watched, { accounts: [A], owners: [P] });
  let done = false;
  void applied.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  assert.equal(done, false, 'waits for the pong');
  s.h.onUpdate({ filters: [], pong: { id: s.writes.at(-1)!.ping!.id } } as unknown as SubscribeUpdate);
  await applied;
  const sig = new Uint8Array(64).fill(9);
  s.h.onUpdate({
    filters: ['accounts'],
    account: {
      slot: '1234',
      isStartup: false,
      account: { pubkey: bs58.decode(A), owner: bs58.decode(P), lamports: '2039280', executable: false, rentEpoch: '18446744073709551615', data: new Uint8Array([1, 2, 3]), writeVersion: '77', txnSignature: sig },
    },
  } as unknown as SubscribeUpdate);
  assert.deepEqual(seen, [
    { pubkey: A, owner: P, data: new Uint8Array([1, 2, 3]), lamports: '2039280', slot: 1234, writeVersion: '77', executable: false, rentEpoch: '18446744073709551615', txnSignature: bs58.encode(sig) },
  ]);
  assert.equal(watch.counts.accounts, 1);
  void watch.setInterest({ accounts: [], owners: [] });
  assert.deepEqual(s.writes.at(-2)!.accounts, {});
  watch.close();
  assert.equal(s.closed, true);
});

test('an interest set while no stream is open is applied once a stream opened with it and acknowledged it', async () => {
  const server = fakeServer();
  const watch = new AccountWatch({ connect: server.connect, commitment: 'confirmed', onAccount: () => undefined, ackTimeoutMs: 60_000 });
  const first = server.next();
  let done = false;
  const applied = watch.setInterest({ accounts: [A], owners: [] }).then(() => (done = true));
  watch.start();
  const s = await first;
  assert.deepEqual(s.writes[0]!.accounts['accounts']!.account, [A], 'opened with the filter');
  assert.equal(done, false, 'not before the pong');
  const last = s.writes.at(-1)!;
  assert.ok(last.ping);
  assert.deepEqual(last.accounts['accounts']!.account, [A]);
  s.h.onUpdate({ filters: [], pong: { id: last.ping.id } } as unknown as SubscribeUpdate);
  await applied;
  // Released by close while waiting for a stream.
  const again = new AccountWatch({ connect: () => new Promise(() => undefined), commitment: 'processed', onAccount: () => undefined });
  again.start();
  const pending = again.setInterest({ accounts: [A], owners: [] });
  again.close();
  await pending;
  watch.close();
});
