/**
 * One Yellowstone `Subscribe` stream of account updates over a `FilteredStream`: the accounts listed and the
 * accounts owned by the programs listed, at one commitment (processed or confirmed). Each update is reported with
 * its pubkey and owner in base58 and the rest as Geyser sent it (data bytes, lamports, write version, slot).
 *
 * The filter is two named account filters, `accounts` (`account` = the pubkeys) and `owners` (`owner` = the
 * programs). Why two: within one Yellowstone account filter a non-empty `account` list and a non-empty `owner`
 * list must both match; across filters any one matching sends the update (once, naming every filter it matched).
 * An empty list is left out: an account filter with no list matches every account. With neither list the request
 * has no account filter at all and the stream carries only pongs. Filter writes, acknowledgements and reconnects:
 * `filtered-stream.ts`.
 */
import bs58 from 'bs58';
import { FilteredStream, type StreamClient, type WatchLog } from './filtered-stream.js';
import { emptySubscribeRequest } from './geyser-transport.js';
import { CommitmentLevel, type SubscribeRequest, type SubscribeUpdate } from './yellowstone.js';

/** The commitments an account watch can run at. */
export type AccountCommitment = 'processed' | 'confirmed';

/** One account update as the watch reports it. */
export interface AccountUpdate {
  readonly pubkey: string;
  readonly owner: string;
  readonly data: Uint8Array;
  readonly lamports: string;
  readonly slot: number;
  readonly writeVersion: string;
  readonly executable: boolean;
  readonly rentEpoch: string;
  /** The transaction that wrote it (base58), when Geyser names one. */
  readonly txnSignature: string | undefined;
}

/** The accounts and owners of a filter. */
export interface AccountInterest {
  readonly accounts: readonly string[];
  readonly owners: readonly string[];
}

/** Options of a watch. */
export interface AccountWatchOptions {
  /** Connects a fresh client (each attempt; a `GeyserTransport` is one). */
  readonly connect: () => Promise<StreamClient<SubscribeRequest, SubscribeUpdate>>;
  readonly commitment: AccountCommitment;
  readonly onAccount: (update: AccountUpdate) => void;
  /** The open stream ended: updates until the next open may be missed. */
  readonly onLost?: () => void;
  readonly firstBackoffMs?: number;
  readonly maxBackoffMs?: number;
  /** Longest wait of `setInterest` for the server's acknowledgement. Default 500. */
  readonly ackTimeoutMs?: number;
  readonly log?: WatchLog;
}

// Why prefixes: the filtered stream keeps one list of strings; a pubkey never holds ':' (base58).
const ACCOUNT = 'a:';
const OWNER = 'o:';

/** The Subscribe request of an interest at a commitment (see the header for the two filters). */
export function accountWatchRequest(interest: AccountInterest, commitment: AccountCommitment): SubscribeRequest {
  const r = emptySubscribeRequest();
  r.commitment = commitment === 'confirmed' ? CommitmentLevel.CONFIRMED : CommitmentLevel.PROCESSED;
  if (interest.accounts.length > 0) r.accounts['accounts'] = { account: [...interest.accounts], owner: [], filters: [] };
  if (interest.owners.length > 0) r.accounts['owners'] = { account: [], owner: [...interest.owners], filters: [] };
  return r;
}

function split(keys: readonly string[]): AccountInterest {
  const accounts: string[] = [];
  const owners: string[] = [];
  for (const k of keys) (k.startsWith(OWNER) ? owners : accounts).push(k.slice(2));
  return { accounts, owners };
}

/** The watch (not started until `start`). */
export class AccountWatch {
  private readonly stream: FilteredStream<SubscribeRequest, SubscribeUpdate>;
  /** `setInterest` callers waiting for a stream to open (and acknowledge the filter it opened with). */
  private openWaiters: (() => void)[] = [];
  /** Account updates reported. */
  readonly counts = { accounts: 0 };

  constructor(o: AccountWatchOptions) {
    this.stream = new FilteredStream<SubscribeRequest, SubscribeUpdate>({
      name: `accounts ${o.commitment}`,
      connect: o.connect,
      request: (keys) => accountWatchRequest(split(keys), o.commitment),
      onLost: o.onLost,
      // Why sync: the filter written at open (the ping after a set during the open carries it too) is applied once
      // its pong is back.
      onOpen: () => {
        const waiters = this.openWaiters;
        this.openWaiters = [];
        if (waiters.length > 0) void this.stream.sync().then(() => waiters.forEach((w) => w()));
      },
      onUpdate: (u) => {
        const a = u.account?.account;
        if (!a) return;
        this.counts.accounts++;
        o.onAccount({
          pubkey: bs58.encode(a.pubkey),
          owner: bs58.encode(a.owner),
          data: a.data,
          lamports: String(a.lamports),
          slot: Number(u.account!.slot),
          writeVersion: String(a.writeVersion),
          executable: a.executable,
          rentEpoch: String(a.rentEpoch),
          txnSignature: a.txnSignature && a.txnSignature.length > 0 ? bs58.encode(a.txnSignature) : undefined,
        });
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

  /** True while a stream is open. */
  get open(): boolean {
    return this.stream.open;
  }

  /** The accounts and owners of the current filter. */
  get watched(): AccountInterest {
    return split(this.stream.watched);
  }

  /** Opens the stream (and keeps reopening it until `close`). */
  start(): void {
    this.stream.start();
  }

  /**
   * Replaces the filter; resolves once the server applied it (the pong of the ping after the write, bounded by the
   * ack timeout) or, while no stream is open, once the next stream opened with it and acknowledged it (unbounded:
   * the filter is not live before). Never rejects; released by `close`.
   */
  setInterest(interest: AccountInterest): Promise<void> {
    const applied = this.stream.setAccounts([...interest.accounts.map((a) => ACCOUNT + a), ...interest.owners.map((o) => OWNER + o)]);
    if (this.stream.open) return applied;
    return new Promise<void>((resolve) => this.openWaiters.push(resolve));
  }

  /** Stops for good (callers waiting for a stream are let go). */
  close(): void {
    this.stream.close();
    const waiters = this.openWaiters;
    this.openWaiters = [];
    waiters.forEach((w) => w());
  }
}
