import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seqIsOdd, seqReadBegin, seqReadValid, seqWriteBegin, seqWriteEnd } from './seqlock.js';

test('a write makes the sequence odd, then even and different; overlapping reads fail validation', () => {
  const seq = new Int32Array(new SharedArrayBuffer(8));
  const r0 = seqReadBegin(seq, 1);
  assert.equal(seqIsOdd(r0), false);
  const s = seqWriteBegin(seq, 1);
  assert.equal(seqIsOdd(seq[1]!), true);
  assert.equal(seqIsOdd(seqReadBegin(seq, 1)), true, 'a reader starting now must retry');
  seqWriteEnd(seq, 1, s);
  assert.equal(seqIsOdd(seq[1]!), false);
  assert.equal(seqReadValid(seq, 1, r0), false, 'a read that overlapped the write is rejected');
  const r1 = seqReadBegin(seq, 1);
  assert.equal(seqReadValid(seq, 1, r1), true);
  assert.equal(seq[0], 0, 'neighbouring words untouched');
});

test('the sequence keeps its parity when it wraps past int32', () => {
  const seq = new Int32Array(new SharedArrayBuffer(4));
  seq[0] = 0x7ffffffe;
  const s = seqWriteBegin(seq, 0);
  assert.equal(s, 0x7fffffff);
  seqWriteEnd(seq, 0, s);
  assert.equal(seq[0], -0x80000000);
  assert.equal(seqIsOdd(seq[0]!), false);
  const t = seqWriteBegin(seq, 0);
  assert.equal(seqIsOdd(t), true);
});
