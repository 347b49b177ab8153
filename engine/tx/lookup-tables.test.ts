import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  AddressLookupTableAccount,
  AddressLookupTableInstruction,
  AddressLookupTableProgram,
  Keypair,
  PublicKey,
  TransactionMessage,
  VersionedTransaction,
  type TransactionInstruction,
} from '@solana/web3.js';
import { TOKEN_PROGRAM_ID } from '../adapters/common/spl-layouts.js';
import type { BuiltInstruction } from '../adapters/types.js';
import { USDC_MINT, WSOL_MINT } from '../catalog/tokens.js';
import { messageHash } from './attestation-signer.js';
import { createLookupTable, decodeLookupTableAccount, extendLookupTable, LOOKUP_TABLE_AUTHORITY_OFFSET, lookupTableAddress } from './lookup-table-layout.js';
import { selectLookupTables } from './lookup-table-select.js';
import { tableCreationTransactions } from './lookup-table-transactions.js';
import { buildSwapTransaction, wireSize, type BuiltLeg, type LookupTableRef } from './swap-transaction.js';

const key = (): string => Keypair.generate().publicKey.toBase58();
const keys = (n: number): string[] => Array.from({ length: n }, key);
const same = (ix: BuiltInstruction, w: TransactionInstruction): void => {
  assert.equal(ix.programId, w.programId.toBase58());
  assert.deepEqual(ix.keys, w.keys.map((k) => ({ pubkey: k.pubkey.toBase58(), isSigner: k.isSigner, isWritable: k.isWritable })));
  assert.deepEqual(Buffer.from(ix.data), Buffer.from(w.data));
};

test('CreateLookupTable and ExtendLookupTable are the bytes and accounts web3.js builds', () => {
  const [authority, payer] = [key(), key()];
  for (const slot of [0n, 1n, 312_345_678n, 2n ** 63n]) {
    const mine = createLookupTable(authority, payer, slot);
    const [theirs, address] = AddressLookupTableProgram.createLookupTable({ authority: new PublicKey(authority), payer: new PublicKey(payer), recentSlot: slot });
    same(mine.instruction, theirs);
    assert.equal(mine.address, address.toBase58());
    assert.equal(lookupTableAddress(authority, slot).address, address.toBase58());
  }
  const table = key();
  const addresses = keys(5);
  same(
    extendLookupTable(table, authority, payer, addresses),
    AddressLookupTableProgram.extendLookupTable({ lookupTable: new PublicKey(table), authority: new PublicKey(authority), payer: new PublicKey(payer), addresses: addresses.map((a) => new PublicKey(a)) }),
  );
});

test('a table account decodes as web3.js deserializes it; the authority sits at offset 22', () => {
  const authority = key();
  const addresses = keys(3);
  const data = Buffer.alloc(56 + 96);
  data.writeUInt32LE(1, 0);
  data.writeBigUInt64LE(2n ** 64n - 1n, 4);
  data.writeBigUInt64LE(4242n, 12);
  data[20] = 2;
  data[21] = 1;
  new PublicKey(authority).toBuffer().copy(data, LOOKUP_TABLE_AUTHORITY_OFFSET);
  addresses.forEach((a, i) => new PublicKey(a).toBuffer().copy(data, 56 + 32 * i));
  const mine = decodeLookupTableAccount(data)!;
  const theirs = AddressLookupTableAccount.deserialize(data);
  assert.equal(mine.authority, theirs.authority?.toBase58());
  assert.equal(mine.deactivationSlot, theirs.deactivationSlot);
  assert.equal(mine.lastExtendedSlot, BigInt(theirs.lastExtendedSlot));
  assert.equal(mine.lastExtendedSlotStartIndex, theirs.lastExtendedSlotStartIndex);
  assert.deepEqual(mine.addresses, theirs.addresses.map((a) => a.toBase58()));
  assert.equal(decodeLookupTableAccount(data.subarray(0, 60)), null, 'a partial address');
  assert.equal(decodeLookupTableAccount(new Uint8Array(56)), null, 'uninitialized');
});

test('the creation: create plus as many extends as fit a packet per transaction, every address once, in order', () => {
  const wallet = Keypair.generate();
  const addresses = keys(70);
  const c = tableCreationTransactions(wallet, 99n, addresses, key());
  assert.ok(c.transactions.length >= 3);
  const appended: string[] = [];
  c.transactions.forEach((tx, i) => {
    assert.ok(tx.serialize().length <= 1232);
    assert.ok(tx.serialize().length > 1232 - 32 || i === c.transactions.length - 1, 'full but the last');
    const m = TransactionMessage.decompile(tx.message);
    assert.equal(m.payerKey.toBase58(), wallet.publicKey.toBase58());
    const types = m.instructions.map((ix) => AddressLookupTableInstruction.decodeInstructionType(ix));
    assert.deepEqual(types, i === 0 ? ['CreateLookupTable', 'ExtendLookupTable'] : ['ExtendLookupTable']);
    const extend = m.instructions.at(-1)!;
    assert.equal(extend.keys[0]!.pubkey.toBase58(), c.address);
    const n = Number(extend.data.readBigUInt64LE(4));
    for (let k = 0; k < n; k++) appended.push(new PublicKey(extend.data.subarray(12 + 32 * k, 44 + 32 * k)).toBase58());
  });
  assert.deepEqual(appended, addresses);
  assert.equal(c.address, lookupTableAddress(wallet.publicKey.toBase58(), 99n).address);
});

test('table selection: most covered first, only tables covering two or more, the rest uncovered in order', () => {
  const a = keys(10);
  const t1: LookupTableRef = { address: key(), addresses: [a[0]!, a[1]!, a[2]!] };
  const t2: LookupTableRef = { address: key(), addresses: [a[2]!, a[3]!, a[4]!, a[5]!, ...keys(20)] };
  const t3: LookupTableRef = { address: key(), addresses: [a[6]!, ...keys(5)] };
  const s = selectLookupTables(a, [t1, t2, t3]);
  assert.deepEqual(s.tables.map((t) => t.address), [t2.address, t1.address]);
  assert.deepEqual(s.uncovered, a.slice(6));
  assert.deepEqual(selectLookupTables(a, []), { tables: [], uncovered: a });
});

test('a swap over one packet compiles against a table: it fits, decompiles to the same instructions, and the hash covers the lookups', () => {
  const user = Keypair.generate().publicKey.toBase58();
  const program = key();
  const route = keys(40);
  const leg: BuiltLeg = {
    inputMint: USDC_MINT,
    outputMint: WSOL_MINT,
    maxIn: 1n,
    instruction: { programId: program, keys: [{ pubkey: user, isSigner: true, isWritable: true }, ...route.map((pubkey, i) => ({ pubkey, isSigner: false, isWritable: i % 2 === 0 }))], data: Uint8Array.of(7) },
  };
  const base = {
    user,
    legs: [leg],
    tokenPrograms: new Map([[USDC_MINT, TOKEN_PROGRAM_ID], [WSOL_MINT, TOKEN_PROGRAM_ID]]),
    wrapAndUnwrapSol: false,
    wrapLamports: 0n,
    computeUnitLimit: 300_000,
    recentBlockhash: key(),
  };
  const plain = buildSwapTransaction(base);
  assert.ok(plain.tooLarge);
  // The table also holds the user and the invoked program: neither may be loaded from it.
  const table: LookupTableRef = { address: key(), addresses: [...keys(3), ...route, user, program] };
  const tx = buildSwapTransaction({ ...base, lookupTables: [table] });
  assert.equal(tx.tooLarge, false);
  assert.deepEqual(tx.lookupTablesUsed, [table.address]);
  const v = VersionedTransaction.deserialize(tx.transaction);
  assert.equal(v.serialize().length, tx.bytes);
  assert.equal(wireSize(v.message as never), tx.bytes, 'wireSize counts the lookups');
  const static_ = v.message.staticAccountKeys.map((k) => k.toBase58());
  assert.equal(static_[0], user);
  assert.ok(static_.includes(program));
  assert.ok(!route.some((r) => static_.includes(r)), 'every route account comes from the table');
  const lookups = v.message.addressTableLookups;
  assert.equal(lookups.length, 1);
  assert.equal(lookups[0]!.writableIndexes.length, 20);
  assert.equal(lookups[0]!.readonlyIndexes.length, 20);
  const account = new AddressLookupTableAccount({
    key: new PublicKey(table.address),
    state: { deactivationSlot: 2n ** 64n - 1n, lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0, addresses: table.addresses.map((x) => new PublicKey(x)) },
  });
  const back = TransactionMessage.decompile(v.message, { addressLookupTableAccounts: [account] });
  const ix = back.instructions.find((i) => i.programId.toBase58() === program)!;
  assert.deepEqual(
    ix.keys.map((k) => [k.pubkey.toBase58(), k.isSigner, k.isWritable]),
    leg.instruction.keys.map((k) => [k.pubkey, k.isSigner, k.isWritable]),
  );
  assert.deepEqual(Buffer.from(tx.messageBytes), Buffer.from(v.message.serialize()));
  // The attested hash changes with the lookups: the same swap against another table is another message.
  const other = buildSwapTransaction({ ...base, lookupTables: [{ ...table, address: key() }] });
  assert.notDeepEqual(messageHash(other.messageBytes), messageHash(tx.messageBytes));
});
