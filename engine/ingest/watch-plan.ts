/**
 * Which accounts the Geyser streams list by address, within a byte budget per stream: every pool dependency that
 * no vault authority filter streams, pool by pool in discovery order. A pool goes to the primary stream while its
 * addresses fit there, else to the first overflow stream they fit (up to `maxStreams` streams in all), and stays on
 * the stream it was placed on. The pools that fit no stream are not watched at all (ingest writes them as not
 * tradable rather than serve them stale).
 */
import type { PoolEntry } from './pool-registry.js';

/**
 * Byte budget of the addresses listed in one `SubscribeRequest`: 3.5 MiB, under the 4 MiB that gRPC servers
 * (Yellowstone's `max_decoding_message_size` default included) accept in one message, leaving 0.5 MiB for the rest of
 * the request (program and authority filters, slots, commitment).
 */
export const SUBSCRIBE_ADDRESS_BUDGET_BYTES = 3.5 * 1024 * 1024;

/** Default cap on the Subscribe streams ingest opens (the primary and its overflow streams). */
export const DEFAULT_MAX_STREAMS = 4;

/** The primary stream: the program and vault authority filters, and the pools that fit its budget. */
export const PRIMARY_STREAM = 0;

/** Encoded size of one address in the request's `account` list: field tag, length, base58 text. */
export function listedAddressBytes(address: string): number {
  return address.length + 2;
}

/** What one stream lists by address. */
export interface StreamListing {
  /** Accounts to list by address (the always-watched first, then the pools' accounts), each once. */
  readonly addresses: string[];
  /** Their encoded size in the request ({@link listedAddressBytes} each). */
  readonly listedBytes: number;
  /** Pools the stream carries (their writes are applied in this stream's order). */
  readonly pools: number;
}

/** The outcome of {@link planWatch}. */
export interface WatchPlan {
  /** One listing per stream, by stream number ({@link PRIMARY_STREAM} first); at least the primary. */
  readonly streams: StreamListing[];
  /** The primary stream's addresses (`streams[0].addresses`). */
  readonly addresses: string[];
  /** The primary stream's listed bytes. */
  readonly listedBytes: number;
  /** Dependencies left to the vault authority filters (not listed), each once. */
  readonly streamedByAuthority: number;
  /** What listing those too would have added to the primary request, in bytes. */
  readonly streamedBytes: number;
  /** Pools that fit no stream this time (not in `unwatched` before). */
  readonly newlyUnwatched: PoolEntry[];
  /** Pools placed on a stream by this plan (no stream before), with their stream. */
  readonly placed: (readonly [PoolEntry, number])[];
}

/** What {@link planWatch} is given besides the pools. */
export interface WatchPlanInputs {
  /** Listed on every stream (the Clock sysvar). */
  readonly always: readonly string[];
  /** True when a vault authority filter (primary stream only) delivers the account. */
  readonly streamed: (address: string) => boolean;
  /** Pools already left out: they stay out, their addresses are not listed and they are not counted again. */
  readonly unwatched: ReadonlySet<PoolEntry>;
  /** Budget of each stream's listed addresses. */
  readonly budgetBytes: number;
  /** Most streams, the primary included (1: no overflow stream). */
  readonly maxStreams: number;
  /** True while some of the pool's accounts have not been read (see {@link planWatch}). */
  readonly unread: (pool: PoolEntry) => boolean;
  /** The stream an earlier plan placed the pool on (undefined: none yet). */
  readonly streamOf: (pool: PoolEntry) => number | undefined;
}

/** One stream's list as it is being built. */
class Listing {
  readonly listed = new Set<string>();
  bytes = 0;
  pools = 0;

  constructor(always: readonly string[]) {
    for (const a of always) this.add(a);
  }

  add(a: string): void {
    if (this.listed.has(a)) return;
    this.listed.add(a);
    this.bytes += listedAddressBytes(a);
  }
}

/**
 * Plans the addresses of every stream. On the primary a pool lists the dependencies no authority filter streams
 * (its pool account comes through the program filter); on an overflow stream, which has no filter but its list, a
 * pool lists its own account and every dependency: all of a pool's accounts reach ingest on one stream. Pools
 * placed before keep their stream (their cost only falls as vaults turn out to stream by authority); the others
 * are placed in discovery order on the first stream with room, each whole or not at all. A pool not read yet is
 * placed too (its accounts counted as listed): placed before its accounts are read, its stream carries whatever is
 * written after the read. A pool that fits nowhere while `unread` says some of its accounts have not been read yet
 * is skipped without being left out: it has no record yet, and once read its vaults may turn out to stream through
 * an authority filter (the next plan decides).
 */
export function planWatch(pools: Iterable<PoolEntry>, o: WatchPlanInputs): WatchPlan {
  const maxStreams = Math.max(1, Math.floor(o.maxStreams));
  const lists: Listing[] = [new Listing(o.always)];
  const byAuthority = new Set<string>();
  let streamedBytes = 0;
  const mine: string[] = [];
  const auth: string[] = [];
  /**
   * The addresses `p` adds to stream `s` that it does not list yet, into `mine` (and on the primary those an
   * authority filter streams, into `auth`); returns their bytes.
   */
  const costOn = (p: PoolEntry, s: number, list: Listing): number => {
    mine.length = 0;
    auth.length = 0;
    let cost = 0;
    const take = (d: string): void => {
      if (list.listed.has(d) || mine.includes(d)) return;
      mine.push(d);
      cost += listedAddressBytes(d);
    };
    if (s !== 0) take(p.desc.address);
    for (const d of p.desc.dependencies) {
      if (s === 0 && (byAuthority.has(d) || o.streamed(d))) {
        auth.push(d);
        continue;
      }
      take(d);
    }
    return cost;
  };
  const listOf = (s: number): Listing => {
    while (lists.length <= s) lists.push(new Listing(o.always));
    return lists[s]!;
  };
  const commit = (list: Listing, cost: number): void => {
    for (const d of mine) list.listed.add(d);
    list.bytes += cost;
    list.pools++;
    for (const d of auth) {
      if (byAuthority.has(d)) continue;
      byAuthority.add(d);
      streamedBytes += listedAddressBytes(d);
    }
  };
  // Pools placed before first: they keep their room whatever was discovered since.
  const fresh: PoolEntry[] = [];
  for (const p of pools) {
    if (o.unwatched.has(p)) continue;
    const s = o.streamOf(p);
    if (s === undefined || s >= maxStreams) {
      fresh.push(p);
      continue;
    }
    const list = listOf(s);
    commit(list, costOn(p, s, list));
  }
  const newlyUnwatched: PoolEntry[] = [];
  const placed: (readonly [PoolEntry, number])[] = [];
  for (const p of fresh) {
    let at = -1;
    for (let s = 0; s < maxStreams && at < 0; s++) {
      // A stream not open yet starts with the always-listed accounts.
      const list = s < lists.length ? lists[s]! : new Listing(o.always);
      const cost = costOn(p, s, list);
      if (list.bytes + cost > o.budgetBytes) continue;
      if (s >= lists.length) lists.push(list);
      commit(list, cost);
      at = s;
    }
    if (at >= 0) placed.push([p, at]);
    else if (!o.unread(p)) newlyUnwatched.push(p);
  }
  const streams = lists.map((l) => ({ addresses: [...l.listed], listedBytes: l.bytes, pools: l.pools }));
  return {
    streams,
    addresses: streams[0]!.addresses,
    listedBytes: streams[0]!.listedBytes,
    streamedByAuthority: byAuthority.size,
    streamedBytes,
    newlyUnwatched,
    placed,
  };
}
