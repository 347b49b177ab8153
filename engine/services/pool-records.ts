/**
 * The pool record of the API (ARCHITECTURE.md, "Pool record"): one pool read from the slab, its mints named from the
 * catalog, its liquidity valued in USD from the service's own prices. Shared by the pools routes, the token page and
 * search, so that a pool looks the same wherever it appears.
 *
 * Which view: the confirmed record (what the chain has confirmed); a pool whose confirmed view was never written
 * (discovered in a slot that is not confirmed yet) is shown from its latest record with `confidence: 'optimistic'`.
 */
import bs58 from 'bs58';
import type { DexAdapter } from '../adapters/types.js';
import { DEX_IDS } from '../dex-ids.js';
import { RECORD_STATUS_ABSENT, RECORD_STATUS_UNWATCHED } from '../ingest/record-fields.js';
import type { MintTable } from '../slab/mint-table.js';
import { newExactSnapshot, newF64Snapshot, type PoolExactSnapshot, type PoolF64Snapshot } from '../slab/pool-snapshot.js';
import { VIEW_CONFIRMED, VIEW_LATEST, type PoolSlab } from '../slab/pool-slab.js';

/**
 * What a pool can do now: `active` trades; `inactive` cannot trade for an adapter's reason (`statusCode` says which:
 * not activated, migrated, empty, ...); `unwatched` is over the stream's budget and not kept live; `absent` lost an
 * account it needs.
 */
export type PoolStatus = 'active' | 'inactive' | 'unwatched' | 'absent';

/** One pool as the API shows it. */
export interface PoolRecord {
  readonly address: string;
  readonly dex: string;
  readonly programId: string;
  readonly mintA: string;
  readonly mintB: string;
  /** Catalog symbols; null for a mint outside the catalog. */
  readonly symbolA: string | null;
  readonly symbolB: string | null;
  readonly decimalsA: number;
  readonly decimalsB: number;
  /** Raw reserves in atoms (the vaults' balances the pool trades against), as decimal strings. */
  readonly reserveA: string;
  readonly reserveB: string;
  readonly feeBps: number;
  /** USD value of the reserves from the service's prices; sides without a price count 0; null when neither has one. */
  readonly liquidityUsd: number | null;
  /** Units of B per unit of A at the pool's marginal price before fees (decimals applied); null when A's side is empty. */
  readonly priceAInB: number | null;
  readonly slot: number;
  /** Milliseconds since the record was written by ingest. */
  readonly poolCacheAgeMs: number;
  readonly confidence: 'confirmed' | 'optimistic';
  /** Epoch ms when this instance first indexed the pool (its start for pools of the startup snapshot). */
  readonly discoveredAt: number;
  readonly status: PoolStatus;
  /** The adapter's reason when `status` is `inactive`, else 0. */
  readonly statusCode: number;
}

/** What the records are read from. */
export interface PoolRecordSource {
  readonly slab: PoolSlab;
  readonly mints: MintTable;
  /** Adapters by slab dex index. */
  readonly adapters: readonly (DexAdapter | undefined)[];
  /** Catalog symbol of a mint, if tracked. */
  symbolOf(mint: string): string | undefined;
  /** Epoch ms the pool was first indexed. */
  discoveredAt(pool: number): number;
}

/** USD price of a mint id, or null; one request's memo (see {@link PoolRecords.record}). */
export type UsdPriceOf = (mintId: number) => number | null;

function statusOf(code: number): PoolStatus {
  if (code === 0) return 'active';
  if (code === RECORD_STATUS_UNWATCHED) return 'unwatched';
  if (code === RECORD_STATUS_ABSENT) return 'absent';
  return 'inactive';
}

/** Builds pool records; one instance per thread (it keeps scratch snapshots and an address cache). */
export class PoolRecords {
  private readonly scratch: PoolF64Snapshot = newF64Snapshot();
  private readonly exact: PoolExactSnapshot = newExactSnapshot();
  private readonly addresses: string[] = [];
  private readonly byAddress = new Map<string, number>();

  constructor(private readonly src: PoolRecordSource) {}

  /** The pool's address in base58 (cached per index: addresses are immutable). */
  address(pool: number): string {
    let a = this.addresses[pool];
    if (a === undefined) {
      a = bs58.encode(this.src.slab.address(pool));
      this.addresses[pool] = a;
    }
    return a;
  }

  /** The pool index of `address`, or undefined when no indexed pool has it. */
  indexOf(address: string): number | undefined {
    const n = this.src.slab.count();
    // Pools are append-only: index the ones added since the last call.
    for (let p = this.byAddress.size; p < n; p++) this.byAddress.set(this.address(p), p);
    return this.byAddress.get(address);
  }

  /**
   * The record of `pool` at `nowMs`, or null when neither view was written yet. `usd` prices mint ids (memoize
   * it per request: a listing values many pools of the same mints).
   */
  record(pool: number, nowMs: number, usd: UsdPriceOf): PoolRecord | null {
    const { slab, mints } = this.src;
    const s = this.scratch;
    const e = this.exact;
    let view = VIEW_CONFIRMED;
    if (!slab.readF64(pool, VIEW_CONFIRMED, s)) {
      if (!slab.readF64(pool, VIEW_LATEST, s)) return null;
      view = VIEW_LATEST;
    }
    // The raw reserves come from an exact read of the same view; two reads are two snapshots, so they are taken
    // again until both hold the same write (a write between them moves the slot or the write time).
    for (let tries = 0; ; tries++) {
      if (!slab.readExact(pool, view, e)) return null;
      if (e.slot === BigInt(s.slot) && e.updatedAtMs === s.updatedAtMs) break;
      if (tries === 8) return null;
      if (!slab.readF64(pool, view, s)) return null;
    }
    const confidence: 'confirmed' | 'optimistic' = view === VIEW_CONFIRMED || s.confirmed ? 'confirmed' : 'optimistic';
    const adapter = this.src.adapters[s.dex];
    const mintA = mints.mintOf(s.mintA);
    const mintB = mints.mintOf(s.mintB);
    const decimalsA = mints.decimals(s.mintA);
    const decimalsB = mints.decimals(s.mintB);
    const unitsA = s.reserveA / 10 ** decimalsA;
    const unitsB = s.reserveB / 10 ** decimalsB;
    const pa = usd(s.mintA);
    const pb = usd(s.mintB);
    const liquidityUsd = pa === null && pb === null ? null : (pa === null ? 0 : unitsA * pa) + (pb === null ? 0 : unitsB * pb);
    const effA = adapter?.effectiveReserve ? adapter.effectiveReserve(s, true) : s.reserveA;
    const effB = adapter?.effectiveReserve ? adapter.effectiveReserve(s, false) : s.reserveB;
    const priceAInB = effA > 0 && Number.isFinite(effA) && Number.isFinite(effB) ? effB / 10 ** decimalsB / (effA / 10 ** decimalsA) : null;
    const feeBps = adapter ? adapter.feeBps(s) : 0;
    return {
      address: this.address(pool),
      dex: DEX_IDS[s.dex] ?? 'unknown',
      programId: adapter?.programId ?? '',
      mintA,
      mintB,
      symbolA: this.src.symbolOf(mintA) ?? null,
      symbolB: this.src.symbolOf(mintB) ?? null,
      decimalsA,
      decimalsB,
      reserveA: e.reserveA.toString(),
      reserveB: e.reserveB.toString(),
      feeBps: Number.isFinite(feeBps) ? feeBps : 0,
      liquidityUsd: liquidityUsd !== null && Number.isFinite(liquidityUsd) ? liquidityUsd : null,
      priceAInB: priceAInB !== null && Number.isFinite(priceAInB) ? priceAInB : null,
      slot: s.slot,
      poolCacheAgeMs: Math.max(0, nowMs - s.updatedAtMs),
      confidence,
      discoveredAt: this.src.discoveredAt(pool),
      status: statusOf(s.status),
      statusCode: s.status === 0 || s.status === RECORD_STATUS_UNWATCHED || s.status === RECORD_STATUS_ABSENT ? 0 : s.status,
    };
  }
}
