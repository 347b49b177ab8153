import { test } from 'node:test';
import assert from 'node:assert/strict';
import { booleanParam, listParam, numberParam } from './query.js';

const q = (s: string): URLSearchParams => new URLSearchParams(s);

test('booleans are strict', () => {
  assert.equal(booleanParam(q(''), 'b', false), false);
  assert.equal(booleanParam(q('b=true'), 'b', false), true);
  assert.equal(booleanParam(q('b=1'), 'b', false), true);
  assert.equal(booleanParam(q('b=0'), 'b', true), false);
  assert.equal(booleanParam(q('b=false'), 'b', true), false);
  for (const bad of ['b=yes', 'b=', 'b=TRUE', 'b=2']) assert.throws(() => booleanParam(q(bad), 'b', false), { code: 'INVALID_REQUEST' });
});

test('numbers are finite and in range', () => {
  assert.equal(numberParam(q(''), 'n', 0.5, 0, 1), 0.5);
  assert.equal(numberParam(q('n=0'), 'n', 0.5, 0, 1), 0);
  assert.equal(numberParam(q('n=1'), 'n', 0.5, 0, 1), 1);
  assert.equal(numberParam(q('n=1e-3'), 'n', 0.5, 0, 1), 0.001);
  for (const bad of ['n=', 'n=abc', 'n=-0.1', 'n=1.01', 'n=NaN', 'n=Infinity', 'n=0x1']) {
    assert.throws(() => numberParam(q(bad), 'n', 0.5, 0, 1), { code: 'INVALID_REQUEST' }, bad);
  }
});

test('lists are trimmed and drop empty entries', () => {
  assert.deepEqual(listParam(' a, b,,c ,'), ['a', 'b', 'c']);
  assert.deepEqual(listParam(''), []);
});
