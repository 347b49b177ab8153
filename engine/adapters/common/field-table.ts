/**
 * Account codecs as data: an account is an ordered table of fields with constant byte offsets (kit-style "layout
 * as data"); one table drives decode, encode and the layout tests. Little-endian, no alignment assumed (Borsh and
 * zero-copy `repr(C)` accounts alike, padding being simply absent from the table). A field that ends past a
 * shorter (older) account reads as zero / false / the zero key and is skipped on write, the way the programs'
 * versioned readers treat the fields an older account lacks.
 */
import bs58 from 'bs58';
import { pubkeyAt } from './pubkey-text.js';

/** Primitive kinds found in DEX accounts. `pubkey7` / `pubkey8` are fixed arrays of keys. */
export type FieldKind = 'pubkey' | 'u8' | 'bool' | 'u16' | 'u32' | 'i32' | 'u64' | 'u128' | 'i128' | 'pubkey7' | 'pubkey8';

/** Byte size of each {@link FieldKind}. */
export const FIELD_SIZE: Readonly<Record<FieldKind, number>> = {
  pubkey: 32, u8: 1, bool: 1, u16: 2, u32: 4, i32: 4, u64: 8, u128: 16, i128: 16, pubkey7: 7 * 32, pubkey8: 8 * 32,
};

/** TypeScript value type of each {@link FieldKind} (keys as base58, 64- and 128-bit integers as bigint). */
export interface FieldValue {
  pubkey: string;
  u8: number;
  bool: boolean;
  u16: number;
  u32: number;
  i32: number;
  u64: bigint;
  u128: bigint;
  i128: bigint;
  pubkey7: string[];
  pubkey8: string[];
}

/** One row of a layout table: field name, kind and absolute byte offset in the account. */
export interface FieldSpec<N extends string = string, K extends FieldKind = FieldKind> {
  readonly name: N;
  readonly kind: K;
  readonly offset: number;
}

/** A decoded object whose keys and value types follow a field table. */
export type FieldsOf<T extends readonly FieldSpec[]> = {
  -readonly [F in T[number] as F['name']]: FieldValue[F['kind']];
};

/** Byte offset of each field of a table, by name. */
export type FieldOffsets<T extends readonly FieldSpec[]> = { readonly [F in T[number] as F['name']]: number };

/**
 * The offsets of a table by field name, for hot-path reads that skip a full decode (a state rebuild reads a few
 * fields with one DataView). Computed once at module load, so the table stays the one source of the offsets.
 * Throws RangeError on a duplicate name (two fields one offset map cannot tell apart).
 */
export function fieldOffsets<T extends readonly FieldSpec[]>(table: T): FieldOffsets<T> {
  const out: Record<string, number> = {};
  for (const f of table) {
    if (Object.hasOwn(out, f.name)) throw new RangeError(`${f.name}: duplicate field`);
    out[f.name] = f.offset;
  }
  return Object.freeze(out) as FieldOffsets<T>;
}

/** True when `data` starts with the 8-byte (Anchor) discriminator `disc`. */
export function hasDiscriminator(data: Uint8Array, disc: Uint8Array): boolean {
  if (data.length < 8) return false;
  for (let i = 0; i < 8; i++) if (data[i] !== disc[i]) return false;
  return true;
}

/** The all-zero key (`Pubkey::default()`). */
export const ZERO_KEY = '11111111111111111111111111111111';

const U64_MAX = 0xffff_ffff_ffff_ffffn;
const U128_MAX = (1n << 128n) - 1n;
const I128_MIN = -(1n << 127n);
const I128_MAX = (1n << 127n) - 1n;

function view(data: Uint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
}

/** Reads a little-endian u128 at `o`. */
export function readU128(data: Uint8Array, o: number): bigint {
  const dv = view(data);
  return dv.getBigUint64(o, true) | (dv.getBigUint64(o + 8, true) << 64n);
}

/** Writes a little-endian u128 at `o` (the caller guarantees 0 <= v < 2^128). */
export function writeU128(data: Uint8Array, o: number, v: bigint): void {
  const dv = view(data);
  dv.setBigUint64(o, v & U64_MAX, true);
  dv.setBigUint64(o + 8, v >> 64n, true);
}

/** Reads a little-endian i128 at `o` (two's complement). */
export function readI128(data: Uint8Array, o: number): bigint {
  const dv = view(data);
  return (dv.getBigInt64(o + 8, true) << 64n) | dv.getBigUint64(o, true);
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

function keys(data: Uint8Array, o: number, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(pubkeyAt(data, o + 32 * i));
  return out;
}

/**
 * Reads every field of `table` from `data`. A field that ends past `data.length` reads as zero (see the module
 * comment); callers check the discriminator and the sizes they accept.
 */
export function readFields<T extends readonly FieldSpec[]>(data: Uint8Array, table: T): FieldsOf<T> {
  const end = lastEnd(table);
  const d = data.length >= end ? data : padTo(data, end);
  const dv = view(d);
  const out: Record<string, unknown> = {};
  for (const f of table) {
    const o = f.offset;
    switch (f.kind) {
      case 'pubkey': out[f.name] = pubkeyAt(d, o); break;
      case 'u8': out[f.name] = d[o]!; break;
      // Why `!== 0`: programs write 0/1 without validating on read; any nonzero byte is true, never an error.
      case 'bool': out[f.name] = d[o]! !== 0; break;
      case 'u16': out[f.name] = dv.getUint16(o, true); break;
      case 'u32': out[f.name] = dv.getUint32(o, true); break;
      case 'i32': out[f.name] = dv.getInt32(o, true); break;
      case 'u64': out[f.name] = dv.getBigUint64(o, true); break;
      case 'u128': out[f.name] = readU128(d, o); break;
      case 'i128': out[f.name] = readI128(d, o); break;
      case 'pubkey7': out[f.name] = keys(d, o, 7); break;
      case 'pubkey8': out[f.name] = keys(d, o, 8); break;
    }
  }
  return out as FieldsOf<T>;
}

function checkInt(name: string, v: unknown, max: number): number {
  if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > max) throw new RangeError(`${name}: out of range`);
  return v as number;
}

function checkBig(name: string, v: unknown, min: bigint, max: bigint): bigint {
  if (typeof v !== 'bigint' || v < min || v > max) throw new RangeError(`${name}: out of range`);
  return v;
}

function writeKey(out: Uint8Array, o: number, name: string, v: unknown): void {
  const bytes = bs58.decode(v as string);
  if (bytes.length !== 32) throw new RangeError(`${name}: not a 32-byte base58 key`);
  out.set(bytes, o);
}

/**
 * Writes the fields of `table` that fit in `out` (which already holds the discriminator and zeroed padding; an
 * older, shorter account has no room for the later fields). Throws RangeError on a value that does not fit its
 * field (bad input is a programming error here).
 */
export function writeFields<T extends readonly FieldSpec[]>(out: Uint8Array, table: T, fields: FieldsOf<T>): void {
  const dv = view(out);
  const src = fields as Record<string, unknown>;
  for (const f of table) {
    if (f.offset + FIELD_SIZE[f.kind] > out.length) continue;
    const v = src[f.name];
    const o = f.offset;
    switch (f.kind) {
      case 'pubkey': writeKey(out, o, f.name, v); break;
      case 'u8': out[o] = checkInt(f.name, v, 0xff); break;
      case 'bool': out[o] = v ? 1 : 0; break;
      case 'u16': dv.setUint16(o, checkInt(f.name, v, 0xffff), true); break;
      case 'u32': dv.setUint32(o, checkInt(f.name, v, 0xffff_ffff), true); break;
      case 'i32': {
        if (!Number.isInteger(v) || (v as number) < -0x8000_0000 || (v as number) > 0x7fff_ffff) throw new RangeError(`${f.name}: out of range`);
        dv.setInt32(o, v as number, true);
        break;
      }
      case 'u64': dv.setBigUint64(o, checkBig(f.name, v, 0n, U64_MAX), true); break;
      case 'u128': writeU128(out, o, checkBig(f.name, v, 0n, U128_MAX)); break;
      case 'i128': {
        const x = checkBig(f.name, v, I128_MIN, I128_MAX);
        dv.setBigUint64(o, x & U64_MAX, true);
        dv.setBigInt64(o + 8, x >> 64n, true);
        break;
      }
      case 'pubkey7':
      case 'pubkey8': {
        const n = f.kind === 'pubkey7' ? 7 : 8;
        if (!Array.isArray(v) || v.length !== n) throw new RangeError(`${f.name}: not ${n} keys`);
        v.forEach((k, i) => writeKey(out, o + 32 * i, f.name, k));
        break;
      }
    }
  }
}
