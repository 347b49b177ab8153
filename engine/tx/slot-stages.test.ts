/**
 * The slot book: signatures placed by their transaction updates reach their slot's confirmed and finalized; a dead
 * slot and a slot passed by a finalized one release theirs as lost; a placement after its slot's status gets that
 * stage at once; finished and forgotten signatures leave.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SLOT_STATUS, SlotStages } from './slot-stages.js';

test('placed signatures reach their slot\'s confirmed, then finalized, and leave', () => {
  const b = new SlotStages();
  assert.equal(b.place('a', 10), null);
  assert.equal(b.place('b', 10), null);
  assert.equal(b.place('c', 11), null);
  assert.deepEqual(b.slotStatus(10, SLOT_STATUS.processed), { stage: null, reached: [], lost: [] });
  assert.deepEqual(b.slotStatus(10, 4 /* completed */), { stage: null, reached: [], lost: [] });
  assert.deepEqual(b.slotStatus(10, SLOT_STATUS.confirmed), { stage: 'confirmed', reached: ['a', 'b'], lost: [] });
  assert.deepEqual(b.slotStatus(10, SLOT_STATUS.finalized), { stage: 'finalized', reached: ['a', 'b'], lost: [] });
  assert.equal(b.size, 1);
  assert.deepEqual(b.slotStatus(10, SLOT_STATUS.finalized).reached, [], 'gone once finalized');
  b.forget('c');
  assert.equal(b.size, 0);
  assert.deepEqual(b.slotStatus(11, SLOT_STATUS.confirmed).reached, [], 'a forgotten signature is not reported');
});

test('a dead slot and a slot passed by a finalized one release their signatures as lost', () => {
  const b = new SlotStages();
  b.place('dead', 5);
  b.place('forked', 6);
  b.place('kept', 8);
  assert.deepEqual(b.slotStatus(5, SLOT_STATUS.dead), { stage: null, reached: [], lost: ['dead'] });
  assert.deepEqual(b.slotStatus(6, SLOT_STATUS.confirmed).reached, ['forked'], 'confirmed alone concludes nothing about others');
  const o = b.slotStatus(7, SLOT_STATUS.finalized);
  assert.deepEqual(o, { stage: 'finalized', reached: [], lost: ['forked'] }, 'slot 6 was not finalized before 7 was');
  assert.equal(b.size, 1, 'slot 8 is above: kept');
  // Landed again on the surviving fork: placed anew.
  b.place('forked', 9);
  assert.deepEqual(b.slotStatus(9, SLOT_STATUS.confirmed).reached, ['forked']);
});

test('a placement after its slot\'s status gets that stage at once; moving a signature leaves its old slot', () => {
  const b = new SlotStages(4);
  b.slotStatus(20, SLOT_STATUS.confirmed);
  assert.equal(b.place('late', 20), 'confirmed');
  assert.deepEqual(b.slotStatus(20, SLOT_STATUS.finalized).reached, ['late']);
  assert.equal(b.place('later', 20), 'finalized');
  assert.equal(b.size, 0, 'a signature of a finalized slot is done');
  b.place('moved', 21);
  b.place('moved', 22);
  assert.deepEqual(b.slotStatus(21, SLOT_STATUS.confirmed).reached, []);
  assert.deepEqual(b.slotStatus(22, SLOT_STATUS.confirmed).reached, ['moved']);
  // The window: statuses older than 4 slots below the highest are forgotten.
  b.slotStatus(30, SLOT_STATUS.confirmed);
  assert.equal(b.place('old', 20), null);
});
