/**
 * A tiny codec for fixed-size, packed account layouts described as ordered field tables with constant
 * offsets (the kit-style "layout as data" approach): one table drives decode, encode and the layout tests.
 */
import bs58 from 'bs58';
import { pubkeyAt } from '../common/pubkey-text.js';

/** Primitive kinds found in the CPMM accounts (little-endian, packed, no alignment). */
export type FieldKind = 'pubkey' | 'u8' | 'bool' | 'u16' | 'u64';

/** Byte size of each {@link FieldKind}. */
export const FIELD_SIZE: Readonly<Record<FieldKind, number>> = { pubkey: 32, u8: 1, bool: 1, u16: 2, u64: 8 };

/** TypeScript value type of each {@link FieldKind} in a decoded object (pubkeys as base58 strings). */
export interface FieldValue {
  pubkey: string;
  u8: number;
  bool: boolean;
  u16: number;
  u64: bigint;
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

function view(data: Uint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
}

/** Reads every field of `table` from `data` (the caller has checked size and discriminator). */
export function readFields<T extends readonly FieldSpec[]>(data: Uint8Array, table: T): FieldsOf<T> {
  const dv = view(data);
  const out: Record<string, unknown> = {};
  for (const f of table) {
    const o = f.offset;
    switch (f.kind) {
      case 'pubkey':
        out[f.name] = pubkeyAt(data, o);
        break;
      case 'u8':
        out[f.name] = data[o]!;
        break;
      case 'bool':
        // Why `!== 0`: the program writes 0/1 (zero-copy, no validation on read); a reader must not throw on
        // an odd byte, and any nonzero byte is what a C-style reader of the packed struct would call true.
        out[f.name] = data[o]! !== 0;
        break;
      case 'u16':
        out[f.name] = dv.getUint16(o, true);
        break;
      case 'u64':
        out[f.name] = dv.getBigUint64(o, true);
        break;
    }
  }
  return out as FieldsOf<T>;
}

/**
 * Writes every field of `table` into `out` (which already holds the discriminator and any padding).
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
      case 'u8':
        if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 0xff) throw new RangeError(`${f.name}: not a u8`);
        out[o] = v as number;
        break;
      case 'bool':
        out[o] = v ? 1 : 0;
        break;
      case 'u16':
        if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 0xffff) throw new RangeError(`${f.name}: not a u16`);
        dv.setUint16(o, v as number, true);
        break;
      case 'u64':
        if (typeof v !== 'bigint' || v < 0n || v > 0xffff_ffff_ffff_ffffn) throw new RangeError(`${f.name}: not a u64`);
        dv.setBigUint64(o, v, true);
        break;
    }
  }
}
