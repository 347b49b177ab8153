import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isEngineError } from '../errors.js';
import {
  HEADER,
  HEADER_BYTES,
  MINT_ENTRY,
  MINT_ENTRY_BYTES,
  POOL_SLAB_VERSION,
  RECORD_BYTES,
  RECORD_FIELDS,
  REC,
  assertLayout,
  recordOffset,
} from './layout.js';
import type { SlabField } from './layout.js';

test('the pool slab layout is pinned (changing an offset requires bumping POOL_SLAB_VERSION and this test)', () => {
  assert.equal(POOL_SLAB_VERSION, 3);
  assert.equal(HEADER_BYTES, 128);
  assert.equal(RECORD_BYTES, 320);
  assert.deepEqual(
    { ...HEADER },
    {
      magic: 0,
      layoutVersion: 4,
      capacity: 8,
      count: 12,
      generation: 16,
      clockSeq: 20,
      clockSlot: 24,
      clockUnixTimestamp: 32,
      clockEpoch: 40,
      processedSlot: 48,
      confirmedSlot: 56,
      reserved: 64,
    },
  );
  assert.deepEqual(
    { ...REC },
    {
      seq: 0,
      dex: 4,
      flags: 6,
      mintA: 8,
      mintB: 12,
      status: 16,
      pad0: 20,
      reserveA: 24,
      reserveB: 32,
      slot: 40,
      updatedAtMs: 48,
      reserveAF64: 56,
      reserveBF64: 64,
      address: 72,
      paramU64: 104,
      paramF64: 232,
      extOffset: 296,
      arrayDir: 300,
      reserved: 304,
    },
  );
  assert.deepEqual({ ...MINT_ENTRY }, { mint: 0, decimals: 32, flags: 33, reserved: 34 });
  assert.equal(MINT_ENTRY_BYTES, 40);
});

test('records are 64-byte aligned and the two views of a pool are adjacent', () => {
  assert.equal(recordOffset(0, 0) % 64, 0);
  assert.equal(recordOffset(7, 1) % 64, 0);
  assert.equal(recordOffset(3, 1) - recordOffset(3, 0), RECORD_BYTES);
  assert.equal(recordOffset(4, 0) - recordOffset(3, 1), RECORD_BYTES);
});

test('assertLayout rejects gaps, overlaps, misalignment and a wrong total', () => {
  const bad = (fields: readonly SlabField[], total: number): void =>
    assert.throws(() => assertLayout('t', fields, total), (e: unknown) => isEngineError(e, 'SLAB_LAYOUT_INVALID'));
  bad([{ name: 'a', type: 'u32', offset: 0, size: 4 }, { name: 'b', type: 'u32', offset: 8, size: 4 }], 12);
  bad([{ name: 'a', type: 'u32', offset: 0, size: 4 }, { name: 'b', type: 'u64', offset: 4, size: 8 }], 16);
  bad([{ name: 'a', type: 'u64', offset: 0, size: 4 }], 8);
  bad([{ name: 'a', type: 'u64', offset: 0, size: 8 }], 16);
  assert.doesNotThrow(() => assertLayout('record', RECORD_FIELDS, RECORD_BYTES));
});
