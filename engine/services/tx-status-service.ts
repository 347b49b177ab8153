/**
 * Transaction status (`GET /v1/tx/:signature`), the fallback check beside the transaction stream: one
 * `getSignatureStatuses` (with `searchTransactionHistory`, so an old signature is found too), then, for a landed
 * transaction, one `getTransaction` at `confirmed` for its fee and compute units. Finalized answers never change:
 * they are kept in a bounded cache. Decisions (the spec lists the states, not the mapping):
 * - `confirmed`: landed without error at `confirmed`; `finalized`: the same at `finalized` (`confirmations` null);
 * - `failed`: landed with an error (at any commitment: the error is the program's, `error` holds it as JSON);
 * - `not_found`: unknown to the node, or landed only at `processed` (it can still be dropped with its fork); the
 *   `reason` says which;
 * - `error`: the node could not be asked (the shell answers 502 with it).
 */
import { LRUCache } from 'lru-cache';

/** The node calls the service makes (the engine's `RpcClient` has this shape). */
export interface TxStatusRpc {
  call<T>(method: string, params: unknown[]): Promise<T>;
}

/** A landed transaction's status object (the spec's fields). */
export interface TxLanded {
  readonly signature: string;
  readonly status: 'confirmed' | 'finalized' | 'failed';
  readonly confirmationStatus: 'processed' | 'confirmed' | 'finalized';
  readonly slot: number;
  readonly confirmations: number | null;
  readonly error: string | null;
  /** Lamports; null when the node has no confirmed record of it yet (a failure seen at processed). */
  readonly fee: number | null;
  readonly computeUnits: number | null;
}

/** Not found, or the check could not be made. */
export interface TxUnknown {
  readonly signature: string;
  readonly status: 'not_found' | 'error';
  readonly reason: string;
}

/** What `GET /v1/tx/:signature` answers. */
export type TxStatus = TxLanded | TxUnknown;

interface RpcStatus {
  slot: number;
  confirmations: number | null;
  err: unknown;
  confirmationStatus?: 'processed' | 'confirmed' | 'finalized' | null;
}

interface RpcTransaction {
  slot: number;
  meta: { fee: number; computeUnitsConsumed?: number; err: unknown } | null;
}

/** Finalized answers kept (they never change). */
export const FINALIZED_CACHE_ENTRIES = 10_000;

/** The transaction status service over one node. */
export class TxStatusService {
  private readonly finalized = new LRUCache<string, TxLanded>({ max: FINALIZED_CACHE_ENTRIES });

  constructor(private readonly rpc: TxStatusRpc) {}

  /** The status of `signature` (base58, already checked by the caller). Never throws. */
  async status(signature: string): Promise<TxStatus> {
    const hit = this.finalized.get(signature);
    if (hit) return hit;
    let s: RpcStatus | null;
    try {
      const r = await this.rpc.call<{ value: (RpcStatus | null)[] }>('getSignatureStatuses', [[signature], { searchTransactionHistory: true }]);
      s = r.value[0] ?? null;
    } catch (e) {
      return { signature, status: 'error', reason: `getSignatureStatuses failed: ${(e as Error).message}` };
    }
    if (s === null) return { signature, status: 'not_found', reason: 'the node does not know this signature (not landed, expired, or never sent)' };
    const level = s.confirmationStatus ?? (s.confirmations === null ? 'finalized' : 'confirmed');
    const error = s.err === null || s.err === undefined ? null : JSON.stringify(s.err);
    if (level === 'processed' && error === null) {
      return { signature, status: 'not_found', reason: `landed in slot ${s.slot} at processed commitment, not confirmed yet` };
    }
    let tx: RpcTransaction | null = null;
    if (level !== 'processed') {
      try {
        tx = await this.rpc.call<RpcTransaction | null>('getTransaction', [signature, { commitment: 'confirmed', encoding: 'json', maxSupportedTransactionVersion: 0 }]);
      } catch (e) {
        return { signature, status: 'error', reason: `getTransaction failed: ${(e as Error).message}` };
      }
    }
    const body: TxLanded = {
      signature,
      status: error !== null ? 'failed' : level === 'finalized' ? 'finalized' : 'confirmed',
      confirmationStatus: level,
      slot: s.slot,
      confirmations: level === 'finalized' ? null : s.confirmations,
      error,
      fee: tx?.meta?.fee ?? null,
      computeUnits: tx?.meta?.computeUnitsConsumed ?? null,
    };
    if (level === 'finalized' && tx !== null) this.finalized.set(signature, body);
    return body;
  }
}
