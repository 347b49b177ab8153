/**
 * The DEX adapter contract, shaped after Jupiter's `Amm` trait: state comes in through decoded accounts,
 * `quote` is pure, no network anywhere in an adapter. One implementation per DEX folder.
 */
import type { DexId } from '../dex-ids.js';
import type { ChainClock, RecordF64, RecordFields } from '../slab/record-fields.js';

// The record image and the chain clock belong to the slab (a leaf below the adapters); re-exported for adapters.
export { PARAM_F64_WORDS, PARAM_U64_WORDS } from '../slab/record-fields.js';
export type { ChainClock, RecordExt, RecordF64, RecordFields } from '../slab/record-fields.js';

/** A program-account filter, usable both for `getProgramAccounts` and for a Yellowstone account filter. */
export interface ProgramFilter {
  /** Name of the Geyser filter (also used in logs). */
  readonly name: string;
  readonly dataSize?: number;
  readonly memcmp?: readonly { readonly offset: number; readonly bytes: Uint8Array }[];
}

/** What decoding a pool account tells: its mints and the other accounts its state depends on. */
export interface PoolDescriptor {
  readonly address: string;
  readonly dex: DexId;
  readonly programId: string;
  /** Token A / B mints in the program's own order (token_0 / token_1 for CPMM). */
  readonly mintA: string;
  readonly mintB: string;
  /** Decimals of the mints; {@link UNKNOWN_DECIMALS} when neither the pool's accounts nor `mintDecimals` tell
   * them: ingest then reads the mint accounts and decodes the pool again. */
  readonly decimalsA: number;
  readonly decimalsB: number;
  /** Accounts (base58) whose updates change this pool's quotable state: vaults, configs, sysvars. */
  readonly dependencies: readonly string[];
}

/** An account a pool's description needs, with its owner program (see `DexAdapter.descriptorInputs`). */
export interface DescriptorInput {
  readonly owner: string;
  readonly data: Uint8Array;
}

/** `PoolDescriptor` decimals of a mint the adapter cannot tell (ingest reads the mint account). */
export const UNKNOWN_DECIMALS = -1;

/** Exact-in or exact-out, as in the quote API. */
export type SwapMode = 'ExactIn' | 'ExactOut';

/**
 * Outcome of an exact quote; expected failures are statuses, never exceptions. Any status but OK is no route
 * (`engine/router/route-confirm.ts`).
 * - `DEPTH_UNKNOWN`: the swap would walk into variable-size state (a tick array, a bin array) that the service does
 *   not hold for this pool (not yet subscribed, or beyond what it watches): the quote stops there rather than walk
 *   past liquidity it cannot see. Not a statement that the pool lacks liquidity.
 */
export type QuoteStatus = 'OK' | 'ZERO_AMOUNT' | 'INSUFFICIENT_LIQUIDITY' | 'INACTIVE' | 'DEPTH_UNKNOWN';

/** Result of an exact quote, all amounts in atomic units. */
export interface QuoteResult {
  readonly status: QuoteStatus;
  /** Input the user pays (exact-in: the amount given, or what the program actually takes where it charges only
   * what the output costs, as pump.fun's `buy_exact_sol_in`; exact-out: the amount required). */
  readonly inAmount: bigint;
  /** Output the user receives. */
  readonly outAmount: bigint;
  /** Total fee charged by the pool (trade fee plus creator fee), in `feeOnInput ? input : output` token. */
  readonly feeAmount: bigint;
  readonly feeOnInput: boolean;
}

/** One account write produced by `execute`. */
export interface AccountWrite {
  readonly address: string;
  readonly data: Uint8Array;
}

/** Input and result of the state transition the localnet applies for a swap of this DEX. */
export interface ExecuteResult {
  readonly quote: QuoteResult;
  /** New data of every account the swap changed (pool, vaults), empty unless status is OK. */
  readonly writes: readonly AccountWrite[];
}

/** Account meta of a built instruction. */
export interface InstructionAccount {
  readonly pubkey: string;
  readonly isSigner: boolean;
  readonly isWritable: boolean;
}

/** A built instruction: program, account metas and data, ready for a transaction. */
export interface BuiltInstruction {
  readonly programId: string;
  readonly keys: readonly InstructionAccount[];
  readonly data: Uint8Array;
}

/** What the swap builder supplies to `swapInstruction`. */
export interface SwapInstructionParams {
  readonly pool: PoolDescriptor;
  /** The pool account data and its dependencies (some instructions need fields such as the config). */
  readonly accounts: ReadonlyMap<string, Uint8Array>;
  readonly user: string;
  readonly userSourceTokenAccount: string;
  readonly userDestinationTokenAccount: string;
  readonly aToB: boolean;
  readonly mode: SwapMode;
  /** Exact-in: amount in; exact-out: amount out. */
  readonly amount: bigint;
  /** Exact-in: minimum out; exact-out: maximum in. */
  readonly otherAmountThreshold: bigint;
}

/**
 * One DEX. `S` is the adapter's decoded, quotable state. Every method is pure and synchronous.
 */
export interface DexAdapter<S = unknown> {
  readonly dex: DexId;
  readonly programId: string;
  /**
   * Capability: ExactOut quotes are exact in both directions (the program has an exact-out swap each way). The
   * route search never uses a leg that cannot quote ExactOut exactly in an ExactOut route. Absent: false (read the
   * flags through `capabilities.ts`, which applies the defaults).
   */
  readonly exactOut?: boolean;
  /** Capability: ExactOut is exact for B -> A (`aToB` false, a bonding curve's buy) although not A -> B. Absent: false. */
  readonly exactOutBToA?: boolean;
  /**
   * Capability: the most accounts `swapInstruction` references, over every variant it builds (direction, mode,
   * pool flags); each adapter's test builds the instructions and holds the count. Absent: 64 (`capabilities.ts`).
   */
  readonly accountsPerSwap?: number;
  /** Capability: the swap's accounts depend on changing pool state (tick arrays, bins). Absent: false. */
  readonly dynamicAccounts?: boolean;
  /** Capability: the pool trades one way only, A -> B (the route search offers no B -> A leg). Absent: false. */
  readonly unidirectional?: boolean;
  /** Filters that discover this DEX's pool accounts (by program owner). */
  readonly poolFilters: readonly ProgramFilter[];
  /** Filters for other program-owned accounts the pools depend on (configs), subscribed by owner. */
  readonly auxFilters: readonly ProgramFilter[];
  /**
   * Vault authorities: owners (the SPL token account's `owner` field, offset 32) that the vaults of every pool of
   * this DEX share, such as the program's one vault authority PDA. Ingest streams the token accounts (Token and
   * Token-2022) of each authority through one filter and does not list those vaults by address; a dependency is
   * taken as streamed only once its data shows that owner. Absent: every dependency is watched by address.
   * A function so that the PDAs are derived on first use, not at import.
   */
  vaultAuthorities?(): readonly string[];
  /** True when `data` (owned by `programId`) is a pool account of this DEX. */
  isPool(data: Uint8Array): boolean;
  /**
   * Accounts `decodePool` needs besides the pool account to describe the pool (a DBC pool's mints and decimals
   * are in its config). Ingest fetches them first and passes them in `inputs`. Absent: none.
   */
  descriptorInputs?(data: Uint8Array): readonly string[];
  /**
   * True when the pool account does not name its mints (a pump.fun bonding curve, a PDA of its mint): ingest
   * reads the token accounts the pool owns (`getTokenAccountsByOwner`) and passes them in `inputs`.
   */
  readonly describedByOwnedTokenAccounts?: boolean;
  /**
   * Decodes a pool account; `mintDecimals` supplies decimals the pool account does not carry (from the mint table
   * or mint accounts ingest has read), `inputs` the accounts named by `descriptorInputs`. Null if not a pool.
   */
  decodePool(
    address: string,
    data: Uint8Array,
    mintDecimals?: (mint: string) => number | undefined,
    inputs?: ReadonlyMap<string, DescriptorInput>,
  ): PoolDescriptor | null;
  /**
   * Builds the quotable state from the pool account and its dependencies (keyed by address), as of one slot.
   * Null while a dependency is missing.
   */
  buildState(pool: PoolDescriptor, poolData: Uint8Array, deps: ReadonlyMap<string, Uint8Array>, clock: ChainClock): S | null;
  /** Writes the state into a slab record image. */
  toRecord(state: S, out: RecordFields): void;
  /** Reads the state back from a slab record image (exact path). */
  fromRecord(rec: Readonly<RecordFields>): S;
  /**
   * The reserve of token A (`sideA`) or B of the constant-product pool with this pool's marginal price and depth,
   * in atoms: what the price layer weighs pools by and filters dust with. Absent: the record's reserves. Bonding
   * curves answer their virtual reserves (a fresh curve has no real quote reserve yet, but real depth).
   */
  effectiveReserve?(rec: RecordF64, sideA: boolean): number;
  /** Output atoms per input atom for an infinitesimal input, after every fee; 0 when not tradable. */
  marginalRate(rec: RecordF64, aToB: boolean): number;
  /** Float estimate of exact-in output, for ranking. */
  estimateOut(rec: RecordF64, aToB: boolean, amountIn: number): number;
  /** Exact quote with the program's rounding. */
  quote(state: S, aToB: boolean, amount: bigint, mode: SwapMode): QuoteResult;
  /**
   * True while the state's quote depends on the chain clock (fee schedulers, open or activation times): ingest
   * then rebuilds the pool on every Clock sysvar update. Absent means never (pools that cannot trade are always
   * rebuilt on clock updates anyway).
   */
  clockSensitive?(state: S): boolean;
  /**
   * The pool's watched accounts (its address and dependencies) that one swap writes together, when more than one:
   * ingest holds a pool whose transaction has brought only some of them (the rest still on the wire) rather than
   * show it half-swapped. Absent: a swap writes one watched account, or the DEX gives no such guarantee.
   */
  swapWrites?(desc: PoolDescriptor): readonly string[];
  /** Fee of the pool in basis points as shown in the API (trade fee plus input-side creator fee). */
  feeBps(rec: RecordF64): number;
  /** The swap instruction exactly as the program expects. */
  swapInstruction(params: SwapInstructionParams): BuiltInstruction;
  /**
   * The program's state transition for a swap, on the pool's accounts (pool data and its dependencies,
   * keyed by address). Returns the new data of the accounts it changes.
   */
  execute(
    pool: PoolDescriptor,
    accounts: ReadonlyMap<string, Uint8Array>,
    aToB: boolean,
    amount: bigint,
    mode: SwapMode,
    clock: ChainClock,
  ): ExecuteResult;
}
