/**
 * The bundle's tip (`POST /v1/swap`): the caller's transaction carries none, so the bundle gets a second
 * transaction, signed by the service's tip wallet: a SOL transfer to one of the block engine's tip accounts, and a
 * Memo v1 naming the caller's signature. Why the memo: without it two callers' bundles with one blockhash would
 * carry the same tip transaction (one signature), and the engine refuses a transaction it has seen. Everything is
 * derived from the caller's transaction (its blockhash, so both expire together; the tip account picked from its
 * signature): the same caller's transaction always yields the same tip transaction, hence the same bundle id.
 */
import { PublicKey, SystemProgram, TransactionInstruction, TransactionMessage, VersionedTransaction, type Keypair } from '@solana/web3.js';

/** The SPL Memo v1 program (validates UTF-8, logs nothing, a few hundred compute units). */
export const MEMO_V1_PROGRAM_ID = new PublicKey('Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo');

/** Jito's least tip per bundle, in lamports. */
export const MIN_BUNDLE_TIP_LAMPORTS = 1000n;

/** The tip account of a caller's transaction: picked from its signature (spreads bundles across the accounts). */
export function tipAccountFor(tipAccounts: readonly string[], signature: Uint8Array): string {
  if (tipAccounts.length === 0) throw new Error('no tip accounts');
  const n = ((signature[0]! << 24) | (signature[1]! << 16) | (signature[2]! << 8) | signature[3]!) >>> 0;
  return tipAccounts[n % tipAccounts.length]!;
}

/** What a tip transaction is made of. */
export interface TipTransactionInput {
  /** The tip wallet: fee payer and sender. */
  readonly payer: Keypair;
  readonly tipAccount: string;
  readonly lamports: bigint;
  /** The caller's transaction's recent blockhash. */
  readonly recentBlockhash: string;
  /** The caller's transaction's signature (base58), named in the memo. */
  readonly forSignature: string;
}

/** Builds and signs the tip transaction. */
export function buildTipTransaction(input: TipTransactionInput): VersionedTransaction {
  const payerKey = input.payer.publicKey;
  const message = new TransactionMessage({
    payerKey,
    recentBlockhash: input.recentBlockhash,
    instructions: [
      SystemProgram.transfer({ fromPubkey: payerKey, toPubkey: new PublicKey(input.tipAccount), lamports: input.lamports }),
      new TransactionInstruction({ programId: MEMO_V1_PROGRAM_ID, keys: [], data: Buffer.from(`tip ${input.forSignature}`, 'utf8') }),
    ],
  }).compileToV0Message();
  const tx = new VersionedTransaction(message);
  tx.sign([input.payer]);
  return tx;
}
