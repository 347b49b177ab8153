/**
 * The build's size step (`swap-build-service.ts`): the swap transaction in one packet, without address lookup
 * tables when it fits, else against the service's tables (`lookup-table-manager.ts`), making one for the route's
 * accounts they do not cover; and which of the route's accounts a table may hold. Rules: `engine/tx/README.md`,
 * "Size and address lookup tables".
 */
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import type { SwapMode } from '../adapters/types.js';
import type { legAmounts } from '../tx/leg-amounts.js';
import { MIN_COVERED_PER_TABLE } from '../tx/lookup-table-select.js';
import { MAX_TRANSACTION_BYTES } from '../tx/signed-transaction.js';
import { associatedTokenAddress } from '../tx/spl-instructions.js';
import { swapInstructions, type BuiltLeg, type LookupTableRef, type SwapTransaction, type SwapTransactionInput } from '../tx/swap-transaction.js';
import type { LookupTableManager } from './lookup-table-manager.js';
import type { LegState } from './swap-leg-state.js';

/** What the size step uses of the table manager. */
export type SwapBuildTables = Pick<LookupTableManager, 'load' | 'select' | 'create'>;

/** A user no build is for (a hash, no one's key): the accounts that do not depend on the user are those both users' legs name. */
const PROBE_USER = bs58.encode(createHash('sha256').update('svc-swap-build lookup table probe user').digest());

/** What the size step is given. */
export interface FitInput {
  /** Builds the transaction with a unit limit (null: none) against the tables last passed to `useTables`. */
  readonly assemble: (units: number | null) => SwapTransaction;
  readonly hops: number;
  /** The unit limit asked without a simulation. */
  readonly units: number;
  /** A priority fee is set (the limit instruction then stays). */
  readonly priced: boolean;
  readonly useTables: (tables: LookupTableRef[]) => void;
  /** The route's accounts a table may hold (computed only when tables are needed). */
  readonly candidates: () => string[];
  readonly tables: SwapBuildTables | null;
}

/** A refusal of the size step, with the build's codes. */
export interface FitRefusal {
  readonly ok: false;
  readonly code: 'TX_TOO_LARGE' | 'SERVICE_UNAVAILABLE';
  readonly message: string;
  readonly details: string;
}

const TOO_LARGE = 'The swap transaction exceeds 1232 bytes';
/** The most bytes dropping the unit limit saves: its compiled instruction (8), the Compute Budget program's key (32)
 * and a compact length byte. A transaction over the packet by more is not rebuilt without it. */
const LIMIT_INSTRUCTION_BYTES = 41;

/**
 * The transaction in one packet, in this order of preference: without tables (with the unit limit, then, without
 * a priority fee, without it: the runtime's default covers a swap and the 40-odd bytes let routes just over the
 * packet through), then against the service's tables, then against them plus a table made now for the accounts
 * they do not cover. TX_TOO_LARGE when none fits, or when tables are needed and the wallet cannot pay for one
 * (`details` says which); SERVICE_UNAVAILABLE when the node failed the table's creation.
 */
export async function fitSwapTransaction(f: FitInput): Promise<{ ok: true; units: number | null; tx: SwapTransaction } | FitRefusal> {
  const attempt = (): { units: number | null; tx: SwapTransaction } => {
    const tx = f.assemble(f.units);
    if (!tx.tooLarge || f.priced || tx.bytes - LIMIT_INSTRUCTION_BYTES > MAX_TRANSACTION_BYTES) return { units: f.units, tx };
    return { units: null, tx: f.assemble(null) };
  };
  const plain = attempt();
  if (!plain.tx.tooLarge) return { ok: true, ...plain };
  const size = `${plain.tx.bytes} bytes for ${f.hops} hop(s)`;
  const manager = f.tables;
  if (!manager) return { ok: false, code: 'TX_TOO_LARGE', message: TOO_LARGE, details: `${size}; address lookup tables are unavailable (no table wallet)` };
  await manager.load();
  const accounts = f.candidates();
  let chosen = manager.select(accounts);
  f.useTables(chosen.tables);
  let withTables = attempt();
  if (withTables.tx.tooLarge && chosen.uncovered.length >= MIN_COVERED_PER_TABLE) {
    const made = await manager.create(chosen.uncovered);
    if (!made.ok && made.reason === 'unfunded') return { ok: false, code: 'TX_TOO_LARGE', message: TOO_LARGE, details: `${size}; address lookup tables are unavailable: ${made.message}` };
    if (!made.ok) return { ok: false, code: 'SERVICE_UNAVAILABLE', message: 'The address lookup table the route needs could not be created', details: made.message };
    chosen = manager.select(accounts);
    f.useTables(chosen.tables);
    withTables = attempt();
  }
  if (withTables.tx.tooLarge) {
    const covered = accounts.length - chosen.uncovered.length;
    return {
      ok: false,
      code: 'TX_TOO_LARGE',
      message: TOO_LARGE,
      details: `${size}; ${withTables.tx.bytes} bytes with ${chosen.tables.length} address lookup table(s) covering ${covered} of its ${accounts.length} route accounts`,
    };
  }
  return { ok: true, ...withTables };
}

/**
 * User-independent accounts of a pool's swap instruction, by pool, direction and mode: the probe build costs what a
 * build costs (a PumpSwap instruction derives its PDAs: about 6 ms here). A stale entry can only miss an account
 * (the built instruction filters it), never add one derived from a user. At most 1,000 entries.
 */
const probeCache = new Map<string, ReadonlySet<string>>();
const PROBE_CACHE_LIMIT = 1000;

function independentAccounts(l: LegState, mode: SwapMode, amount: bigint, otherAmountThreshold: bigint): ReadonlySet<string> {
  const key = `${l.pool.address}:${l.aToB}:${mode}:${l.hop.inputMint}`;
  const hit = probeCache.get(key);
  if (hit) return hit;
  const programOf = (mint: string): string => l.tokenPrograms.get(mint)!;
  const probe = l.adapter.swapInstruction({
    pool: l.pool,
    accounts: l.accounts,
    user: PROBE_USER,
    userSourceTokenAccount: associatedTokenAddress(PROBE_USER, l.hop.inputMint, programOf(l.hop.inputMint)),
    userDestinationTokenAccount: associatedTokenAddress(PROBE_USER, l.hop.outputMint, programOf(l.hop.outputMint)),
    aToB: l.aToB,
    mode,
    amount,
    otherAmountThreshold,
  });
  const set = new Set(probe.keys.filter((k) => !k.isSigner).map((k) => k.pubkey));
  if (probeCache.size >= PROBE_CACHE_LIMIT) probeCache.clear();
  probeCache.set(key, set);
  return set;
}

/**
 * The accounts a lookup table may hold for this route: those the legs' instructions name whatever the user (the
 * same legs built for another user name them too: programs' accounts, pools, vaults, configs, mints, token
 * programs, sysvars), never a signer, the user, an account derived from the user, or a program the transaction
 * invokes (those must stay static). `whole` is the transaction's input (its invoked programs).
 */
export function tableCandidates(legs: readonly LegState[], built: readonly BuiltLeg[], mode: SwapMode, amounts: ReturnType<typeof legAmounts>, whole: SwapTransactionInput): string[] {
  const invoked = new Set(swapInstructions(whole).instructions.map((ix) => ix.programId));
  const out: string[] = [];
  const seen = new Set<string>();
  legs.forEach((l, i) => {
    const independent = independentAccounts(l, mode, amounts[i]!.amount, amounts[i]!.otherAmountThreshold);
    for (const k of built[i]!.instruction.keys) {
      if (k.isSigner || k.pubkey === whole.user || invoked.has(k.pubkey) || !independent.has(k.pubkey) || seen.has(k.pubkey)) continue;
      seen.add(k.pubkey);
      out.push(k.pubkey);
    }
  });
  return out;
}
