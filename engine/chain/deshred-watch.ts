/**
 * One SubscribeDeshred stream whose filter is a changing set of accounts (`accountInclude`): every deshred
 * transaction touching one of them is reported with its signature and slot, as soon as it comes out of the shreds
 * (before it executes: the `landed` signal). Used for the fee payers of the transactions the service submitted.
 * Filter writes, their acknowledgement (the pong of a ping) and the reconnect policy: `filtered-stream.ts`.
 * An empty set is an empty `deshredTransactions` map (it matches nothing); an empty `accountInclude` would match
 * every transaction.
 */
import bs58 from 'bs58';
import type { DeshredClient } from './geyser-deshred.js';
import { FilteredStream, FilteredWatch, type WatchLog } from './filtered-stream.js';
import type { SubscribeDeshredRequest, SubscribeUpdateDeshred } from './yellowstone.js';

/** Options of a watch. */
export interface DeshredWatchOptions {
  /** Connects a fresh client (each attempt). */
  readonly connect: () => Promise<DeshredClient>;
  /** A deshred transaction matched the filter. */
  readonly onTransaction: (signature: string, slot: number) => void;
  readonly firstBackoffMs?: number;
  readonly maxBackoffMs?: number;
  /** Longest wait of `setAccounts` for the server's acknowledgement. Default 500. */
  readonly ackTimeoutMs?: number;
  readonly log?: WatchLog;
}

/** The deshred request of an account set. */
export function deshredRequest(accounts: readonly string[]): SubscribeDeshredRequest {
  if (accounts.length === 0) return { deshredTransactions: {}, slots: {} };
  return { deshredTransactions: { tracked: { vote: false, accountInclude: [...accounts], accountExclude: [], accountRequired: [] } }, slots: {} };
}

/** The watch (not started until `start`). */
export class DeshredWatch extends FilteredWatch<SubscribeDeshredRequest, SubscribeUpdateDeshred> {
  protected readonly stream: FilteredStream<SubscribeDeshredRequest, SubscribeUpdateDeshred>;
  private transactions = 0;

  constructor(o: DeshredWatchOptions) {
    super();
    this.stream = new FilteredStream({
      name: 'deshred',
      connect: o.connect,
      request: deshredRequest,
      onUpdate: (u) => {
        const d = u.deshredTransaction;
        const sig = d?.transaction?.signature;
        if (!d || !sig) return;
        this.transactions++;
        o.onTransaction(bs58.encode(sig), Number(d.slot));
      },
      firstBackoffMs: o.firstBackoffMs,
      maxBackoffMs: o.maxBackoffMs,
      ackTimeoutMs: o.ackTimeoutMs,
      log: o.log,
    });
  }

  /** Streams opened, streams ended by an error, the last error's status and the wait it chose, transactions reported. */
  get stats(): FilteredStream<SubscribeDeshredRequest, SubscribeUpdateDeshred>['stats'] & { readonly transactions: number } {
    return { ...this.stream.stats, transactions: this.transactions };
  }
}
