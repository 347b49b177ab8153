import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type FieldSpec, fieldOffsets, readFields, writeFields } from './field-table.js';

const TABLE = [
  { name: 'flag', kind: 'u8', offset: 8 },
  { name: 'amount', kind: 'u64', offset: 9 },
  { name: 'later', kind: 'u64', offset: 25 },
] as const satisfies readonly FieldSpec[];

test('fieldOffsets maps each field name to its table offset, frozen', () => {
  const at = fieldOffsets(TABLE);
  assert.deepEqual({ ...at }, { flag: 8, amount: 9, later: 25 });
  assert.ok(Object.isFrozen(at));
  // The offsets a hot path reads by hand are the ones the table's codec writes.
  const data = new Uint8Array(33);
  writeFields(data, TABLE, { flag: 7, amount: 0x0102_0304_0506_0708n, later: 9n });
  const dv = new DataView(data.buffer);
  assert.equal(data[at.flag], 7);
  assert.equal(dv.getBigUint64(at.amount, true), 0x0102_0304_0506_0708n);
  assert.equal(dv.getBigUint64(at.later, true), readFields(data, TABLE).later);
});

test('fieldOffsets refuses a table with a duplicate name', () => {
  const dup = [{ name: 'a', kind: 'u8', offset: 0 }, { name: 'a', kind: 'u8', offset: 1 }] as const satisfies readonly FieldSpec[];
  assert.throws(() => fieldOffsets(dup), RangeError);
});
