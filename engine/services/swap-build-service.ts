/**
 * `POST /v1/swap/build`: a quote id turned into the unsigned v0 swap transaction of its best route, once. The quote
 * is taken from the store (404 unknown or consumed, 410 expired); each hop's pool is read over JSON-RPC now
 * (`swap-leg-state.ts`) and the route re-quoted leg by leg on that state (`engine/tx/leg-amounts.ts`): when the
 * fresh result is worse than the displayed one by more than `maxDriftBps` (default: the quote's `slippageBps`) the
 * build answers 409 QUOTE_MOVED. Otherwise every leg's instruction is built by its adapter with the chain's amounts,
 * wrapped into the transaction (`engine/tx/swap-transaction.ts`) with the cached recent blockhash, compiled against
 * the service's address lookup tables when it does not fit one packet without (`lookup-table-manager.ts`, which
 * makes a table for the route's accounts when its tables do not cover them), optionally simulated for its compute
 * units, and attested (Ed25519 over the SHA-256 of the message bytes, lookups included).
 *
 * Order matters for the quote id: everything that can be refused without the quote (a missing blockhash) is refused
 * before the id is taken, so such a refusal leaves the quote buildable; from the take on, the id is spent whatever
 * follows (a drift refusal, a failed read), and the client re-quotes.
 */
import bs58 from 'bs58';
import type { QuoteResult, SwapMode } from '../adapters/types.js';
import { isEngineError } from '../errors.js';
import { newRecordFields } from '../ingest/record-fields.js';
import type { QuoteStore } from '../quotes/quote-store.js';
import type { AttestationSigner, Attestation } from '../tx/attestation-signer.js';
import { messageHash } from '../tx/attestation-signer.js';
import type { BlockhashCache } from '../tx/blockhash-cache.js';
import { chainQuotes, chainTotals, legAmounts, type LegQuoter } from '../tx/leg-amounts.js';
import { associatedTokenAddress, MAX_COMPUTE_UNIT_LIMIT } from '../tx/spl-instructions.js';
import { buildSwapTransaction, runtimeDefaultUnits, type BuiltLeg, type LookupTableRef, type SwapTransaction, type SwapTransactionInput } from '../tx/swap-transaction.js';
import { fitSwapTransaction, tableCandidates, type SwapBuildTables } from './swap-build-fit.js';
import { readLegState, type LegState, type StoredHop, type SwapBuildRpc } from './swap-leg-state.js';

/** Compute units asked without a simulation: a base for the budget, ATA and wrap instructions, plus each leg. */
export const BASE_COMPUTE_UNITS = 100_000;
export const COMPUTE_UNITS_PER_LEG = 200_000;
/** A simulation's units are raised by this fraction plus a constant (state may differ slightly when it lands). */
export const SIMULATED_UNITS_MARGIN = 0.1;
export const SIMULATED_UNITS_EXTRA = 10_000;

/** A build request, parsed by the shell. */
export interface SwapBuildRequest {
  readonly quoteId: string;
  /** The user's public key, base58 (the shell checked it is 32 bytes). */
  readonly userPublicKey: string;
  /** Absent: the quote's `slippageBps`. */
  readonly maxDriftBps?: number;
  readonly wrapAndUnwrapSol: boolean;
  readonly computeUnitPriceMicroLamports?: bigint;
  readonly simulate: boolean;
}

/** The build response (amounts as decimal strings). */
export interface SwapBuildBody {
  /** The unsigned v0 transaction, base64. */
  readonly transaction: string;
  readonly quoteId: string;
  readonly lastValidBlockHeight: number;
  readonly computeUnitLimit: number;
  readonly inAmount: string;
  readonly outAmount: string;
  readonly minOutAmount: string;
  readonly attestation: Attestation;
}

/** A refusal with the spec's code; `extra` goes into the error body. */
export interface SwapBuildRefusal {
  readonly ok: false;
  readonly code: 'QUOTE_NOT_FOUND' | 'QUOTE_EXPIRED' | 'QUOTE_MOVED' | 'TX_TOO_LARGE' | 'SIMULATION_FAILED' | 'BLOCKHASH_UNAVAILABLE' | 'SERVICE_UNAVAILABLE';
  readonly message: string;
  readonly details?: unknown;
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** The outcome of a build. */
export type SwapBuildOutcome = { readonly ok: true; readonly body: SwapBuildBody } | SwapBuildRefusal;

/** What the build stored with a quote id (`quote-service.ts`). */
interface QuotePayload {
  readonly swapMode: SwapMode;
  readonly slippageBps: number;
  readonly otherAmountThreshold: string;
  /** The amount asked (ExactIn: offered; ExactOut: wanted). Absent in quotes stored before it was: the route's. */
  readonly amount?: string;
  /** The processed slot the quote was computed at (its pools' state is at least that new). */
  readonly contextSlot?: number;
  readonly route: { readonly inAmount: string; readonly outputAmount: string; readonly hops: readonly StoredHop[] };
}

/** What the service needs. */
export interface SwapBuildDeps {
  readonly store: QuoteStore;
  readonly rpc: SwapBuildRpc;
  readonly blockhash: Pick<BlockhashCache, 'current'>;
  readonly signer: AttestationSigner;
  /** The service's lookup tables; null: none (a route over one packet is TX_TOO_LARGE, tables unavailable). */
  readonly lookupTables?: SwapBuildTables | null;
  readonly now?: () => number;
}

const refuse = (code: SwapBuildRefusal['code'], message: string, more: Omit<SwapBuildRefusal, 'ok' | 'code' | 'message'> = {}): SwapBuildRefusal => ({ ok: false, code, message, ...more });

const INACTIVE: QuoteResult = { status: 'INACTIVE', inAmount: 0n, outAmount: 0n, feeAmount: 0n, feeOnInput: true };

/** A leg's exact quote on its fresh state, through the record image exactly as the route search quotes it. */
function quoterOf(leg: LegState): LegQuoter {
  if (leg.state === null) return () => INACTIVE;
  const fields = newRecordFields();
  leg.adapter.toRecord(leg.state, fields);
  const exact = leg.adapter.fromRecord(fields);
  return (amount, mode) => leg.adapter.quote(exact, leg.aToB, amount, mode);
}

/**
 * Drift of the fresh result against the displayed one, in bps, positive when worse for the user: ExactIn the output
 * fell, ExactOut the input rose. Rounded toward zero.
 */
export function driftBps(mode: SwapMode, displayed: bigint, current: bigint): number {
  if (displayed === 0n) return 0;
  const worse = mode === 'ExactIn' ? displayed - current : current - displayed;
  return Number((worse * 10_000n) / displayed);
}

/** True when `current` is worse than `displayed` by more than `maxBps` (exact, no rounding). */
export function beyondDrift(mode: SwapMode, displayed: bigint, current: bigint, maxBps: number): boolean {
  const worse = mode === 'ExactIn' ? displayed - current : current - displayed;
  return worse * 10_000n > BigInt(maxBps) * displayed;
}

/** The build service. */
export class SwapBuildService {
  private readonly now: () => number;

  constructor(private readonly deps: SwapBuildDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Builds the transaction of a quote id (see the file comment). */
  async build(req: SwapBuildRequest): Promise<SwapBuildOutcome> {
    if (this.deps.blockhash.current() === null) return refuse('BLOCKHASH_UNAVAILABLE', 'No recent blockhash yet');
    const taken = await this.deps.store.take(req.quoteId, this.now());
    if (taken.status === 'not-found') return refuse('QUOTE_NOT_FOUND', 'Quote not found', { details: 'the quote id was never issued or was already built' });
    if (taken.status === 'expired') return refuse('QUOTE_EXPIRED', 'Quote expired', { details: 'quotes live 30 s; re-quote' });
    const quote = JSON.parse(taken.quote.payload) as QuotePayload;
    const hops = quote.route.hops;
    const mode = quote.swapMode;
    let legs: LegState[];
    try {
      // Why the quote's slot: a node behind the service's stream must not re-quote on older state than the quote saw.
      legs = await Promise.all(hops.map((h) => readLegState(this.deps.rpc, h, quote.contextSlot !== undefined && quote.contextSlot > 0 ? quote.contextSlot : undefined)));
    } catch (e) {
      if (isEngineError(e, 'LEG_UNREADABLE')) return refuse('QUOTE_MOVED', 'A pool of the route is no longer what the quote read', { details: e.message, extra: this.moved(mode, quote, 0n, req, 10_000) });
      return refuse('SERVICE_UNAVAILABLE', 'The node did not answer the pool reads', { details: e instanceof Error ? e.message : String(e) });
    }
    const asked = BigInt(quote.amount ?? (mode === 'ExactIn' ? quote.route.inAmount : quote.route.outputAmount));
    const chain = chainQuotes(mode, asked, legs.map(quoterOf));
    const displayed = BigInt(mode === 'ExactIn' ? quote.route.outputAmount : quote.route.inAmount);
    const maxDrift = req.maxDriftBps ?? quote.slippageBps;
    if (!chain.ok) {
      return refuse('QUOTE_MOVED', 'The route no longer trades', {
        details: `hop ${chain.leg} (${hops[chain.leg]!.poolAddress}) quotes ${chain.status}`,
        extra: this.moved(mode, quote, 0n, req, 10_000),
      });
    }
    const totals = chainTotals(mode, chain.legs);
    const current = mode === 'ExactIn' ? totals.outAmount : totals.inAmount;
    if (beyondDrift(mode, displayed, current, maxDrift)) {
      return refuse('QUOTE_MOVED', 'The price moved beyond maxDriftBps', { extra: this.moved(mode, quote, current, req) });
    }
    const threshold = BigInt(quote.otherAmountThreshold);
    const amounts = legAmounts(mode, chain.legs, threshold);
    const tokenPrograms = new Map<string, string>();
    for (const l of legs) for (const [m, p] of l.tokenPrograms) tokenPrograms.set(m, p);
    const ataOf = (mint: string): string => associatedTokenAddress(req.userPublicKey, mint, tokenPrograms.get(mint)!);
    const built: BuiltLeg[] = legs.map((l, i) => ({
      inputMint: l.hop.inputMint,
      outputMint: l.hop.outputMint,
      maxIn: mode === 'ExactIn' ? amounts[i]!.amount : amounts[i]!.otherAmountThreshold,
      instruction: l.adapter.swapInstruction({
        pool: l.pool,
        accounts: l.accounts,
        user: req.userPublicKey,
        userSourceTokenAccount: ataOf(l.hop.inputMint),
        userDestinationTokenAccount: ataOf(l.hop.outputMint),
        aToB: l.aToB,
        mode,
        amount: amounts[i]!.amount,
        otherAmountThreshold: amounts[i]!.otherAmountThreshold,
      }),
    }));
    const blockhash = this.deps.blockhash.current();
    if (blockhash === null) return refuse('BLOCKHASH_UNAVAILABLE', 'No recent blockhash');
    const input = (units: number | null, lookupTables: readonly LookupTableRef[]): SwapTransactionInput => ({
      user: req.userPublicKey,
      legs: built,
      tokenPrograms,
      wrapAndUnwrapSol: req.wrapAndUnwrapSol,
      // Why: ExactIn wraps the amount offered; ExactOut the most the first leg may take.
      wrapLamports: mode === 'ExactIn' ? asked : threshold,
      computeUnitLimit: units,
      ...(req.computeUnitPriceMicroLamports ? { computeUnitPriceMicroLamports: req.computeUnitPriceMicroLamports } : {}),
      recentBlockhash: blockhash.blockhash,
      lookupTables,
    });
    let tables: LookupTableRef[] = [];
    const assemble = (units: number | null): SwapTransaction => buildSwapTransaction(input(units, tables));
    const fitted = await fitSwapTransaction({
      assemble,
      hops: hops.length,
      units: Math.min(MAX_COMPUTE_UNIT_LIMIT, BASE_COMPUTE_UNITS + COMPUTE_UNITS_PER_LEG * legs.length),
      priced: Boolean(req.computeUnitPriceMicroLamports),
      useTables: (t) => (tables = t),
      candidates: () => tableCandidates(legs, built, mode, amounts, input(null, [])),
      tables: this.deps.lookupTables ?? null,
    });
    if (!fitted.ok) return fitted;
    let { units, tx } = fitted;
    if (req.simulate) {
      const sim = await this.simulate(units === null ? tx : assemble(MAX_COMPUTE_UNIT_LIMIT));
      if (!sim.ok) return sim.refusal;
      if (units !== null) {
        units = Math.min(MAX_COMPUTE_UNIT_LIMIT, Math.ceil(sim.unitsConsumed * (1 + SIMULATED_UNITS_MARGIN)) + SIMULATED_UNITS_EXTRA);
        tx = assemble(units);
      }
    }
    const computeUnits = units ?? runtimeDefaultUnits(tx.workInstructions);
    const minOut = mode === 'ExactIn' ? threshold : totals.outAmount;
    const maxIn = mode === 'ExactIn' ? asked : threshold;
    const first = hops[0]!;
    const last = hops.at(-1)!;
    const attestation = this.deps.signer.attest({
      quoteId: req.quoteId,
      messageHash: messageHash(tx.messageBytes),
      user: bs58.decode(req.userPublicKey),
      inputMint: bs58.decode(first.inputMint),
      outputMint: bs58.decode(last.outputMint),
      swapMode: mode,
      inAmount: totals.inAmount,
      outAmount: totals.outAmount,
      minOutAmount: minOut,
      maxInAmount: maxIn,
      expiresAt: taken.quote.expiresAtMs,
    });
    return {
      ok: true,
      body: {
        transaction: Buffer.from(tx.transaction).toString('base64'),
        quoteId: req.quoteId,
        lastValidBlockHeight: blockhash.lastValidBlockHeight,
        computeUnitLimit: computeUnits,
        inAmount: totals.inAmount.toString(),
        outAmount: totals.outAmount.toString(),
        minOutAmount: minOut.toString(),
        attestation,
      },
    };
  }

  /**
   * The four fields of a QUOTE_MOVED body (ExactOut: the amounts are the route's input, worse when higher). A route
   * that no longer trades has `currentOutput` 0 and `driftBps` 10,000.
   */
  private moved(mode: SwapMode, quote: QuotePayload, current: bigint, req: SwapBuildRequest, drift?: number): Record<string, unknown> {
    const displayed = BigInt(mode === 'ExactIn' ? quote.route.outputAmount : quote.route.inAmount);
    return {
      displayedOutput: displayed.toString(),
      currentOutput: current.toString(),
      driftBps: drift ?? driftBps(mode, displayed, current),
      maxDriftBps: req.maxDriftBps ?? quote.slippageBps,
    };
  }

  /** `simulateTransaction` of the unsigned transaction (no signature check, its own blockhash). */
  private async simulate(tx: SwapTransaction): Promise<{ ok: true; unitsConsumed: number } | { ok: false; refusal: SwapBuildRefusal }> {
    let r: { value: { err: unknown; logs: string[] | null; unitsConsumed?: number } };
    try {
      r = await this.deps.rpc.call('simulateTransaction', [
        Buffer.from(tx.transaction).toString('base64'),
        { encoding: 'base64', sigVerify: false, replaceRecentBlockhash: false, commitment: 'processed' },
      ]);
    } catch (e) {
      return { ok: false, refusal: refuse('SERVICE_UNAVAILABLE', 'The node did not answer the simulation', { details: e instanceof Error ? e.message : String(e) }) };
    }
    if (r.value.err !== null) {
      // Why both: `details` is prose and capped by the shell; the whole error and the logs travel as body fields.
      const logs = r.value.logs ?? [];
      return { ok: false, refusal: refuse('SIMULATION_FAILED', 'The simulation reverted', { details: JSON.stringify(r.value.err), extra: { simulationError: r.value.err, logs } }) };
    }
    return { ok: true, unitsConsumed: r.value.unitsConsumed ?? 0 };
  }
}
