/**
 * Address lookup tables as the service reads and makes them, from the program's documented layouts (Agave's
 * `address_lookup_table` state and `ProgramInstruction`, bincode): the table address (the PDA of
 * `[authority, recent_slot u64 LE]`), `CreateLookupTable` and `ExtendLookupTable` instructions, and the table
 * account decoded (56-byte header, then 32-byte addresses). Tests hold these to `@solana/web3.js`'s
 * `AddressLookupTableProgram` and `AddressLookupTableAccount.deserialize`.
 */
import { PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import type { BuiltInstruction } from '../adapters/types.js';
import { SYSTEM_PROGRAM } from './spl-instructions.js';

/** The Address Lookup Table program. */
export const ADDRESS_LOOKUP_TABLE_PROGRAM = 'AddressLookupTab1e1111111111111111111111111';
/** Bytes before the addresses. */
export const LOOKUP_TABLE_META_SIZE = 56;
/** Most addresses a table holds. */
export const LOOKUP_TABLE_MAX_ADDRESSES = 256;
/** Offset of the authority's key (after the `Some` tag): the `getProgramAccounts` memcmp of a wallet's tables. */
export const LOOKUP_TABLE_AUTHORITY_OFFSET = 22;
/** `Slot::MAX`: the deactivation slot of an active table. */
export const ACTIVE_TABLE_DEACTIVATION_SLOT = 0xffff_ffff_ffff_ffffn;

/** Instruction variants (bincode u32). */
const CREATE = 0;
const EXTEND = 2;

const meta = (pubkey: string, isSigner: boolean, isWritable: boolean) => ({ pubkey, isSigner, isWritable });

function u64(v: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b;
}

/** A table's address and bump for `authority` and a recent slot. */
export function lookupTableAddress(authority: string, recentSlot: bigint): { address: string; bump: number } {
  const [pda, bump] = PublicKey.findProgramAddressSync([new PublicKey(authority).toBuffer(), u64(recentSlot)], new PublicKey(ADDRESS_LOOKUP_TABLE_PROGRAM));
  return { address: pda.toBase58(), bump };
}

/** `CreateLookupTable`: the table of `authority` at `recentSlot` (a slot of the node's SlotHashes), rent from `payer`. */
export function createLookupTable(authority: string, payer: string, recentSlot: bigint): { instruction: BuiltInstruction; address: string } {
  const { address, bump } = lookupTableAddress(authority, recentSlot);
  const data = Buffer.alloc(13);
  data.writeUInt32LE(CREATE, 0);
  data.writeBigUInt64LE(recentSlot, 4);
  data.writeUInt8(bump, 12);
  return {
    address,
    instruction: {
      programId: ADDRESS_LOOKUP_TABLE_PROGRAM,
      keys: [meta(address, false, true), meta(authority, true, false), meta(payer, true, true), meta(SYSTEM_PROGRAM, false, false)],
      data,
    },
  };
}

/** `ExtendLookupTable`: appends `addresses` (base58); `payer` pays the rent of the longer table. */
export function extendLookupTable(table: string, authority: string, payer: string, addresses: readonly string[]): BuiltInstruction {
  const data = Buffer.alloc(12 + 32 * addresses.length);
  data.writeUInt32LE(EXTEND, 0);
  data.writeBigUInt64LE(BigInt(addresses.length), 4);
  addresses.forEach((a, i) => Buffer.from(bs58.decode(a)).copy(data, 12 + 32 * i));
  return {
    programId: ADDRESS_LOOKUP_TABLE_PROGRAM,
    keys: [meta(table, false, true), meta(authority, true, false), meta(payer, true, true), meta(SYSTEM_PROGRAM, false, false)],
    data,
  };
}

/** A table account decoded. */
export interface LookupTableState {
  readonly deactivationSlot: bigint;
  readonly lastExtendedSlot: bigint;
  readonly lastExtendedSlotStartIndex: number;
  /** Absent: frozen. */
  readonly authority: string | undefined;
  readonly addresses: readonly string[];
}

/** Decodes a table account's data, or null when it is not an initialized table. */
export function decodeLookupTableAccount(data: Uint8Array): LookupTableState | null {
  const b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (b.length < LOOKUP_TABLE_META_SIZE || (b.length - LOOKUP_TABLE_META_SIZE) % 32 !== 0 || b.readUInt32LE(0) !== 1 || b[21]! > 1) return null;
  const addresses: string[] = [];
  for (let o = LOOKUP_TABLE_META_SIZE; o < b.length; o += 32) addresses.push(bs58.encode(b.subarray(o, o + 32)));
  return {
    deactivationSlot: b.readBigUInt64LE(4),
    lastExtendedSlot: b.readBigUInt64LE(12),
    lastExtendedSlotStartIndex: b[20]!,
    authority: b[21] === 1 ? bs58.encode(b.subarray(LOOKUP_TABLE_AUTHORITY_OFFSET, LOOKUP_TABLE_AUTHORITY_OFFSET + 32)) : undefined,
    addresses,
  };
}
