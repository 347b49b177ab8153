/**
 * Which accounts the Geyser request lists by address, within a byte budget: every pool dependency that no vault
 * authority filter streams, pool by pool in discovery order, until the next pool's addresses would not fit. The
 * pools that do not fit are not watched at all (ingest writes them as not tradable rather than serve them stale).
 */
import type { PoolEntry } from './pool-registry.js';

/**
 * Byte budget of the addresses listed in one `SubscribeRequest`: 3.5 MiB, under the 4 MiB that gRPC servers
 * (Yellowstone's `max_decoding_message_size` default included) accept in one message, leaving 0.5 MiB for the rest of
 * the request (program and authority filters, slots, commitment).
 */
export const SUBSCRIBE_ADDRESS_BUDGET_BYTES = 3.5 * 1024 * 1024;

/** Encoded size of one address in the request's `account` list: field tag, length, base58 text. */
export function listedAddressBytes(address: string): number {
  return address.length + 2;
}

/** The outcome of {@link planWatch}. */
export interface WatchPlan {
  /** Accounts to list by address (the always-watched first, then pool dependencies), each once. */
  readonly addresses: string[];
  /** Their encoded size in the request ({@link listedAddressBytes} each). */
  readonly listedBytes: number;
  /** Dependencies left to the vault authority filters (not listed), each once. */
  readonly streamedByAuthority: number;
  /** What listing those too would have added to the request, in bytes. */
  readonly streamedBytes: number;
  /** Pools that did not fit the budget this time (not in `unwatched` before). */
  readonly newlyUnwatched: PoolEntry[];
}

/**
 * Plans the addresses of one request. `streamed` tells whether an authority filter delivers an account;
 * `unwatched` holds pools already left out (they stay out: their addresses are not listed and they are not counted
 * again). A pool is listed whole or not at all. A pool that does not fit while `unread` says some of its accounts
 * have not been read yet is skipped without being left out: it has no record yet, and once read its vaults may turn
 * out to stream through an authority filter (the next plan decides).
 */
export function planWatch(
  pools: Iterable<PoolEntry>,
  always: readonly string[],
  streamed: (address: string) => boolean,
  unwatched: ReadonlySet<PoolEntry>,
  budgetBytes: number = SUBSCRIBE_ADDRESS_BUDGET_BYTES,
  unread: (pool: PoolEntry) => boolean = () => false,
): WatchPlan {
  const listed = new Set<string>();
  const byAuthority = new Set<string>();
  let listedBytes = 0;
  let streamedBytes = 0;
  for (const a of always) {
    if (listed.has(a)) continue;
    listed.add(a);
    listedBytes += listedAddressBytes(a);
  }
  const newlyUnwatched: PoolEntry[] = [];
  const mine: string[] = [];
  for (const p of pools) {
    if (unwatched.has(p)) continue;
    mine.length = 0;
    let cost = 0;
    for (const d of p.desc.dependencies) {
      if (listed.has(d) || byAuthority.has(d)) continue;
      if (streamed(d)) {
        byAuthority.add(d);
        streamedBytes += listedAddressBytes(d);
        continue;
      }
      if (mine.includes(d)) continue;
      mine.push(d);
      cost += listedAddressBytes(d);
    }
    if (listedBytes + cost > budgetBytes) {
      if (!unread(p)) newlyUnwatched.push(p);
      continue;
    }
    for (const d of mine) listed.add(d);
    listedBytes += cost;
  }
  return { addresses: [...listed], listedBytes, streamedByAuthority: byAuthority.size, streamedBytes, newlyUnwatched };
}
