/**
 * `POST /v1/send`: a caller's signed transaction checked (`engine/tx/signed-transaction.ts`), sent over JSON-RPC
 * with the node's preflight, then rebroadcast until it lands or its blockhash expires (`engine/tx/rebroadcaster.ts`).
 * Idempotent: the same signed transaction sent again while tracked, or after it landed, is the same send.
 * Outcomes: sent; `SEND_FAILED` when the node refused it (preflight or sanitize error: it never entered the
 * network; `details` carries the node's reason); `SUBMISSION_FAILED` when the node could not be asked (the outcome
 * is unknown: retry the same transaction, or poll its status).
 */
import { isEngineError } from '../errors.js';
import type { Rebroadcaster, RebroadcastRpc } from '../tx/rebroadcaster.js';
import { parseSignedTransaction } from '../tx/signed-transaction.js';

/** What a send answered. */
export type SendOutcome =
  | { readonly ok: true; readonly signature: string }
  | {
      readonly ok: false;
      readonly code: 'TX_INVALID' | 'TX_UNSIGNED' | 'TX_TOO_LARGE' | 'SEND_FAILED' | 'SUBMISSION_FAILED';
      readonly message: string;
      readonly signature: string | null;
      readonly details?: unknown;
    };

/** The send service over one node. */
export class SendService {
  /** `beforeSend(signature, feePayer)` runs before a new transaction is sent (the landed watch: it never rejects). */
  constructor(
    private readonly rpc: RebroadcastRpc,
    private readonly rebroadcast: Rebroadcaster,
    private readonly beforeSend?: (signature: string, feePayer: string) => Promise<void>,
  ) {}

  /** Sends `transaction` (base64 of a signed transaction). Never throws. */
  async send(transaction: unknown): Promise<SendOutcome> {
    const t = parseSignedTransaction(transaction);
    if (!t.ok) return t;
    const { signature } = t;
    if (this.rebroadcast.has(signature)) return { ok: true, signature };
    const wire = Buffer.from(t.raw).toString('base64');
    await this.beforeSend?.(signature, t.tx.message.staticAccountKeys[0]!.toBase58());
    try {
      await this.rpc.call<string>('sendTransaction', [wire, { encoding: 'base64', preflightCommitment: 'confirmed', maxRetries: 0 }]);
    } catch (e) {
      if (isEngineError(e) && e.code === 'RPC_ERROR') {
        const data = e.context.data as { err?: unknown; logs?: unknown } | undefined;
        // Sent before and landed: the same send (idempotent), not a failure.
        if (data?.err === 'AlreadyProcessed') return { ok: true, signature };
        return { ok: false, code: 'SEND_FAILED', message: e.message, signature, details: { rpcCode: e.context.code, err: data?.err ?? null, logs: data?.logs ?? null } };
      }
      return { ok: false, code: 'SUBMISSION_FAILED', message: `the node could not be asked: ${(e as Error).message}`, signature };
    }
    this.rebroadcast.track(signature, wire, t.tx.message.recentBlockhash, null);
    return { ok: true, signature };
  }
}
