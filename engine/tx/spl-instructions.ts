/**
 * The few system, SPL Token and Associated Token Account instructions a swap transaction wraps its legs in, built
 * from their documented layouts (the product does not depend on @solana/spl-token, a test-only package): the
 * associated token address, idempotent ATA creation, SOL transfer, `sync_native`, `close_account`, and the compute
 * budget's unit limit and price.
 */
import { ComputeBudgetProgram, PublicKey, SystemProgram } from '@solana/web3.js';
import type { BuiltInstruction } from '../adapters/types.js';

/** The Associated Token Account program. */
export const ASSOCIATED_TOKEN_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
/** The System program. */
export const SYSTEM_PROGRAM = '11111111111111111111111111111111';
/** The Compute Budget program. */
export const COMPUTE_BUDGET_PROGRAM = ComputeBudgetProgram.programId.toBase58();
/** The most compute units one transaction may ask for. */
export const MAX_COMPUTE_UNIT_LIMIT = 1_400_000;

/** SPL Token instruction tags (`TokenInstruction`, shared by Token-2022). */
const CLOSE_ACCOUNT = 9;
const SYNC_NATIVE = 17;
/** Associated Token Account instruction tag `CreateIdempotent`. */
const ATA_CREATE_IDEMPOTENT = 1;

const meta = (pubkey: string, isSigner: boolean, isWritable: boolean) => ({ pubkey, isSigner, isWritable });

/** Derived addresses kept (a build derives the same few many times: 0.65 ms each with web3.js here). */
const ATA_CACHE_LIMIT = 10_000;
const ataCache = new Map<string, string>();

/** `owner`'s associated token account of `mint` under `tokenProgram` (base58); remembered (at most 10,000). */
export function associatedTokenAddress(owner: string, mint: string, tokenProgram: string): string {
  const key = `${owner}:${mint}:${tokenProgram}`;
  const hit = ataCache.get(key);
  if (hit !== undefined) return hit;
  const address = PublicKey.findProgramAddressSync(
    [new PublicKey(owner).toBuffer(), new PublicKey(tokenProgram).toBuffer(), new PublicKey(mint).toBuffer()],
    new PublicKey(ASSOCIATED_TOKEN_PROGRAM),
  )[0].toBase58();
  if (ataCache.size >= ATA_CACHE_LIMIT) ataCache.clear();
  ataCache.set(key, address);
  return address;
}

/** Creates `owner`'s associated token account of `mint` unless it exists (`payer` funds the rent). */
export function createAtaIdempotent(payer: string, owner: string, mint: string, tokenProgram: string): BuiltInstruction {
  return {
    programId: ASSOCIATED_TOKEN_PROGRAM,
    keys: [
      meta(payer, true, true),
      meta(associatedTokenAddress(owner, mint, tokenProgram), false, true),
      meta(owner, false, false),
      meta(mint, false, false),
      meta(SYSTEM_PROGRAM, false, false),
      meta(tokenProgram, false, false),
    ],
    data: Uint8Array.of(ATA_CREATE_IDEMPOTENT),
  };
}

/** Moves `lamports` from `from` to `to` (System program transfer). */
export function transferLamports(from: string, to: string, lamports: bigint): BuiltInstruction {
  return fromWeb3(SystemProgram.transfer({ fromPubkey: new PublicKey(from), toPubkey: new PublicKey(to), lamports }));
}

/** Sets a wrapped-SOL account's token amount to its lamports above rent (`sync_native`). */
export function syncNative(account: string, tokenProgram: string): BuiltInstruction {
  return { programId: tokenProgram, keys: [meta(account, false, true)], data: Uint8Array.of(SYNC_NATIVE) };
}

/** Closes `account` (its lamports, wrapped SOL included, go to `destination`); `owner` signs. */
export function closeAccount(account: string, destination: string, owner: string, tokenProgram: string): BuiltInstruction {
  return { programId: tokenProgram, keys: [meta(account, false, true), meta(destination, false, true), meta(owner, true, false)], data: Uint8Array.of(CLOSE_ACCOUNT) };
}

/** The compute budget's unit limit. */
export function computeUnitLimit(units: number): BuiltInstruction {
  return fromWeb3(ComputeBudgetProgram.setComputeUnitLimit({ units }));
}

/** The compute budget's unit price (micro-lamports per unit: the priority fee). */
export function computeUnitPrice(microLamports: bigint): BuiltInstruction {
  return fromWeb3(ComputeBudgetProgram.setComputeUnitPrice({ microLamports }));
}

function fromWeb3(ix: { programId: PublicKey; keys: { pubkey: PublicKey; isSigner: boolean; isWritable: boolean }[]; data: Buffer }): BuiltInstruction {
  return { programId: ix.programId.toBase58(), keys: ix.keys.map((k) => meta(k.pubkey.toBase58(), k.isSigner, k.isWritable)), data: new Uint8Array(ix.data) };
}
