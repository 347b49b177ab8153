/**
 * The account streams of `GET /v1/stream/accounts`: every open client's interest (listed accounts, owner programs,
 * a commitment) served by ONE Geyser account watch per commitment for the whole service. A watch's filter is the
 * union of its clients' accounts and owners, rewritten when a client comes or goes (only when the union changed);
 * each update goes to the clients whose accounts hold its pubkey or whose owners hold its owner (once per client).
 * A commitment's watch opens on its first client and stays open (empty filter: nothing flows but pongs), so a
 * service nobody streams accounts from holds no Geyser stream for them. `applied` resolves on the pong after the
 * filter write (bounded by the watch's ack timeout), or at once while the stream is down: the filter then goes out
 * with the next open.
 */
import type { AccountCommitment, AccountInterest, AccountUpdate, AccountWatch } from '../chain/account-watch.js';

export type { AccountCommitment, AccountUpdate } from '../chain/account-watch.js';

/** Most listed accounts per connection. */
export const MAX_STREAM_ACCOUNTS = 100;
/** Most owner programs per connection. */
export const MAX_STREAM_OWNERS = 10;

/** Most accounts in one watch's filter (the union of its clients), so a Geyser server's filter limits are not met. */
export const MAX_WATCHED_ACCOUNTS = 10_000;
/** Most owner programs in one watch's filter. */
export const MAX_WATCHED_OWNERS = 100;

/** One client's interest. */
export interface AccountStreamInterest extends AccountInterest {
  readonly commitment: AccountCommitment;
}

/** A registered client: `applied` resolves once the Geyser filter holds its interest (bounded wait). */
export interface AccountSubscription {
  readonly applied: Promise<void>;
  /** Forgets the client; the filter shrinks when nothing else needs its keys. */
  stop(): void;
}

interface Client {
  readonly accounts: ReadonlySet<string>;
  readonly owners: ReadonlySet<string>;
  readonly send: (u: AccountUpdate) => void;
}

/** Clients of one commitment and the watch serving them. */
class Demux {
  private readonly byAccount = new Map<string, Set<Client>>();
  private readonly byOwner = new Map<string, Set<Client>>();
  private started = false;

  constructor(readonly watch: AccountWatchLike) {}

  /** Keys of `keys` not in the filter yet. */
  fresh(keys: readonly string[], owners: boolean): number {
    const m = owners ? this.byOwner : this.byAccount;
    let n = 0;
    for (const k of new Set(keys)) if (!m.has(k)) n++;
    return n;
  }

  /** Accounts and owners in the filter. */
  get sizes(): { accounts: number; owners: number } {
    return { accounts: this.byAccount.size, owners: this.byOwner.size };
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.watch.start();
  }

  add(c: Client): Promise<void> {
    const grew = [add(this.byAccount, c.accounts, c), add(this.byOwner, c.owners, c)].some(Boolean);
    this.start();
    // Why write while the stream is down too: `applied` then waits for the stream to open with the filter.
    return grew || !this.watch.open ? this.write() : Promise.resolve();
  }

  remove(c: Client): void {
    const shrank = [remove(this.byAccount, c.accounts, c), remove(this.byOwner, c.owners, c)].some(Boolean);
    if (shrank) void this.write();
  }

  deliver(u: AccountUpdate): void {
    const a = this.byAccount.get(u.pubkey);
    const o = this.byOwner.get(u.owner);
    if (a) for (const c of a) c.send(u);
    if (o) for (const c of o) if (!a?.has(c)) c.send(u);
  }

  get clients(): number {
    const all = new Set<Client>();
    for (const m of [this.byAccount, this.byOwner]) for (const s of m.values()) for (const c of s) all.add(c);
    return all.size;
  }

  private write(): Promise<void> {
    return this.watch.setInterest({ accounts: [...this.byAccount.keys()], owners: [...this.byOwner.keys()] });
  }
}

/** Adds `c` under each key; true when a key was new (the union grew). */
function add(m: Map<string, Set<Client>>, keys: ReadonlySet<string>, c: Client): boolean {
  let grew = false;
  for (const k of keys) {
    let s = m.get(k);
    if (!s) {
      m.set(k, (s = new Set()));
      grew = true;
    }
    s.add(c);
  }
  return grew;
}

/** Removes `c` from each key; true when a key lost its last client (the union shrank). */
function remove(m: Map<string, Set<Client>>, keys: ReadonlySet<string>, c: Client): boolean {
  let shrank = false;
  for (const k of keys) {
    const s = m.get(k);
    if (!s) continue;
    s.delete(c);
    if (s.size === 0) {
      m.delete(k);
      shrank = true;
    }
  }
  return shrank;
}

/** What the streams need of a watch (`AccountWatch` has this shape). */
export type AccountWatchLike = Pick<AccountWatch, 'start' | 'setInterest' | 'close' | 'watched' | 'open'>;

/** Makes the watch of a commitment; `onAccount` is where its updates go. */
export type AccountWatchFactory = (commitment: AccountCommitment, onAccount: (u: AccountUpdate) => void) => AccountWatchLike;

/** The service's account streams. */
export class AccountStreams {
  private readonly demux = new Map<AccountCommitment, Demux>();
  private closed = false;

  constructor(
    private readonly makeWatch: AccountWatchFactory,
    private readonly caps: { readonly accounts: number; readonly owners: number } = { accounts: MAX_WATCHED_ACCOUNTS, owners: MAX_WATCHED_OWNERS },
  ) {}

  /**
   * False when the interest would grow its commitment's filter past `MAX_WATCHED_ACCOUNTS` or
   * `MAX_WATCHED_OWNERS` (the route answers 503; checked at connect, right before `subscribe`).
   */
  admits(interest: AccountStreamInterest): boolean {
    const d = this.demux.get(interest.commitment);
    if (!d) return interest.accounts.length <= this.caps.accounts && interest.owners.length <= this.caps.owners;
    const { accounts, owners } = d.sizes;
    return accounts + d.fresh(interest.accounts, false) <= this.caps.accounts && owners + d.fresh(interest.owners, true) <= this.caps.owners;
  }

  /** Registers a client; `send` gets each update that matches its interest. */
  subscribe(interest: AccountStreamInterest, send: (u: AccountUpdate) => void): AccountSubscription {
    if (this.closed) return { applied: Promise.resolve(), stop: () => undefined };
    const d = this.demuxOf(interest.commitment);
    const c: Client = { accounts: new Set(interest.accounts), owners: new Set(interest.owners), send };
    const applied = d.add(c);
    let stopped = false;
    return {
      applied,
      stop: () => {
        if (stopped || this.closed) return;
        stopped = true;
        d.remove(c);
      },
    };
  }

  /** The filter of a commitment's watch (empty before its first client). */
  watched(commitment: AccountCommitment): AccountInterest {
    return this.demux.get(commitment)?.watch.watched ?? { accounts: [], owners: [] };
  }

  /** Clients registered at a commitment. */
  clients(commitment: AccountCommitment): number {
    return this.demux.get(commitment)?.clients ?? 0;
  }

  /** True while the watch of a commitment has a stream open. */
  open(commitment: AccountCommitment): boolean {
    return this.demux.get(commitment)?.watch.open ?? false;
  }

  /** Closes every watch for good. */
  close(): void {
    this.closed = true;
    for (const d of this.demux.values()) d.watch.close();
    this.demux.clear();
  }

  private demuxOf(commitment: AccountCommitment): Demux {
    let d = this.demux.get(commitment);
    if (!d) {
      const box: { d?: Demux } = {};
      d = new Demux(this.makeWatch(commitment, (u) => box.d!.deliver(u)));
      box.d = d;
      this.demux.set(commitment, d);
    }
    return d;
  }
}
