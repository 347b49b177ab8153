/**
 * The account streams over fake watches: the filter is the union of the clients' accounts and owners, written only
 * when it changes, shrunk when a client goes; updates go to the clients whose accounts or owners match, once each;
 * one watch per commitment, opened on its first client.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AccountInterest, AccountUpdate } from '../chain/account-watch.js';
import { AccountStreams, type AccountCommitment, type AccountWatchLike } from './account-streams.js';

class FakeWatch implements AccountWatchLike {
  started = 0;
  closed = false;
  readonly writes: AccountInterest[] = [];
  watched: AccountInterest = { accounts: [], owners: [] };
  constructor(readonly deliver: (u: AccountUpdate) => void) {}
  get open(): boolean {
    return this.started > 0 && !this.closed;
  }
  start(): void {
    this.started++;
  }
  setInterest(i: AccountInterest): Promise<void> {
    this.watched = { accounts: [...i.accounts].sort(), owners: [...i.owners].sort() };
    this.writes.push(this.watched);
    return Promise.resolve();
  }
  close(): void {
    this.closed = true;
  }
}

function setup(): { streams: AccountStreams; watches: Map<AccountCommitment, FakeWatch> } {
  const watches = new Map<AccountCommitment, FakeWatch>();
  const streams = new AccountStreams((c, onAccount) => {
    const w = new FakeWatch(onAccount);
    watches.set(c, w);
    return w;
  });
  return { streams, watches };
}

const upd = (pubkey: string, owner: string): AccountUpdate => ({ pubkey, owner, data: new Uint8Array(), lamports: '1', slot: 1, writeVersion: '1', executable: false, rentEpoch: '0', txnSignature: undefined });

test('the filter is the union of the clients, written on change only, shrunk as clients go', async () => {
  const { streams, watches } = setup();
  assert.equal(watches.size, 0, 'no watch before a client');
  const a = streams.subscribe({ accounts: ['A1', 'A2'], owners: [], commitment: 'processed' }, () => undefined);
  const w = watches.get('processed')!;
  assert.equal(w.started, 1);
  await a.applied;
  const b = streams.subscribe({ accounts: ['A2'], owners: ['P1'], commitment: 'processed' }, () => undefined);
  await b.applied;
  assert.deepEqual(w.watched, { accounts: ['A1', 'A2'], owners: ['P1'] });
  const c = streams.subscribe({ accounts: ['A1'], owners: ['P1'], commitment: 'processed' }, () => undefined);
  await c.applied;
  assert.equal(w.writes.length, 2, 'a client adding nothing new writes nothing');
  assert.equal(streams.clients('processed'), 3);
  a.stop();
  assert.equal(w.writes.length, 2, 'A1 and A2 still wanted');
  b.stop();
  b.stop();
  assert.deepEqual(w.watched, { accounts: ['A1'], owners: ['P1'] });
  c.stop();
  assert.deepEqual(w.watched, { accounts: [], owners: [] });
  assert.deepEqual(streams.watched('processed'), { accounts: [], owners: [] });
  assert.equal(streams.clients('processed'), 0);
  assert.equal(w.started, 1);
  streams.close();
  assert.equal(w.closed, true);
});

test('updates go to the clients whose accounts or owners match, once each', async () => {
  const { streams, watches } = setup();
  const got = { a: [] as string[], b: [] as string[], c: [] as string[] };
  streams.subscribe({ accounts: ['A1'], owners: [], commitment: 'processed' }, (u) => got.a.push(u.pubkey));
  streams.subscribe({ accounts: ['A1'], owners: ['P1'], commitment: 'processed' }, (u) => got.b.push(u.pubkey));
  streams.subscribe({ accounts: ['X'], owners: ['P2'], commitment: 'processed' }, (u) => got.c.push(u.pubkey));
  const w = watches.get('processed')!;
  assert.equal(w.started, 1, 'started once');
  w.deliver(upd('A1', 'P1'));
  w.deliver(upd('A9', 'P1'));
  w.deliver(upd('A8', 'P3'));
  assert.deepEqual(got, { a: ['A1'], b: ['A1', 'A9'], c: [] });
  streams.close();
});

test('one watch per commitment, opened on its first client; nothing after close', () => {
  const { streams, watches } = setup();
  streams.subscribe({ accounts: ['B'], owners: [], commitment: 'processed' }, () => undefined);
  assert.deepEqual([...watches.keys()], ['processed']);
  const seen: string[] = [];
  streams.subscribe({ accounts: [], owners: ['P1'], commitment: 'confirmed' }, (u) => seen.push(u.pubkey));
  const conf = watches.get('confirmed')!;
  assert.equal(conf.started, 1);
  assert.deepEqual(conf.watched, { accounts: [], owners: ['P1'] });
  assert.deepEqual(watches.get('processed')!.watched, { accounts: ['B'], owners: [] });
  watches.get('processed')!.deliver(upd('A', 'P1'));
  assert.deepEqual(seen, [], 'a processed update is not a confirmed client\'s');
  conf.deliver(upd('A', 'P1'));
  assert.deepEqual(seen, ['A']);
  streams.close();
  assert.equal(conf.closed, true);
  const late = streams.subscribe({ accounts: ['A'], owners: [], commitment: 'processed' }, () => undefined);
  late.stop();
  assert.equal(watches.size, 2);
});

test('admits: an interest that would grow the filter past the caps is refused; keys already watched are free', () => {
  const watches = new Map<AccountCommitment, FakeWatch>();
  const streams = new AccountStreams((c, onAccount) => {
    const w = new FakeWatch(onAccount);
    watches.set(c, w);
    return w;
  }, { accounts: 3, owners: 1 });
  assert.equal(streams.admits({ accounts: ['A1', 'A2', 'A3', 'A4'], owners: [], commitment: 'processed' }), false);
  assert.equal(streams.admits({ accounts: [], owners: ['P1', 'P2'], commitment: 'processed' }), false);
  const a = streams.subscribe({ accounts: ['A1', 'A2'], owners: ['P1'], commitment: 'processed' }, () => undefined);
  assert.equal(streams.admits({ accounts: ['A1', 'A2', 'A3'], owners: ['P1'], commitment: 'processed' }), true);
  assert.equal(streams.admits({ accounts: ['A3', 'A4'], owners: [], commitment: 'processed' }), false);
  assert.equal(streams.admits({ accounts: [], owners: ['P2'], commitment: 'processed' }), false);
  assert.equal(streams.admits({ accounts: ['A3', 'A4'], owners: ['P2'], commitment: 'confirmed' }), true, 'another commitment, another filter');
  a.stop();
  assert.equal(streams.admits({ accounts: ['A3', 'A4'], owners: ['P2'], commitment: 'processed' }), true, 'room again');
  streams.close();
});
