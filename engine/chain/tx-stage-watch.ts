/**
 * One Yellowstone `Subscribe` stream for the stages of the service's own submissions: the transaction statuses of a
 * changing set of accounts (`transactions_status`, `accountInclude` = the fee payers of tracked submissions, votes
 * excluded, failed ones included) at commitment `processed`, plus every slot status. A matched transaction is
 * reported with its signature, slot and error (Agave's bincode `TransactionError` decoded to the JSON-RPC shape, so
 * the stream's error reads as a poll's); a slot status is reported as Yellowstone numbers it (`SlotStatus`:
 * processed 0, confirmed 1, finalized 2, first shred 3, completed 4, created bank 5, dead 6).
 *
 * Why `transactions_status`, not `transactions`: the same filter semantics and the same moment (the plugin sends it
 * with the transaction update, from the same notification), but only signature, slot, index and error: the stages
 * need nothing of the transaction or its meta beyond the error, and a swap's full update carries its logs, balances
 * and instructions. A `transaction` update is read too (same fields), so either filter works.
 * Slot statuses unfiltered (`interslot_updates`: the `dead` status is one of them); they flow whatever the account
 * set, so the stream's liveness shows (`lastUpdateAt`). Filter writes, acknowledgements and reconnects:
 * `filtered-stream.ts`.
 */
import bs58 from 'bs58';
import { FilteredStream, FilteredWatch, type StreamClient, type WatchLog } from './filtered-stream.js';
import { emptySubscribeRequest } from './geyser-transport.js';
import { CommitmentLevel, yellowstone, type SubscribeRequest, type SubscribeUpdate } from './yellowstone.js';

/** Options of a watch. */
export interface TxStageWatchOptions {
  /** Connects a fresh client (each attempt; a `GeyserTransport` is one). */
  readonly connect: () => Promise<StreamClient<SubscribeRequest, SubscribeUpdate>>;
  /** A transaction of a watched account was executed (`err` null) or failed (`err` the error as JSON). */
  readonly onTransaction: (signature: string, slot: number, err: string | null) => void;
  /** A slot reached a status (`SlotStatus` number). */
  readonly onSlot: (slot: number, status: number) => void;
  /** The open stream ended: updates until the next open may be missed. */
  readonly onLost?: () => void;
  readonly firstBackoffMs?: number;
  readonly maxBackoffMs?: number;
  /** Longest wait of `setAccounts` for the server's acknowledgement. Default 500. */
  readonly ackTimeoutMs?: number;
  /** An open stream without an update for this long is not `live`. Default 3000 (slot statuses come several times a slot). */
  readonly staleMs?: number;
  readonly now?: () => number;
  readonly log?: WatchLog;
}

/** The Subscribe request of an account set: its transactions' statuses (when any) and every slot status. */
export function txStageRequest(accounts: readonly string[]): SubscribeRequest {
  const r = emptySubscribeRequest();
  r.commitment = CommitmentLevel.PROCESSED;
  r.slots = { stages: { filterByCommitment: false, interslotUpdates: true } };
  // An empty accountInclude would match every transaction: no accounts, no transaction filter.
  if (accounts.length > 0) r.transactionsStatus = { tracked: { vote: false, accountInclude: [...accounts], accountExclude: [], accountRequired: [] } };
  return r;
}

/**
 * A transaction error as Geyser carries it (Agave's bincode) in the JSON-RPC shape, as a string
 * (`{"InstructionError":[0,{"Custom":1}]}`); the bytes in hex when the decoder does not know them.
 */
export function txErrorJson(bincode: Uint8Array): string {
  try {
    return JSON.stringify(yellowstone.txErrDecode.decode(bincode));
  } catch {
    return JSON.stringify({ undecoded: Buffer.from(bincode).toString('hex') });
  }
}

/** The watch (not started until `start`). */
export class TxStageWatch extends FilteredWatch<SubscribeRequest, SubscribeUpdate> {
  protected readonly stream: FilteredStream<SubscribeRequest, SubscribeUpdate>;
  private readonly now: () => number;
  private readonly staleMs: number;
  private lastAt = 0;
  /** Transactions and slot statuses reported. */
  readonly counts = { transactions: 0, slots: 0 };

  constructor(o: TxStageWatchOptions) {
    super();
    this.now = o.now ?? Date.now;
    this.staleMs = o.staleMs ?? 3000;
    this.stream = new FilteredStream<SubscribeRequest, SubscribeUpdate>({
      name: 'tx stages',
      connect: o.connect,
      request: txStageRequest,
      onOpen: () => (this.lastAt = this.now()),
      onLost: o.onLost,
      onUpdate: (u) => {
        this.lastAt = this.now();
        const t = u.transactionStatus ?? (u.transaction ? { slot: u.transaction.slot, signature: u.transaction.transaction?.signature, err: u.transaction.transaction?.meta?.err } : undefined);
        if (t?.signature) {
          this.counts.transactions++;
          o.onTransaction(bs58.encode(t.signature), Number(t.slot), t.err ? txErrorJson(t.err.err) : null);
          return;
        }
        if (u.slot) {
          this.counts.slots++;
          o.onSlot(Number(u.slot.slot), u.slot.status);
        }
      },
      firstBackoffMs: o.firstBackoffMs,
      maxBackoffMs: o.maxBackoffMs,
      ackTimeoutMs: o.ackTimeoutMs,
      log: o.log,
    });
  }

  /** Streams opened, streams ended by an error, the last error's status and the wait it chose. */
  get stats(): FilteredStream<SubscribeRequest, SubscribeUpdate>['stats'] {
    return this.stream.stats;
  }

  /** True while a stream is open and delivered something within `staleMs` (slot statuses flow all the time). */
  get live(): boolean {
    return this.stream.open && this.now() - this.lastAt < this.staleMs;
  }
}
