import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AccountUpdate } from './account-update.js';
import { sameTransaction, TxGrouper } from './tx-grouper.js';

const sig = (n: number, at = 0): Uint8Array => {
  const s = new Uint8Array(64).fill(7);
  s[at] = n;
  return s;
};
const up = (address: string, slot: bigint, txnSignature?: Uint8Array): AccountUpdate => ({
  address,
  owner: 'o',
  lamports: 0n,
  data: new Uint8Array(),
  slot,
  writeVersion: 1n,
  txnSignature,
});

test('a transaction is released whole when the next one starts, and by take at the end of the turn', () => {
  const g = new TxGrouper();
  assert.equal(g.push(up('vault0', 10n, sig(1))), null);
  assert.equal(g.push(up('vault1', 10n, sig(1))), null);
  assert.equal(g.push(up('pool', 10n, sig(1))), null);
  const first = g.push(up('vault0', 10n, sig(2)));
  assert.deepEqual(first?.map((u) => u.address), ['vault0', 'vault1', 'pool']);
  assert.equal(g.pending, 1);
  assert.deepEqual(g.take()?.map((u) => u.address), ['vault0']);
  assert.equal(g.take(), null);
});

test('signatures differing only in the last byte are different transactions; equal bytes are the same one', () => {
  assert.equal(sameTransaction(up('a', 1n, sig(1, 63)), up('b', 1n, sig(2, 63))), false);
  assert.equal(sameTransaction(up('a', 1n, sig(3, 63)), up('b', 1n, sig(3, 63))), true);
});

test('unsigned writes group by slot; a signed write never joins an unsigned group; a new slot starts a group', () => {
  const g = new TxGrouper();
  g.push(up('clock', 5n));
  assert.equal(g.push(up('startup', 5n)), null, 'unsigned writes of one slot stay together');
  assert.deepEqual(g.push(up('vault', 5n, sig(1)))?.map((u) => u.address), ['clock', 'startup']);
  assert.deepEqual(g.push(up('vault', 6n, sig(1)))?.map((u) => u.address), ['vault'], 'same bytes, another slot');
  g.clear();
  assert.equal(g.pending, 0);
});
