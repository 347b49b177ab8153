/**
 * The swap transaction of a build, pure: from the legs' swap instructions (each adapter's `swapInstruction`) to the
 * unsigned v0 transaction the user signs. Order: compute budget (unit limit, then price when given), idempotent
 * creation of the user's associated token accounts the legs pay into (and of the wrapped-SOL account when SOL is
 * wrapped), the wrap (transfer + `sync_native`), the legs, and the unwrap (close of the wrapped-SOL account: the
 * SOL output, and what a wrap left unspent, return to the user as lamports). The user is the fee payer and the only
 * signer. With `lookupTables` the message is compiled against those tables (every non-signer account a table holds
 * is loaded from it, invoked programs stay static); a transaction still over 1,232 bytes is `tooLarge`.
 */
import { AddressLookupTableAccount, PublicKey, TransactionInstruction, TransactionMessage, VersionedTransaction, type MessageV0 } from '@solana/web3.js';
import type { BuiltInstruction } from '../adapters/types.js';
import { WSOL_MINT } from '../catalog/tokens.js';
import { MAX_TRANSACTION_BYTES } from './signed-transaction.js';
import {
  associatedTokenAddress,
  closeAccount,
  COMPUTE_BUDGET_PROGRAM,
  computeUnitLimit,
  computeUnitPrice,
  createAtaIdempotent,
  MAX_COMPUTE_UNIT_LIMIT,
  syncNative,
  transferLamports,
} from './spl-instructions.js';

/** One leg: its built swap instruction, the mints it trades and the most input it takes. */
export interface BuiltLeg {
  readonly instruction: BuiltInstruction;
  readonly inputMint: string;
  readonly outputMint: string;
  /** ExactIn: the amount offered; ExactOut: the most input. What is wrapped for it when the previous leg pays SOL
   * as lamports and this leg takes wrapped SOL. */
  readonly maxIn: bigint;
}

/** What the transaction is built from. */
export interface SwapTransactionInput {
  /** The fee payer and signer (base58). */
  readonly user: string;
  readonly legs: readonly BuiltLeg[];
  /** The token program of every mint of the route. */
  readonly tokenPrograms: ReadonlyMap<string, string>;
  /** Wrap SOL input into, and unwrap SOL output out of, the user's wrapped-SOL account. */
  readonly wrapAndUnwrapSol: boolean;
  /** Lamports wrapped when the first leg takes wrapped SOL: ExactIn the amount offered, ExactOut the most input. */
  readonly wrapLamports: bigint;
  /** The unit limit; null: no limit instruction (the runtime's default applies: {@link runtimeDefaultUnits}). */
  readonly computeUnitLimit: number | null;
  /** Priority fee; absent or 0: no price instruction. */
  readonly computeUnitPriceMicroLamports?: bigint;
  readonly recentBlockhash: string;
  /** Address lookup tables to compile against (absent or empty: none). */
  readonly lookupTables?: readonly LookupTableRef[];
}

/** A lookup table the message may load addresses from: its address and the addresses usable now, in table order. */
export interface LookupTableRef {
  readonly address: string;
  readonly addresses: readonly string[];
}

/** The built transaction. */
export interface SwapTransaction {
  /** The unsigned transaction's wire bytes (signature slot zeroed); empty when `tooLarge` stopped the message. */
  readonly transaction: Uint8Array;
  /** The message bytes the user signs (and the attestation hashes). */
  readonly messageBytes: Uint8Array;
  /** True when `transaction` is over {@link MAX_TRANSACTION_BYTES}. */
  readonly tooLarge: boolean;
  /** The transaction's size in bytes (computed from the compiled message when it is too large to serialize). */
  readonly bytes: number;
  /** Instructions other than the compute budget's (what the runtime's default unit limit counts). */
  readonly workInstructions: number;
  /** Whether SOL is wrapped before the legs and the wrapped-SOL account closed after them. */
  readonly wraps: boolean;
  readonly unwraps: boolean;
  /** The tables the message loads addresses from (those of `lookupTables` it uses). */
  readonly lookupTablesUsed: readonly string[];
}

const named = (ix: BuiltInstruction, account: string): boolean => ix.keys.some((k) => k.pubkey === account);

/** The instructions of the swap transaction, in order (see the file comment). */
export function swapInstructions(input: SwapTransactionInput): { instructions: BuiltInstruction[]; wraps: boolean; unwraps: boolean } {
  const { user, legs } = input;
  const programOf = (mint: string): string => {
    const p = input.tokenPrograms.get(mint);
    if (!p) throw new Error(`no token program for mint ${mint}`);
    return p;
  };
  const ataOf = (mint: string): string => associatedTokenAddress(user, mint, programOf(mint));
  const first = legs[0]!;
  const last = legs.at(-1)!;
  // Why "named": a leg whose SOL side moves the user's lamports (a pump.fun curve) does not name the wrapped-SOL
  // account; nothing is wrapped for it, nor unwrapped after it.
  const wraps = input.wrapAndUnwrapSol && first.inputMint === WSOL_MINT && named(first.instruction, ataOf(WSOL_MINT));
  const unwraps = input.wrapAndUnwrapSol && (wraps || (last.outputMint === WSOL_MINT && named(last.instruction, ataOf(WSOL_MINT))));
  const out: BuiltInstruction[] = input.computeUnitLimit === null ? [] : [computeUnitLimit(input.computeUnitLimit)];
  if (input.computeUnitPriceMicroLamports) out.push(computeUnitPrice(input.computeUnitPriceMicroLamports));
  const created = new Set<string>();
  const create = (mint: string): void => {
    if (created.has(mint)) return;
    created.add(mint);
    out.push(createAtaIdempotent(user, user, mint, programOf(mint)));
  };
  if (wraps) create(WSOL_MINT);
  // Every account a leg pays into, and the intermediate accounts a later leg takes from (not the route's input).
  legs.forEach((leg, i) => {
    if (i > 0 && named(leg.instruction, ataOf(leg.inputMint))) create(leg.inputMint);
    if (named(leg.instruction, ataOf(leg.outputMint))) create(leg.outputMint);
  });
  if (wraps) {
    const wsol = ataOf(WSOL_MINT);
    out.push(transferLamports(user, wsol, input.wrapLamports), syncNative(wsol, programOf(WSOL_MINT)));
  }
  let closedMidway = false;
  legs.forEach((leg, i) => {
    out.push(leg.instruction);
    const next = legs[i + 1];
    if (!next || leg.outputMint !== WSOL_MINT) return;
    // SOL in the middle of the route, paid and taken in different forms: converted between the two legs.
    const wsol = ataOf(WSOL_MINT);
    const paysNative = !named(leg.instruction, wsol);
    const takesNative = !named(next.instruction, wsol);
    if (paysNative && !takesNative) out.push(transferLamports(user, wsol, next.maxIn), syncNative(wsol, programOf(WSOL_MINT)));
    if (!paysNative && takesNative) {
      out.push(closeAccount(wsol, user, user, programOf(WSOL_MINT)));
      closedMidway = true;
    }
  });
  if (unwraps && !closedMidway) out.push(closeAccount(ataOf(WSOL_MINT), user, user, programOf(WSOL_MINT)));
  return { instructions: out, wraps, unwraps };
}

/** Builds the unsigned v0 transaction (the user pays the fee). */
export function buildSwapTransaction(input: SwapTransactionInput): SwapTransaction {
  const { instructions, wraps, unwraps } = swapInstructions(input);
  const workInstructions = instructions.filter((ix) => ix.programId !== COMPUTE_BUDGET_PROGRAM).length;
  const message = new TransactionMessage({
    payerKey: new PublicKey(input.user),
    recentBlockhash: input.recentBlockhash,
    instructions: instructions.map(
      (ix) =>
        new TransactionInstruction({
          programId: new PublicKey(ix.programId),
          keys: ix.keys.map((k) => ({ pubkey: new PublicKey(k.pubkey), isSigner: k.isSigner, isWritable: k.isWritable })),
          data: Buffer.from(ix.data),
        }),
    ),
  }).compileToV0Message(
    (input.lookupTables ?? []).map(
      (t) =>
        new AddressLookupTableAccount({
          key: new PublicKey(t.address),
          state: { deactivationSlot: 0xffff_ffff_ffff_ffffn, lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0, addresses: t.addresses.map((a) => new PublicKey(a)) },
        }),
    ),
  );
  const lookupTablesUsed = message.addressTableLookups.map((l) => l.accountKey.toBase58());
  let messageBytes: Uint8Array;
  try {
    messageBytes = message.serialize();
  } catch (e) {
    // Why: web3.js serializes a message into a 1,232-byte buffer and throws a RangeError past it.
    if (e instanceof RangeError) {
      return { transaction: new Uint8Array(0), messageBytes: new Uint8Array(0), tooLarge: true, bytes: wireSize(message), workInstructions, wraps, unwraps, lookupTablesUsed };
    }
    throw e;
  }
  const transaction = new VersionedTransaction(message).serialize();
  return { transaction, messageBytes, tooLarge: transaction.length > MAX_TRANSACTION_BYTES, bytes: transaction.length, workInstructions, wraps, unwraps, lookupTablesUsed };
}

/** Units the runtime grants per instruction when the transaction sets no limit. */
export const DEFAULT_UNITS_PER_INSTRUCTION = 200_000;

/**
 * The runtime's unit limit of a transaction without a limit instruction: 200,000 per instruction other than the
 * compute budget's, at most 1,400,000 (an upper figure: newer runtimes grant builtin programs, the System program
 * among them, less).
 */
export function runtimeDefaultUnits(workInstructions: number): number {
  return Math.min(MAX_COMPUTE_UNIT_LIMIT, DEFAULT_UNITS_PER_INSTRUCTION * workInstructions);
}

/** Bytes of a compact-u16 length. */
const compactLen = (n: number): number => (n < 0x80 ? 1 : n < 0x4000 ? 2 : 3);

/** Wire size of a one-signature transaction of `message` (lookups included), without serializing it. */
export function wireSize(message: MessageV0): number {
  const ixs = message.compiledInstructions.reduce((n, ix) => n + 1 + compactLen(ix.accountKeyIndexes.length) + ix.accountKeyIndexes.length + compactLen(ix.data.length) + ix.data.length, 0);
  const keys = message.staticAccountKeys.length;
  const lookups = message.addressTableLookups.reduce(
    (n, l) => n + 32 + compactLen(l.writableIndexes.length) + l.writableIndexes.length + compactLen(l.readonlyIndexes.length) + l.readonlyIndexes.length,
    0,
  );
  return 1 + 64 + 1 + 3 + compactLen(keys) + 32 * keys + 32 + compactLen(message.compiledInstructions.length) + ixs + compactLen(message.addressTableLookups.length) + lookups;
}
