import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TrackedPayers } from './tracked-payers.js';

test('a payer is watched while one of its signatures is tracked', () => {
  const p = new TrackedPayers(1000, () => 0, 0);
  assert.equal(p.add('s1', 'A'), true, 'new payer');
  assert.equal(p.add('s2', 'A'), false, 'same payer');
  assert.equal(p.add('s1', 'A'), false, 'idempotent');
  assert.equal(p.add('s3', 'B'), true);
  assert.deepEqual(p.payers().sort(), ['A', 'B']);
  assert.equal(p.remove('s1'), false, 'A still has s2');
  assert.equal(p.remove('s1'), false, 'unknown now');
  assert.equal(p.has('s2'), true);
  assert.equal(p.remove('s2'), true, 'A has none left');
  assert.deepEqual(p.payers(), ['B']);
  assert.equal(p.size, 1);
});

test('signatures past their deadline leave, and their payers with them', () => {
  let now = 0;
  const p = new TrackedPayers(1000, () => now, 0);
  p.add('s1', 'A');
  now = 600;
  p.add('s2', 'A');
  p.add('s3', 'B');
  assert.equal(p.expire(), false, 'nothing due');
  now = 1001;
  assert.equal(p.expire(), false, 's1 left; A keeps s2');
  assert.equal(p.has('s1'), false);
  assert.deepEqual(p.payers().sort(), ['A', 'B']);
  now = 1601;
  assert.equal(p.expire(), true);
  assert.deepEqual(p.payers(), []);
});

test('a payer lingers in the filter after its last transaction: its next one needs no filter write', () => {
  let now = 0;
  const p = new TrackedPayers(1000, () => now, 500);
  assert.equal(p.add('s1', 'A'), true, 'new payer: the filter grows');
  assert.equal(p.remove('s1'), false, 'its last transaction ended: it lingers, no filter write');
  assert.deepEqual(p.payers(), ['A']);
  now = 300;
  assert.equal(p.add('s2', 'A'), false, 'back within the linger: still in the filter');
  assert.equal(p.remove('s2'), false);
  now = 700;
  assert.equal(p.expire(), false, 'the linger restarted at the last end (300 + 500)');
  now = 801;
  assert.equal(p.expire(), true, 'linger over: the filter shrinks');
  assert.deepEqual(p.payers(), []);
  assert.equal(p.add('s3', 'A'), true, 'new again');
});
