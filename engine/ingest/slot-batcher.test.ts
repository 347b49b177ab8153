import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AccountUpdate } from './account-update.js';
import { SlotBatcher } from './slot-batcher.js';

const up = (address: string, slot: bigint, writeVersion = 1n): AccountUpdate => ({
  address,
  owner: 'o',
  lamports: 0n,
  data: new Uint8Array(),
  slot,
  writeVersion,
});

test('a slot batch is held until its slot is done, then released whole', () => {
  const b = new SlotBatcher();
  assert.deepEqual(b.push(up('pool', 10n)), []);
  assert.deepEqual(b.push(up('vault0', 10n)), []);
  assert.deepEqual(b.push(up('vault1', 11n)), []);
  const released = b.slotDone(10n);
  assert.equal(released.length, 1);
  assert.deepEqual(released[0]!.map((u) => u.address), ['pool', 'vault0']);
  assert.equal(b.pendingSlots, 1);
});

test('a lost slot status does not stall: updates two slots newer release older batches in slot order', () => {
  const b = new SlotBatcher();
  b.push(up('a', 5n));
  b.push(up('b', 6n));
  const released = b.push(up('c', 8n));
  assert.deepEqual(released.map((x) => x[0]!.slot), [5n, 6n]);
  assert.deepEqual(b.drain().map((x) => x[0]!.address), ['c']);
});
