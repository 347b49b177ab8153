/**
 * Sorting and keyset paging of pool records (GET /v1/pools and its variants). A cursor names the last record of a
 * page by its sort value and address, so a page after it starts exactly there even when pools were added or their
 * liquidity moved in between (no offsets: an offset skips or repeats records when the list changes).
 */
import type { PoolRecord } from './pool-records.js';

/** Orders of the listing: by USD liquidity (largest first) or by discovery (newest first). */
export type PoolSort = 'liquidity' | 'recency';

/** The sort value of a record under `sort` (liquidity null sorts last, as -1). */
export function sortValue(r: PoolRecord, sort: PoolSort): number {
  return sort === 'liquidity' ? (r.liquidityUsd ?? -1) : r.discoveredAt;
}

/** Compares two (value, address) keys: larger values first, then addresses in ascending order. */
function compareKeys(va: number, aa: string, vb: number, ab: string): number {
  if (va !== vb) return vb - va;
  return aa < ab ? -1 : aa > ab ? 1 : 0;
}

/** Sorts `records` in place under `sort`. */
export function sortRecords(records: PoolRecord[], sort: PoolSort): PoolRecord[] {
  return records.sort((x, y) => compareKeys(sortValue(x, sort), x.address, sortValue(y, sort), y.address));
}

/** A decoded cursor: the last record of the previous page. */
export interface PoolCursor {
  readonly sort: PoolSort;
  readonly value: number;
  readonly address: string;
}

/** The cursor after `r` (base64url JSON; opaque to clients). */
export function encodeCursor(r: PoolRecord, sort: PoolSort): string {
  return Buffer.from(JSON.stringify({ s: sort, v: sortValue(r, sort), a: r.address })).toString('base64url');
}

/** Decodes a cursor; null when it is not one this service issued for `sort`. */
export function decodeCursor(raw: string, sort: PoolSort): PoolCursor | null {
  if (raw.length === 0 || raw.length > 512 || !/^[A-Za-z0-9_-]+$/.test(raw)) return null;
  let o: unknown;
  try {
    o = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof o !== 'object' || o === null) return null;
  const { s, v, a } = o as { s?: unknown; v?: unknown; a?: unknown };
  if (s !== sort || typeof v !== 'number' || !Number.isFinite(v) || typeof a !== 'string' || a.length === 0 || a.length > 64) return null;
  return { sort, value: v, address: a };
}

/** One page of sorted records after `cursor` (from the start when null), and the cursor of the next page. */
export function page(sorted: readonly PoolRecord[], sort: PoolSort, cursor: PoolCursor | null, limit: number): { pools: PoolRecord[]; nextCursor: string | null } {
  let start = 0;
  if (cursor !== null) {
    // First record strictly after the cursor's key (binary search: the list is sorted by the same key).
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const r = sorted[mid]!;
      if (compareKeys(sortValue(r, sort), r.address, cursor.value, cursor.address) <= 0) lo = mid + 1;
      else hi = mid;
    }
    start = lo;
  }
  const pools = sorted.slice(start, start + limit);
  const more = start + limit < sorted.length;
  return { pools, nextCursor: more && pools.length > 0 ? encodeCursor(pools[pools.length - 1]!, sort) : null };
}
