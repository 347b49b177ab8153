/**
 * Byte layouts of the shared slabs, as ordered field tables with constant offsets (kit-style "layout as data").
 * The tables are the single source of truth: offsets are literal, checked at load for order, overlap and natural
 * alignment, and mirrored in `README.md`. Any change to a table must bump the matching layout version so that
 * threads built from another version refuse to attach.
 */
import { EngineError } from '../errors.js';
import { PARAM_F64_WORDS, PARAM_U64_WORDS } from './record-fields.js';

/** Primitive kinds stored in a slab (little-endian; `bytes` is an opaque byte run). */
export type SlabFieldType = 'i32' | 'u8' | 'u16' | 'u32' | 'u64' | 'i64' | 'f64' | 'bytes';

/** One row of a layout table: name, kind, absolute byte offset inside the region, and size in bytes. */
export interface SlabField<N extends string = string> {
  readonly name: N;
  readonly type: SlabFieldType;
  readonly offset: number;
  readonly size: number;
}

/** Natural alignment of each scalar kind (a `bytes` run is byte-aligned). */
const ALIGN: Readonly<Record<SlabFieldType, number>> = { i32: 4, u8: 1, u16: 2, u32: 4, u64: 8, i64: 8, f64: 8, bytes: 1 };

/** Size of each scalar kind; a `bytes` row states its own size. */
const SIZE: Readonly<Record<Exclude<SlabFieldType, 'bytes'>, number>> = { i32: 4, u8: 1, u16: 2, u32: 4, u64: 8, i64: 8, f64: 8 };

/**
 * Checks that `fields` are in offset order, contiguous (padding is an explicit `reserved` row), naturally aligned,
 * sized as their kind says, and fill exactly `totalBytes`. Throws `SLAB_LAYOUT_INVALID` otherwise.
 */
export function assertLayout(region: string, fields: readonly SlabField[], totalBytes: number): void {
  let at = 0;
  for (const f of fields) {
    const bad = (why: string): never => {
      throw new EngineError('SLAB_LAYOUT_INVALID', `${region}.${f.name}: ${why}`, { region, field: f.name, offset: f.offset });
    };
    if (f.offset !== at) bad(`offset ${f.offset}, expected ${at} (gap or overlap)`);
    if (f.offset % ALIGN[f.type] !== 0) bad(`offset ${f.offset} is not ${ALIGN[f.type]}-byte aligned`);
    if (f.type !== 'bytes' && f.size !== SIZE[f.type]) bad(`size ${f.size} does not match type ${f.type}`);
    at += f.size;
  }
  if (at !== totalBytes) {
    throw new EngineError('SLAB_LAYOUT_INVALID', `${region}: fields cover ${at} bytes, expected ${totalBytes}`, { region });
  }
  if (totalBytes % 8 !== 0) {
    throw new EngineError('SLAB_LAYOUT_INVALID', `${region}: size ${totalBytes} is not 8-byte aligned`, { region });
  }
}

/** Name -> byte offset map of a layout table. */
export type OffsetsOf<T extends readonly SlabField[]> = { readonly [F in T[number] as F['name']]: number };

/** Builds the frozen name -> offset map of a layout table (used for the constant offsets in code). */
export function offsetsOf<T extends readonly SlabField[]>(fields: T): OffsetsOf<T> {
  const out: Record<string, number> = {};
  for (const f of fields) out[f.name] = f.offset;
  return Object.freeze(out) as OffsetsOf<T>;
}

// ---------------------------------------------------------------------------------------------------------------
// Pool slab

/** Magic number at byte 0 of a pool slab ("PSLB" little-endian). */
export const POOL_SLAB_MAGIC = 0x424c5350;

/** Version of the pool slab layout below; bump on any change to the header or record tables. */
export const POOL_SLAB_VERSION = 3;

/** Pool slab header, at byte 0 of the buffer. 128 bytes so that records start on a cache-line boundary. */
export const HEADER_FIELDS = [
  { name: 'magic', type: 'u32', offset: 0, size: 4 },
  { name: 'layoutVersion', type: 'u32', offset: 4, size: 4 },
  { name: 'capacity', type: 'u32', offset: 8, size: 4 },
  { name: 'count', type: 'u32', offset: 12, size: 4 },
  { name: 'generation', type: 'u32', offset: 16, size: 4 },
  { name: 'clockSeq', type: 'i32', offset: 20, size: 4 },
  { name: 'clockSlot', type: 'u64', offset: 24, size: 8 },
  { name: 'clockUnixTimestamp', type: 'i64', offset: 32, size: 8 },
  { name: 'clockEpoch', type: 'u64', offset: 40, size: 8 },
  { name: 'processedSlot', type: 'u64', offset: 48, size: 8 },
  { name: 'confirmedSlot', type: 'u64', offset: 56, size: 8 },
  { name: 'reserved', type: 'bytes', offset: 64, size: 64 },
] as const satisfies readonly SlabField[];

/** Size of the pool slab header in bytes. */
export const HEADER_BYTES = 128;

/** Byte offsets of the header fields. */
export const HEADER = offsetsOf(HEADER_FIELDS);

/** Record flag: the slot that wrote this record is confirmed. */
export const FLAG_CONFIRMED = 1;
/** Record flag: the pool can trade (`status === 0`). */
export const FLAG_TRADABLE = 2;
/** Record flag: the record holds data (set by the first write; a pool added but never written has it clear). */
export const FLAG_WRITTEN = 4;

/** One pool record (two per pool: latest and confirmed). Fixed size, 8-byte aligned, 320 bytes = 5 cache lines. */
export const RECORD_FIELDS = [
  { name: 'seq', type: 'i32', offset: 0, size: 4 },
  { name: 'dex', type: 'u16', offset: 4, size: 2 },
  { name: 'flags', type: 'u16', offset: 6, size: 2 },
  { name: 'mintA', type: 'u32', offset: 8, size: 4 },
  { name: 'mintB', type: 'u32', offset: 12, size: 4 },
  { name: 'status', type: 'u32', offset: 16, size: 4 },
  { name: 'pad0', type: 'bytes', offset: 20, size: 4 },
  { name: 'reserveA', type: 'u64', offset: 24, size: 8 },
  { name: 'reserveB', type: 'u64', offset: 32, size: 8 },
  { name: 'slot', type: 'u64', offset: 40, size: 8 },
  { name: 'updatedAtMs', type: 'f64', offset: 48, size: 8 },
  { name: 'reserveAF64', type: 'f64', offset: 56, size: 8 },
  { name: 'reserveBF64', type: 'f64', offset: 64, size: 8 },
  { name: 'address', type: 'bytes', offset: 72, size: 32 },
  { name: 'paramU64', type: 'bytes', offset: 104, size: 8 * PARAM_U64_WORDS },
  { name: 'paramF64', type: 'bytes', offset: 232, size: 8 * PARAM_F64_WORDS },
  { name: 'extOffset', type: 'u32', offset: 296, size: 4 },
  { name: 'arrayDir', type: 'u32', offset: 300, size: 4 },
  { name: 'reserved', type: 'bytes', offset: 304, size: 16 },
] as const satisfies readonly SlabField[];

/** Size of one pool record in bytes. */
export const RECORD_BYTES = 320;

/** Byte offsets of the record fields. */
export const REC = offsetsOf(RECORD_FIELDS);

/** Records per pool: view 0 (latest, processed) and view 1 (confirmed). */
export const VIEWS_PER_POOL = 2;

/** Bytes one pool occupies in the slab (both views, adjacent). */
export const POOL_STRIDE_BYTES = RECORD_BYTES * VIEWS_PER_POOL;

/** Byte offset of the record of `pool` / `view` inside the slab. */
export function recordOffset(pool: number, view: number): number {
  return HEADER_BYTES + (pool * VIEWS_PER_POOL + view) * RECORD_BYTES;
}

/** Buffer size in bytes of a pool slab holding `pools` pools. */
export function poolSlabBytes(pools: number): number {
  return HEADER_BYTES + pools * POOL_STRIDE_BYTES;
}

// ---------------------------------------------------------------------------------------------------------------
// Mint table

/** Magic number at byte 0 of a mint table ("MINT" little-endian). */
export const MINT_TABLE_MAGIC = 0x544e494d;

/** Version of the mint table layout below; bump on any change. */
export const MINT_TABLE_VERSION = 1;

/** Mint table header, at byte 0 of its buffer. */
export const MINT_HEADER_FIELDS = [
  { name: 'magic', type: 'u32', offset: 0, size: 4 },
  { name: 'layoutVersion', type: 'u32', offset: 4, size: 4 },
  { name: 'capacity', type: 'u32', offset: 8, size: 4 },
  { name: 'count', type: 'u32', offset: 12, size: 4 },
  { name: 'reserved', type: 'bytes', offset: 16, size: 48 },
] as const satisfies readonly SlabField[];

/** Size of the mint table header in bytes. */
export const MINT_HEADER_BYTES = 64;

/** Byte offsets of the mint table header fields. */
export const MINT_HEADER = offsetsOf(MINT_HEADER_FIELDS);

/** One mint entry: immutable once published (append-only table). */
export const MINT_ENTRY_FIELDS = [
  { name: 'mint', type: 'bytes', offset: 0, size: 32 },
  { name: 'decimals', type: 'u8', offset: 32, size: 1 },
  { name: 'flags', type: 'u8', offset: 33, size: 1 },
  { name: 'reserved', type: 'bytes', offset: 34, size: 6 },
] as const satisfies readonly SlabField[];

/** Size of one mint entry in bytes. */
export const MINT_ENTRY_BYTES = 40;

/** Byte offsets of the mint entry fields. */
export const MINT_ENTRY = offsetsOf(MINT_ENTRY_FIELDS);

/** Buffer size in bytes of a mint table holding `mints` entries. */
export function mintTableBytes(mints: number): number {
  return MINT_HEADER_BYTES + mints * MINT_ENTRY_BYTES;
}

// Why at load: a mis-edited table must fail the first import, not corrupt memory shared with other threads.
assertLayout('header', HEADER_FIELDS, HEADER_BYTES);
assertLayout('record', RECORD_FIELDS, RECORD_BYTES);
assertLayout('mintHeader', MINT_HEADER_FIELDS, MINT_HEADER_BYTES);
assertLayout('mintEntry', MINT_ENTRY_FIELDS, MINT_ENTRY_BYTES);
