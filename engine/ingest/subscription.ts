/**
 * Builds the Yellowstone SubscribeRequest for a set of adapters and watched accounts, and the matching
 * getProgramAccounts filters for the snapshot. One filter definition serves both.
 */
import bs58 from 'bs58';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../adapters/common/spl-layouts.js';
import type { DexAdapter, ProgramFilter } from '../adapters/types.js';
import type { RpcFilter } from '../chain/rpc-client.js';
import { emptySubscribeRequest } from '../chain/geyser-transport.js';
import { CommitmentLevel, yellowstone, type SubscribeRequest, type SubscribeRequestFilterAccountsFilter } from '../chain/yellowstone.js';

/** Name of the account-list filter (vaults, configs, sysvars watched by address). */
export const WATCHED_FILTER = 'watched';
/** Name of the slot filter. */
export const SLOTS_FILTER = 'slots';
/** Offset of the `owner` field in an SPL token account (Token and Token-2022 alike). */
export const TOKEN_ACCOUNT_OWNER_OFFSET = 32;

/**
 * The account filter that streams every token account (Token or Token-2022) whose owner field is `authority`: a
 * DEX's vaults. No size filter: Token-2022 accounts with extensions are longer than 165 bytes.
 */
export function vaultAuthorityFilter(authority: string): { account: string[]; owner: string[]; filters: SubscribeRequestFilterAccountsFilter[] } {
  return {
    account: [],
    owner: [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID],
    filters: [{ memcmp: { offset: String(TOKEN_ACCOUNT_OWNER_OFFSET), base58: authority } }],
  };
}

/** Encoded size of a request in bytes (what a gRPC server's receive limit applies to). */
export function subscribeRequestBytes(req: SubscribeRequest): number {
  return yellowstone.SubscribeRequest.encode(req).finish().length;
}

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
 * The subscription: every adapter's pool and auxiliary filters by owner, its vault authorities' token accounts
 * (`<dex>:vaults:<n>`), the watched accounts by address (`watched`: what no filter above streams, see
 * `IngestCore.watchPlan`), and every slot status; at processed commitment, replaying from `fromSlot` when given.
 * `primary` false: an overflow stream's request, the listed accounts and the slots only (no program or authority
 * filter: those stream on the primary).
 */
export function buildSubscribeRequest(adapters: readonly DexAdapter[], watched: readonly string[], fromSlot?: bigint, primary = true): SubscribeRequest {
  const req = emptySubscribeRequest();
  for (const a of primary ? adapters : []) {
    for (const f of [...a.poolFilters, ...a.auxFilters]) {
      req.accounts[`${a.dex}:${f.name}`] = { account: [], owner: [a.programId], filters: toGeyserFilters(f) };
    }
    const authorities = a.vaultAuthorities?.() ?? [];
    authorities.forEach((auth, i) => (req.accounts[`${a.dex}:vaults:${i}`] = vaultAuthorityFilter(auth)));
  }
  if (watched.length > 0) req.accounts[WATCHED_FILTER] = { account: [...watched], owner: [], filters: [] };
  // Every status of every slot: processed moves the resume point, confirmed promotes records.
  req.slots[SLOTS_FILTER] = { filterByCommitment: false };
  req.commitment = CommitmentLevel.PROCESSED;
  if (fromSlot !== undefined) req.fromSlot = fromSlot.toString();
  return req;
}
