/**
 * `POST /v1/swap`: a caller's signed transaction checked (`engine/tx/signed-transaction.ts`), then submitted to a
 * Jito block engine as a bundle of two: the caller's transaction, then the service's tip transaction
 * (`engine/tx/tip-transaction.ts`: a transfer from the tip wallet to one of the engine's tip accounts, same
 * blockhash). Idempotent: the same signed transaction submitted again within two minutes answers the same bundle
 * (`engine/tx/recent-bundles.ts`), and two at once share one submission; past that, the tip transaction is derived
 * from the caller's, so the bundle id is too, and a bundle the engine already holds or landed is the same
 * submission. Outcomes: submitted (the engine accepted the bundle; it lands or fails at the engine's auction, seen
 * through the transaction's status); `BUNDLE_UNAVAILABLE` when no block engine is configured; `BUNDLE_REJECTED`
 * when the engine refused the bundle (`details` carries its reason) or the tip wallet cannot pay the tip;
 * `SUBMISSION_FAILED` when the engine could not be asked or its answer was lost (the outcome is unknown: retry
 * the same transaction, or poll its status).
 */
import bs58 from 'bs58';
import type { Keypair } from '@solana/web3.js';
import { isEngineError } from '../errors.js';
import { bundleIdOf, type BundleEngine } from '../tx/bundle-client.js';
import { RecentBundles } from '../tx/recent-bundles.js';
import { parseSignedTransaction, type SignedTransaction } from '../tx/signed-transaction.js';
import { buildTipTransaction, tipAccountFor } from '../tx/tip-transaction.js';

/** The base fee of one signature, in lamports: what the tip transaction costs the tip wallet besides the tip. */
export const SIGNATURE_FEE_LAMPORTS = 5000n;

/** How long a read of the tip wallet's balance is trusted. */
export const TIP_BALANCE_TTL_MS = 5000;

/** What a submit answered. */
export type SwapSubmitOutcome =
  | { readonly ok: true; readonly signature: string; readonly bundleId: string }
  | {
      readonly ok: false;
      readonly code: 'TX_INVALID' | 'TX_UNSIGNED' | 'TX_TOO_LARGE' | 'BUNDLE_UNAVAILABLE' | 'BUNDLE_REJECTED' | 'SUBMISSION_FAILED';
      readonly message: string;
      readonly signature: string | null;
      readonly details?: unknown;
    };

/** A configured block engine and the tip wallet that pays its bundles' tips. */
export interface BundleSetup {
  readonly engine: BundleEngine;
  /** The tip wallet: signs and pays the tip transaction. */
  readonly tipPayer: Keypair;
  /** The tip of every bundle, in lamports (at least Jito's 1,000). */
  readonly tipLamports: bigint;
  /** The tip wallet's balance in lamports (over the node); absent: not checked. */
  readonly tipBalance?: (address: string) => Promise<bigint>;
}

/** What the service is built from. */
export interface SwapSubmitDeps {
  /** The block engine; null: bundle submission is not configured (every valid submit is BUNDLE_UNAVAILABLE). */
  readonly bundles: BundleSetup | null;
  /** The idempotency memory (default: 2 minutes, 10,000 signatures). */
  readonly recent?: RecentBundles;
  /** Clock (tests). */
  readonly now?: () => number;
  /** Runs before a new bundle is sent, with the caller's signature and fee payer (the landed watch; never rejects). */
  readonly beforeSubmit?: (signature: string, feePayer: string) => Promise<void>;
}

/** The swap submit service over one block engine. */
export class SwapSubmitService {
  private readonly recent: RecentBundles;
  private readonly inflight = new Map<string, Promise<SwapSubmitOutcome>>();
  private readonly now: () => number;
  private balance: { readonly lamports: bigint; readonly at: number } | null = null;

  constructor(private readonly deps: SwapSubmitDeps) {
    this.recent = deps.recent ?? new RecentBundles();
    this.now = deps.now ?? Date.now;
  }

  /** The tip wallet's address (the operator funds it); null when bundles are not configured. */
  get tipPayerAddress(): string | null {
    return this.deps.bundles?.tipPayer.publicKey.toBase58() ?? null;
  }

  /** Submits `transaction` (base64 of a signed transaction) as a tipped bundle. Never throws. */
  async submit(transaction: unknown): Promise<SwapSubmitOutcome> {
    const t = parseSignedTransaction(transaction);
    if (!t.ok) return t;
    const { signature } = t;
    const setup = this.deps.bundles;
    if (setup === null) return { ok: false, code: 'BUNDLE_UNAVAILABLE', message: 'bundle submission is not configured on this deployment', signature };
    const known = this.recent.get(signature);
    if (known !== undefined) return { ok: true, signature, bundleId: known };
    const running = this.inflight.get(signature);
    if (running) return running;
    // Why catch: an unexpected error mid-submit is the spec's SUBMISSION_FAILED (internal error, outcome unknown), never a 500.
    const p = this.bundle(setup, t)
      .catch((e: unknown): SwapSubmitOutcome => ({ ok: false, code: 'SUBMISSION_FAILED', message: `internal error mid-submit: ${(e as Error).message}`, signature }))
      .finally(() => this.inflight.delete(signature));
    this.inflight.set(signature, p);
    return p;
  }

  private async bundle(setup: BundleSetup, t: SignedTransaction): Promise<SwapSubmitOutcome> {
    const { signature } = t;
    const { engine } = setup;
    const notAsked = (what: string, e: unknown): SwapSubmitOutcome => ({
      ok: false,
      code: 'SUBMISSION_FAILED',
      message: `${what}: ${(e as Error).message}`,
      signature,
    });
    const short = await this.tipShortfall(setup);
    if (short !== null) {
      return { ok: false, code: 'BUNDLE_REJECTED', message: 'the service tip wallet cannot pay the bundle tip', signature, details: { reason: 'tip wallet underfunded', ...short } };
    }
    let tipAccounts: readonly string[];
    try {
      tipAccounts = await engine.tipAccounts();
    } catch (e) {
      return notAsked('the block engine could not be asked for its tip accounts', e);
    }
    const tip = buildTipTransaction({
      payer: setup.tipPayer,
      tipAccount: tipAccountFor(tipAccounts, bs58.decode(signature)),
      lamports: setup.tipLamports,
      recentBlockhash: t.tx.message.recentBlockhash,
      forSignature: signature,
    });
    const signatures = [signature, bs58.encode(tip.signatures[0]!)];
    let bundleId: string;
    await this.deps.beforeSubmit?.(signature, t.tx.message.staticAccountKeys[0]!.toBase58());
    try {
      bundleId = await engine.sendBundle([t.raw, tip.serialize()]);
    } catch (e) {
      if (!isEngineError(e, 'RPC_ERROR')) return notAsked('the block engine could not be asked', e);
      // Why: a retry after a lost answer sends the same bundle; an engine that landed it refuses it as already
      // processed. The engine still knowing the bundle (pending or landed) makes it the same submission.
      const id = bundleIdOf(signatures);
      if (await this.engineHolds(engine, id)) {
        this.recent.set(signature, id);
        return { ok: true, signature, bundleId: id };
      }
      const data = e.context.data ?? null;
      return {
        ok: false,
        code: 'BUNDLE_REJECTED',
        message: e.message,
        signature,
        details: { rpcCode: e.context.code ?? null, reason: e.message.replace(/^RPC sendBundle: /, ''), data },
      };
    }
    this.recent.set(signature, bundleId);
    return { ok: true, signature, bundleId };
  }

  /** True when the engine reports the bundle pending or landed (false when it cannot say). */
  private async engineHolds(engine: BundleEngine, id: string): Promise<boolean> {
    try {
      const [s] = await engine.inflightStatuses([id]);
      return s?.status === 'Pending' || s?.status === 'Landed';
    } catch {
      return false;
    }
  }

  /**
   * What the tip wallet lacks for one more bundle (null when it has enough, or its balance cannot be read: a slow
   * node must not stop submissions). Why check: the engine drops a bundle whose tip fails at its auction, after
   * having accepted it; an empty wallet would make every submit "submitted" and none land.
   */
  private async tipShortfall(setup: BundleSetup): Promise<{ tipPayer: string; balance: string; needed: string } | null> {
    const read = setup.tipBalance;
    if (!read) return null;
    const address = setup.tipPayer.publicKey.toBase58();
    const needed = setup.tipLamports + SIGNATURE_FEE_LAMPORTS;
    if (this.balance === null || this.now() - this.balance.at >= TIP_BALANCE_TTL_MS || this.balance.lamports < needed) {
      try {
        this.balance = { lamports: await read(address), at: this.now() };
      } catch {
        return null;
      }
    }
    if (this.balance.lamports >= needed) return null;
    return { tipPayer: address, balance: this.balance.lamports.toString(), needed: needed.toString() };
  }
}
