/**
 * A codec for the DBC program's zero-copy (bytemuck, repr(C) with explicit padding) accounts described as
 * ordered field tables with constant offsets: one table drives decode, encode and the layout tests.
 */
import bs58 from 'bs58';
import { pubkeyAt } from '../common/pubkey-text.js';

/** Primitive kinds found in the DBC accounts (little-endian). */
export type FieldKind = 'pubkey' | 'u8' | 'u16' | 'u32' | 'u64' | 'u128';

/** Byte size of each {@link FieldKind}. */
export const FIELD_SIZE: Readonly<Record<FieldKind, number>> = { pubkey: 32, u8: 1, u16: 2, u32: 4, u64: 8, u128: 16 };

/** TypeScript value type of each {@link FieldKind} (pubkeys as base58, u64/u128 as bigint). */
export interface FieldValue {
  pubkey: string;
  u8: number;
  u16: number;
  u32: number;
  u64: bigint;
  u128: bigint;
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

const U64_MAX = 0xffff_ffff_ffff_ffffn;
const U128_MAX = (1n << 128n) - 1n;

function view(data: Uint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
}

/** Reads a little-endian u128 at `offset`. */
export function readU128(data: Uint8Array, offset: number): bigint {
  const dv = view(data);
  return dv.getBigUint64(offset, true) | (dv.getBigUint64(offset + 8, true) << 64n);
}

/** Writes a little-endian u128 at `offset` (the caller guarantees 0 <= v < 2^128). */
export function writeU128(data: Uint8Array, offset: number, v: bigint): void {
  const dv = view(data);
  dv.setBigUint64(offset, v & U64_MAX, true);
  dv.setBigUint64(offset + 8, v >> 64n, true);
}

/** Reads every field of `table` from `data` (the caller has checked size and discriminator). */
export function readFields<T extends readonly FieldSpec[]>(data: Uint8Array, table: T): FieldsOf<T> {
  const dv = view(data);
  const out: Record<string, unknown> = {};
  for (const f of table) {
    const o = f.offset;
    switch (f.kind) {
      case 'pubkey': out[f.name] = pubkeyAt(data, o); break;
      case 'u8': out[f.name] = data[o]!; break;
      case 'u16': out[f.name] = dv.getUint16(o, true); break;
      case 'u32': out[f.name] = dv.getUint32(o, true); break;
      case 'u64': out[f.name] = dv.getBigUint64(o, true); break;
      case 'u128': out[f.name] = readU128(data, o); break;
    }
  }
  return out as FieldsOf<T>;
}

function checkInt(name: string, v: unknown, max: number): number {
  if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > max) throw new RangeError(`${name}: out of range`);
  return v as number;
}

function checkBig(name: string, v: unknown, max: bigint): bigint {
  if (typeof v !== 'bigint' || v < 0n || v > max) throw new RangeError(`${name}: out of range`);
  return v;
}

/**
 * Writes every field of `table` into `out` (which already holds the discriminator and zeroed padding).
 * Throws RangeError on a value that does not fit its field (bad input is a programming error here).
 */
export function writeFields<T extends readonly FieldSpec[]>(out: Uint8Array, table: T, fields: FieldsOf<T>): void {
  const dv = view(out);
  const src = fields as Record<string, unknown>;
  for (const f of table) {
    const v = src[f.name];
    const o = f.offset;
    switch (f.kind) {
      case 'pubkey': {
        const bytes = bs58.decode(v as string);
        if (bytes.length !== 32) throw new RangeError(`${f.name}: not a 32-byte base58 key`);
        out.set(bytes, o);
        break;
      }
      case 'u8': out[o] = checkInt(f.name, v, 0xff); break;
      case 'u16': dv.setUint16(o, checkInt(f.name, v, 0xffff), true); break;
      case 'u32': dv.setUint32(o, checkInt(f.name, v, 0xffff_ffff), true); break;
      case 'u64': dv.setBigUint64(o, checkBig(f.name, v, U64_MAX), true); break;
      case 'u128': writeU128(out, o, checkBig(f.name, v, U128_MAX)); break;
    }
  }
}
