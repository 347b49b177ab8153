/**
 * Shared parts of the torn-read test (`seqlock.torn.test.ts`): the writer's states and the readers' loops. Every
 * field of a record is derived from one counter `k`, so any mix of two writes breaks an invariant. Test support
 * only; not re-exported from `index.ts`.
 */
import { PARAM_F64_WORDS, PARAM_U64_WORDS } from '../record-fields.js';
import type { RecordFields } from '../record-fields.js';
import { FLAG_TRADABLE } from '../layout.js';
import { newExactSnapshot, newF64Snapshot } from '../pool-snapshot.js';
import type { PoolExactSnapshot, PoolF64Snapshot } from '../pool-snapshot.js';
import type { PoolSlab } from '../pool-slab.js';
import { UnsynchronizedReader } from './unsynchronized-reader.js';

/** reserveA + reserveB of every state. */
export const TORN_TOTAL = 2 ** 40;
/** Pools the writer hammers; readers read them most of the time so that they overlap writes. */
export const TORN_HOT_POOLS = 4;
/** Indices of the control words shared by the test threads (an Int32Array over a small SharedArrayBuffer). */
export const CTL_STOP = 0;

/** Mint ids given to pool `p` (checked by readers: proves identity fields are visible after growth). */
export function tornMints(p: number): { mintA: number; mintB: number } {
  return { mintA: p, mintB: p + 1000 };
}

/** A reusable RecordFields for the writer. */
export function newTornFields(): RecordFields {
  return {
    status: 0,
    reserveA: 0n,
    reserveB: 0n,
    u64: Array.from({ length: PARAM_U64_WORDS }, () => 0n),
    f64: Array.from({ length: PARAM_F64_WORDS }, () => 0),
  };
}

/** Fills `out` with state `k` (k >= 1). Returns the confirmed flag that goes with it. */
export function tornState(k: number, out: RecordFields): boolean {
  out.status = k % 3 === 0 ? 0 : 1;
  out.reserveA = BigInt(k);
  out.reserveB = BigInt(TORN_TOTAL - k);
  for (let i = 0; i < PARAM_U64_WORDS; i++) out.u64[i] = BigInt(k + i);
  for (let i = 0; i < PARAM_F64_WORDS; i++) out.f64[i] = k * (i + 2);
  return (k & 1) === 1;
}

/** True when a float snapshot of pool `p` is one whole state. */
export function f64Consistent(p: number, s: PoolF64Snapshot): boolean {
  const k = s.reserveA;
  if (s.reserveB !== TORN_TOTAL - k || s.slot !== k || s.updatedAtMs !== k + 0.5) return false;
  if (s.status !== (k % 3 === 0 ? 0 : 1) || ((s.flags & FLAG_TRADABLE) !== 0) !== (s.status === 0)) return false;
  if (s.confirmed !== ((k & 1) === 1)) return false;
  if (s.mintA !== p || s.mintB !== p + 1000 || s.dex !== p % 12) return false;
  for (let i = 0; i < PARAM_F64_WORDS; i++) if (s.f64[i] !== k * (i + 2)) return false;
  return true;
}

/** True when an exact snapshot of pool `p` is one whole state. */
export function exactConsistent(p: number, s: PoolExactSnapshot): boolean {
  const k = s.reserveA;
  if (s.reserveB !== BigInt(TORN_TOTAL) - k || s.slot !== k || s.reserveAF64 !== Number(k)) return false;
  if (s.reserveBF64 !== TORN_TOTAL - Number(k) || s.updatedAtMs !== Number(k) + 0.5) return false;
  if (s.mintA !== p || s.mintB !== p + 1000) return false;
  for (let i = 0; i < PARAM_U64_WORDS; i++) if (s.u64[i] !== k + BigInt(i)) return false;
  for (let i = 0; i < PARAM_F64_WORDS; i++) if (s.f64[i] !== Number(k) * (i + 2)) return false;
  return true;
}

/** What one reader observed in one phase. */
export interface TornCounts {
  reads: number;
  torn: number;
  /** Reads that found the record not yet written (not counted as torn). */
  unwritten: number;
  /** Of `reads`, how many were exact (BigInt) reads. */
  exactReads: number;
  /** Highest pool index read (shows reads of pools added, and the buffer grown, during the run). */
  maxPool: number;
}

/** Picks the pool for read `i`: mostly the hot pools, every 16th read any published pool. */
function pickPool(i: number, count: number): number {
  return (i & 15) === 15 ? (i >>> 4) % count : i % TORN_HOT_POOLS;
}

/** Reads through the seqlock for `ms` milliseconds (every 8th read exact); counts torn snapshots. */
export function readSeqlocked(slab: PoolSlab, ms: number): TornCounts {
  const c: TornCounts = { reads: 0, torn: 0, unwritten: 0, exactReads: 0, maxPool: 0 };
  const f = newF64Snapshot();
  const e = newExactSnapshot();
  const end = performance.now() + ms;
  let count = slab.count();
  for (let i = 0; ; i++) {
    if ((i & 4095) === 0) {
      if (performance.now() >= end) break;
      count = slab.count();
    }
    const p = pickPool(i, count);
    const view = (i >>> 1) & 1;
    if (p > c.maxPool) c.maxPool = p;
    c.reads++;
    if ((i & 7) === 7) {
      c.exactReads++;
      if (!slab.readExact(p, view, e)) c.unwritten++;
      else if (!exactConsistent(p, e)) c.torn++;
    } else if (!slab.readF64(p, view, f)) c.unwritten++;
    else if (!f64Consistent(p, f)) c.torn++;
  }
  return c;
}

/** The negative control: the same loads without the seqlock for `ms` milliseconds; counts torn snapshots. */
export function readUnsynchronized(slab: PoolSlab, ms: number): TornCounts {
  const c: TornCounts = { reads: 0, torn: 0, unwritten: 0, exactReads: 0, maxPool: 0 };
  const raw = new UnsynchronizedReader(slab.sab);
  const f = newF64Snapshot();
  const end = performance.now() + ms;
  let count = slab.count();
  for (let i = 0; ; i++) {
    if ((i & 4095) === 0) {
      if (performance.now() >= end) break;
      count = slab.count();
    }
    const p = pickPool(i, count);
    if (p > c.maxPool) c.maxPool = p;
    c.reads++;
    if (!raw.readF64(p, (i >>> 1) & 1, f)) c.unwritten++;
    else if (!f64Consistent(p, f)) c.torn++;
  }
  return c;
}
