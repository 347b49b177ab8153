/**
 * A tiny codec for the fixed-size, packed AmmInfo layout described as an ordered field table with constant
 * offsets: one table drives decode, encode and the layout tests. AMM v4 is a native (non-Anchor) program whose
 * account is a `#[repr(C, packed)]` struct of u64, u128 and Pubkey fields only.
 */
import bs58 from 'bs58';

/** Primitive kinds found in the AMM v4 account (little-endian, packed). */
export type FieldKind = 'pubkey' | 'u64' | 'u128';

/** Byte size of each {@link FieldKind}. */
export const FIELD_SIZE: Readonly<Record<FieldKind, number>> = { pubkey: 32, u64: 8, u128: 16 };

/** TypeScript value type of each {@link FieldKind} in a decoded object (pubkeys as base58 strings). */
export interface FieldValue {
  pubkey: string;
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

function view(data: Uint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
}

/** Reads every field of `table` from `data` (the caller has checked the size). */
export function readFields<T extends readonly FieldSpec[]>(data: Uint8Array, table: T): FieldsOf<T> {
  const dv = view(data);
  const out: Record<string, unknown> = {};
  for (const f of table) {
    const o = f.offset;
    switch (f.kind) {
      case 'pubkey':
        out[f.name] = bs58.encode(data.subarray(o, o + 32));
        break;
      case 'u64':
        out[f.name] = dv.getBigUint64(o, true);
        break;
      case 'u128':
        out[f.name] = dv.getBigUint64(o, true) | (dv.getBigUint64(o + 8, true) << 64n);
        break;
    }
  }
  return out as FieldsOf<T>;
}

/**
 * Writes every field of `table` into `out` (zeroed padding stays as is). Throws RangeError on a value that
 * does not fit its field (bad input is a programming error here).
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
      case 'u64':
        if (typeof v !== 'bigint' || v < 0n || v > U64_MAX) throw new RangeError(`${f.name}: not a u64`);
        dv.setBigUint64(o, v, true);
        break;
      case 'u128':
        if (typeof v !== 'bigint' || v < 0n || v >> 128n !== 0n) throw new RangeError(`${f.name}: not a u128`);
        dv.setBigUint64(o, v & U64_MAX, true);
        dv.setBigUint64(o + 8, v >> 64n, true);
        break;
    }
  }
}
