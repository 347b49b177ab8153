/**
 * Byte layout of the array region (`array-slab.ts`): fixed-size, reusable records for variable-size pool state (a
 * tick array, a bin array, a book side) and the per-pool directories that list them. Tables as data, checked at
 * load, mirrored in `README.md`; any change bumps {@link ARRAY_SLAB_VERSION}.
 */
import { assertLayout, offsetsOf, type SlabField } from './layout.js';

/** Magic number at byte 0 of an array region ("PARR" little-endian). */
export const ARRAY_SLAB_MAGIC = 0x52524150;

/** Version of the array region layout below. */
export const ARRAY_SLAB_VERSION = 1;

/** Array region header, at byte 0 of its buffer. */
export const ARRAY_HEADER_FIELDS = [
  { name: 'magic', type: 'u32', offset: 0, size: 4 },
  { name: 'layoutVersion', type: 'u32', offset: 4, size: 4 },
  { name: 'dataWords', type: 'u32', offset: 8, size: 4 },
  { name: 'capacity', type: 'u32', offset: 12, size: 4 },
  { name: 'count', type: 'u32', offset: 16, size: 4 },
  { name: 'reserved', type: 'bytes', offset: 20, size: 44 },
] as const satisfies readonly SlabField[];

/** Size of the array region header in bytes. */
export const ARRAY_HEADER_BYTES = 64;

/** Byte offsets of the array region header fields. */
export const ARRAY_HEADER = offsetsOf(ARRAY_HEADER_FIELDS);

/** Header of one array record (the data words follow it). */
export const ARRAY_RECORD_FIELDS = [
  { name: 'seq', type: 'i32', offset: 0, size: 4 },
  { name: 'generation', type: 'u32', offset: 4, size: 4 },
  { name: 'pool', type: 'u32', offset: 8, size: 4 },
  { name: 'kind', type: 'u16', offset: 12, size: 2 },
  { name: 'flags', type: 'u16', offset: 14, size: 2 },
  { name: 'startIndex', type: 'i32', offset: 16, size: 4 },
  { name: 'usedWords', type: 'u32', offset: 20, size: 4 },
  { name: 'slot', type: 'u64', offset: 24, size: 8 },
  { name: 'address', type: 'bytes', offset: 32, size: 32 },
] as const satisfies readonly SlabField[];

/** Size of an array record's header in bytes; its data words start here. */
export const ARRAY_RECORD_HEADER_BYTES = 64;

/** Byte offsets of the array record header fields. */
export const AREC = offsetsOf(ARRAY_RECORD_FIELDS);

/** Record flag: the record is allocated (clear on a free record). */
export const ARRAY_FLAG_LIVE = 1;

/** `kind` of a directory record (the list of one pool view's arrays); adapters use kinds below it. */
export const ARRAY_KIND_DIRECTORY = 0xffff;

/** `pool` of a free record. */
export const ARRAY_NO_POOL = 0xffffffff;

/**
 * A directory's data, in Int32 words from the record's first data word: `[0]` entry count, `[1]` reserved, then
 * per entry 4 words: record index, its generation, its startIndex, its kind. Entries are sorted by startIndex.
 */
export const DIR_ENTRY_I32 = 4;
/** Int32 words before the first directory entry. */
export const DIR_HEAD_I32 = 2;

/** Bytes of one record holding `dataWords` 8-byte words (a multiple of 64: records start on cache lines). */
export function arrayRecordBytes(dataWords: number): number {
  return Math.ceil((ARRAY_RECORD_HEADER_BYTES + dataWords * 8) / 64) * 64;
}

/** Directory entries a record of `dataWords` holds. */
export function directoryCapacity(dataWords: number): number {
  return Math.floor((dataWords * 2 - DIR_HEAD_I32) / DIR_ENTRY_I32);
}

assertLayout('arrayHeader', ARRAY_HEADER_FIELDS, ARRAY_HEADER_BYTES);
assertLayout('arrayRecord', ARRAY_RECORD_FIELDS, ARRAY_RECORD_HEADER_BYTES);
