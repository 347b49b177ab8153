/**
 * The transactions that make one lookup table, signed by the service's table wallet (authority and payer): the
 * first creates the table and extends it with as many addresses as fit one packet; each next one extends it with as
 * many more as fit. Pure: the caller sends them in order, each after the previous one landed.
 */
import { PublicKey, TransactionInstruction, TransactionMessage, VersionedTransaction, type Keypair } from '@solana/web3.js';
import type { BuiltInstruction } from '../adapters/types.js';
import { createLookupTable, extendLookupTable, LOOKUP_TABLE_MAX_ADDRESSES } from './lookup-table-layout.js';
import { MAX_TRANSACTION_BYTES } from './signed-transaction.js';

/** A table's creation: its address and the signed transactions, in sending order. */
export interface TableCreation {
  readonly address: string;
  readonly transactions: readonly VersionedTransaction[];
}

const toWeb3 = (ix: BuiltInstruction): TransactionInstruction =>
  new TransactionInstruction({
    programId: new PublicKey(ix.programId),
    keys: ix.keys.map((k) => ({ pubkey: new PublicKey(k.pubkey), isSigner: k.isSigner, isWritable: k.isWritable })),
    data: Buffer.from(ix.data),
  });

/** Signed v0 transaction of `ixs`, or null when it does not fit one packet. */
function signedIfFits(wallet: Keypair, blockhash: string, ixs: readonly BuiltInstruction[]): VersionedTransaction | null {
  const message = new TransactionMessage({ payerKey: wallet.publicKey, recentBlockhash: blockhash, instructions: ixs.map(toWeb3) }).compileToV0Message();
  let tx: VersionedTransaction;
  try {
    tx = new VersionedTransaction(message);
    if (tx.serialize().length > MAX_TRANSACTION_BYTES) return null;
  } catch (e) {
    if (e instanceof RangeError) return null;
    throw e;
  }
  tx.sign([wallet]);
  return tx;
}

/** The most addresses (at least one) that `make(n)` fits into one packet, and its transaction. */
function largestFitting(make: (n: number) => VersionedTransaction | null, max: number): { n: number; tx: VersionedTransaction } {
  for (let n = max; n >= 1; n--) {
    const tx = make(n);
    if (tx) return { n, tx };
  }
  throw new Error('not even one address fits a lookup table transaction');
}

/**
 * The creation of a table of `addresses` (at most 256) for `wallet` at `recentSlot` (a slot the node's SlotHashes
 * holds: an earlier slot than the one the transaction lands in, within 512).
 */
export function tableCreationTransactions(wallet: Keypair, recentSlot: bigint, addresses: readonly string[], blockhash: string): TableCreation {
  if (addresses.length === 0 || addresses.length > LOOKUP_TABLE_MAX_ADDRESSES) throw new RangeError(`a table holds 1..256 addresses, got ${addresses.length}`);
  const authority = wallet.publicKey.toBase58();
  const create = createLookupTable(authority, authority, recentSlot);
  const extend = (list: readonly string[]): BuiltInstruction => extendLookupTable(create.address, authority, authority, list);
  const transactions: VersionedTransaction[] = [];
  const first = largestFitting((n) => signedIfFits(wallet, blockhash, [create.instruction, extend(addresses.slice(0, n))]), addresses.length);
  transactions.push(first.tx);
  for (let at = first.n; at < addresses.length; ) {
    const rest = addresses.slice(at);
    const next = largestFitting((n) => signedIfFits(wallet, blockhash, [extend(rest.slice(0, n))]), rest.length);
    transactions.push(next.tx);
    at += next.n;
  }
  return { address: create.address, transactions };
}
