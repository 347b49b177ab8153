/**
 * Builds the Yellowstone SubscribeRequest for a set of adapters and watched accounts, and the matching
 * getProgramAccounts filters for the snapshot. One filter definition serves both.
 */
import bs58 from 'bs58';
import type { DexAdapter, ProgramFilter } from '../adapters/types.js';
import type { RpcFilter } from '../chain/rpc-client.js';
import { emptySubscribeRequest } from '../chain/geyser-transport.js';
import { CommitmentLevel, type SubscribeRequest, type SubscribeRequestFilterAccountsFilter } from '../chain/yellowstone.js';

/** Name of the account-list filter (vaults, configs, sysvars watched by address). */
export const WATCHED_FILTER = 'watched';
/** Name of the slot filter. */
export const SLOTS_FILTER = 'slots';

/** The Geyser form of a program filter. */
export function toGeyserFilters(f: ProgramFilter): SubscribeRequestFilterAccountsFilter[] {
  const out: SubscribeRequestFilterAccountsFilter[] = [];
  if (f.dataSize !== undefined) out.push({ datasize: String(f.dataSize) });
  for (const m of f.memcmp ?? []) out.push({ memcmp: { offset: String(m.offset), base58: bs58.encode(m.bytes) } });
  return out;
}

/** The getProgramAccounts form of a program filter. */
export function toRpcFilters(f: ProgramFilter): RpcFilter[] {
  const out: RpcFilter[] = [];
  if (f.dataSize !== undefined) out.push({ dataSize: f.dataSize });
  for (const m of f.memcmp ?? []) out.push({ memcmp: { offset: m.offset, bytes: bs58.encode(m.bytes) } });
  return out;
}

/**
 * The subscription: every adapter's pool and auxiliary filters by owner, the watched accounts by address, and
 * every slot status; at processed commitment, replaying from `fromSlot` when given.
 */
export function buildSubscribeRequest(adapters: readonly DexAdapter[], watched: readonly string[], fromSlot?: bigint): SubscribeRequest {
  const req = emptySubscribeRequest();
  for (const a of adapters) {
    for (const f of [...a.poolFilters, ...a.auxFilters]) {
      req.accounts[`${a.dex}:${f.name}`] = { account: [], owner: [a.programId], filters: toGeyserFilters(f) };
    }
  }
  if (watched.length > 0) req.accounts[WATCHED_FILTER] = { account: [...watched], owner: [], filters: [] };
  // Every status of every slot: processed moves the resume point, confirmed promotes records.
  req.slots[SLOTS_FILTER] = { filterByCommitment: false };
  req.commitment = CommitmentLevel.PROCESSED;
  if (fromSlot !== undefined) req.fromSlot = fromSlot.toString();
  return req;
}
