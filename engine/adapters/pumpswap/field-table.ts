/**
 * A small codec for the PumpSwap accounts described as ordered field tables with constant offsets. Unlike the
 * CPMM codec it knows signed 128-bit integers and fixed arrays of keys, and it reads fields that lie past the end
 * of a shorter (older) account as zero, the way the program's versioned readers do.
 */
import bs58 from 'bs58';
import { pubkeyAt } from '../common/pubkey-text.js';

/** Primitive kinds found in the PumpSwap accounts (little-endian, Borsh, no alignment). */
export type FieldKind = 'pubkey' | 'u8' | 'bool' | 'u16' | 'u64' | 'i128' | 'pubkey7' | 'pubkey8';

/** Byte size of each {@link FieldKind}. */
export const FIELD_SIZE: Readonly<Record<FieldKind, number>> = {
  pubkey: 32, u8: 1, bool: 1, u16: 2, u64: 8, i128: 16, pubkey7: 7 * 32, pubkey8: 8 * 32,
};

/** TypeScript value type of each {@link FieldKind} (pubkeys as base58 strings). */
export interface FieldValue {
  pubkey: string;
  u8: number;
  bool: boolean;
  u16: number;
  u64: bigint;
  i128: bigint;
  pubkey7: string[];
  pubkey8: string[];
}

/** One row of a layout table: name, kind and absolute byte offset. */
export interface FieldSpec<N extends string = string, K extends FieldKind = FieldKind> {
  readonly name: N;
  readonly kind: K;
  readonly offset: number;
}

/** A decoded object whose keys and value types follow a field table. */
export type FieldsOf<T extends readonly FieldSpec[]> = {
  -readonly [F in T[number] as F['name']]: FieldValue[F['kind']];
};

/** The all-zero key (`Pubkey::default()`). */
export const ZERO_KEY = '11111111111111111111111111111111';

const I128_MIN = -(1n << 127n);
const I128_MAX = (1n << 127n) - 1n;
const U64_MAX = 0xffff_ffff_ffff_ffffn;

function view(data: Uint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
}

/** Reads a little-endian i128 at `o` (two's complement). */
export function readI128(data: Uint8Array, o: number): bigint {
  const dv = view(data);
  const lo = dv.getBigUint64(o, true);
  const hi = dv.getBigInt64(o + 8, true);
  return (hi << 64n) | lo;
}

/** Reads a little-endian u128 at `o`. */
export function readU128(data: Uint8Array, o: number): bigint {
  const dv = view(data);
  return (dv.getBigUint64(o + 8, true) << 64n) | dv.getBigUint64(o, true);
}

function keys(data: Uint8Array, o: number, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(bs58.encode(data.subarray(o + 32 * i, o + 32 * i + 32)));
  return out;
}

/**
 * Reads every field of `table`. A field that ends past `data.length` reads as zero / false / the zero key:
 * the program's versioned readers treat the fields an older, shorter account lacks that way.
 */
export function readFields<T extends readonly FieldSpec[]>(data: Uint8Array, table: T): FieldsOf<T> {
  const padded = data.length >= lastEnd(table) ? data : padTo(data, lastEnd(table));
  const dv = view(padded);
  const out: Record<string, unknown> = {};
  for (const f of table) {
    const o = f.offset;
    switch (f.kind) {
      case 'pubkey': out[f.name] = pubkeyAt(padded, o); break;
      case 'u8': out[f.name] = padded[o]!; break;
      case 'bool': out[f.name] = padded[o]! !== 0; break;
      case 'u16': out[f.name] = dv.getUint16(o, true); break;
      case 'u64': out[f.name] = dv.getBigUint64(o, true); break;
      case 'i128': out[f.name] = readI128(padded, o); break;
      case 'pubkey7': out[f.name] = keys(padded, o, 7); break;
      case 'pubkey8': out[f.name] = keys(padded, o, 8); break;
    }
  }
  return out as FieldsOf<T>;
}

/** End offset of the last field of a table. */
export function lastEnd(table: readonly FieldSpec[]): number {
  let end = 0;
  for (const f of table) end = Math.max(end, f.offset + FIELD_SIZE[f.kind]);
  return end;
}

/** A copy of `data` zero-padded to `size` bytes. */
export function padTo(data: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(Math.max(size, data.length));
  out.set(data, 0);
  return out;
}

function writeKey(out: Uint8Array, o: number, name: string, v: string): void {
  const bytes = bs58.decode(v);
  if (bytes.length !== 32) throw new RangeError(`${name}: not a 32-byte base58 key`);
  out.set(bytes, o);
}

/**
 * Writes the fields of `table` that fit in `out` (an older, shorter account simply has no room for the later
 * ones). Throws RangeError on a value that does not fit its field.
 */
export function writeFields<T extends readonly FieldSpec[]>(out: Uint8Array, table: T, fields: FieldsOf<T>): void {
  const dv = view(out);
  const src = fields as Record<string, unknown>;
  for (const f of table) {
    if (f.offset + FIELD_SIZE[f.kind] > out.length) continue;
    const v = src[f.name];
    const o = f.offset;
    switch (f.kind) {
      case 'pubkey': writeKey(out, o, f.name, v as string); break;
      case 'u8':
        if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 0xff) throw new RangeError(`${f.name}: not a u8`);
        out[o] = v as number;
        break;
      case 'bool': out[o] = v ? 1 : 0; break;
      case 'u16':
        if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 0xffff) throw new RangeError(`${f.name}: not a u16`);
        dv.setUint16(o, v as number, true);
        break;
      case 'u64':
        if (typeof v !== 'bigint' || v < 0n || v > U64_MAX) throw new RangeError(`${f.name}: not a u64`);
        dv.setBigUint64(o, v, true);
        break;
      case 'i128':
        if (typeof v !== 'bigint' || v < I128_MIN || v > I128_MAX) throw new RangeError(`${f.name}: not an i128`);
        dv.setBigUint64(o, v & U64_MAX, true);
        dv.setBigInt64(o + 8, v >> 64n, true);
        break;
      case 'pubkey7':
      case 'pubkey8': {
        const arr = v as string[];
        const n = f.kind === 'pubkey7' ? 7 : 8;
        if (!Array.isArray(arr) || arr.length !== n) throw new RangeError(`${f.name}: not ${n} keys`);
        arr.forEach((k, i) => writeKey(out, o + 32 * i, f.name, k));
        break;
      }
    }
  }
}
