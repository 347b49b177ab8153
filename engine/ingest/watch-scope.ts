/**
 * What the stream watches, as ingest applies it: which dependencies the vault authority filters stream (known from
 * their data), and the pools a {@link planWatch} plan left out of the subscription (over its byte budget), which are
 * written as {@link RECORD_STATUS_UNWATCHED} in both views and never again: nothing would keep them fresh.
 */
import type { DexAdapter } from '../adapters/types.js';
import { TOKEN_ACCOUNT_SIZE } from '../adapters/common/spl-layouts.js';
import { VIEW_CONFIRMED, VIEW_LATEST, type PoolSlab } from '../slab/pool-slab.js';
import type { AccountCache } from './account-cache.js';
import { CLOCK_SYSVAR } from './clock.js';
import type { PoolEntry } from './pool-registry.js';
import { newRecordFields, RECORD_STATUS_UNWATCHED } from './record-fields.js';
import { isTokenProgram, ownerKeyOf, tokenOwnerKey } from './token-owner.js';
import { planWatch, type WatchPlan } from './watch-plan.js';

/** Token-2022 `AccountType` of a token account (at byte 165 of an account with extensions). */
const TOKEN_2022_ACCOUNT_TYPE_ACCOUNT = 2;

/** The vault authorities' reach and the pools left unwatched. */
export class WatchScope {
  /** True when some adapter declares vault authorities: the stream then carries token accounts of pools not held. */
  readonly hasAuthorityFilters: boolean;
  /** The adapters' vault authorities, each as its owner key (`ownerKeyOf`). */
  private readonly authorityKeys = new Set<string>();
  /** Dependencies whose data shows a vault authority as owner: the authority filters stream them. */
  private readonly byAuthority = new Set<string>();
  private readonly unwatched = new Set<PoolEntry>();
  private readonly unwatchedIndices = new Set<number>();

  constructor(
    adapters: readonly DexAdapter[],
    private readonly cache: AccountCache,
    private readonly slab: PoolSlab,
    /** Epoch ms, stamped on the records of pools left out. */
    private readonly nowMs: () => number,
  ) {
    for (const a of adapters) for (const auth of a.vaultAuthorities?.() ?? []) this.authorityKeys.add(ownerKeyOf(auth));
    this.hasAuthorityFilters = this.authorityKeys.size > 0;
  }

  /** Pools left out of the subscription. */
  get unwatchedCount(): number {
    return this.unwatched.size;
  }

  /** True when `pool` was left out of the subscription (its record is never written again). */
  isUnwatched(pool: PoolEntry): boolean {
    return this.unwatched.has(pool);
  }

  /** {@link isUnwatched} by slab index. */
  isUnwatchedIndex(index: number): boolean {
    return this.unwatchedIndices.has(index);
  }

  /**
   * Plans the addresses each stream lists, within `budgetBytes` per stream and at most `maxStreams` streams (see
   * {@link planWatch}): the Clock sysvar on each, on the primary every dependency the authority filters do not
   * stream (an account not read yet is listed), on an overflow stream every account of its pools. Pools placed are
   * marked with their stream (`PoolEntry.stream`, for good); pools newly left out are written as
   * {@link RECORD_STATUS_UNWATCHED} in both views at their latest slot; the caller notifies the change and stops
   * building them.
   */
  apply(pools: Iterable<PoolEntry>, budgetBytes: number, maxStreams = 1): WatchPlan {
    const plan = planWatch(pools, {
      always: [CLOCK_SYSVAR],
      streamed: (a) => this.streamedByAuthority(a),
      unwatched: this.unwatched,
      budgetBytes,
      maxStreams,
      unread: (p) => p.desc.dependencies.some((d) => !this.cache.has(d)),
      streamOf: (p) => p.stream,
    });
    for (const [p, s] of plan.placed) p.stream = s;
    if (plan.newlyUnwatched.length === 0) return plan;
    const fields = newRecordFields();
    fields.status = RECORD_STATUS_UNWATCHED;
    const now = this.nowMs();
    for (const p of plan.newlyUnwatched) {
      this.unwatched.add(p);
      this.unwatchedIndices.add(p.index);
      this.slab.write(p.index, VIEW_LATEST, fields, p.latestSlot, now, true);
      this.slab.write(p.index, VIEW_CONFIRMED, fields, p.latestSlot, now, true);
    }
    return plan;
  }

  /** True when a vault authority filter streams the account: its data is a token account of such an authority. */
  streamedByAuthority(address: string): boolean {
    if (this.byAuthority.has(address)) return true;
    if (!this.hasAuthorityFilters) return false;
    const acc = this.cache.get(address);
    if (!acc || !isTokenProgram(acc.owner) || acc.data.length < TOKEN_ACCOUNT_SIZE) return false;
    // A Token-2022 account longer than the base layout says what it is at byte 165 (2: a token account, not a mint).
    if (acc.data.length > TOKEN_ACCOUNT_SIZE && acc.data[TOKEN_ACCOUNT_SIZE] !== TOKEN_2022_ACCOUNT_TYPE_ACCOUNT) return false;
    if (!this.authorityKeys.has(tokenOwnerKey(acc.data))) return false;
    this.byAuthority.add(address);
    return true;
  }

  /** Forgets what account data showed (the chain was replaced); unwatched pools stay unwatched. */
  forgetChain(): void {
    this.byAuthority.clear();
  }
}
