/**
 * The array region's torn-read test (`array-slab.torn.test.ts`): a writer thread rewrites pools' arrays in groups,
 * frees and reallocates arrays (reuse), and allocates more records (growth); readers read every listed array in
 * place. Every data word of every array of one group derives from one counter `k`, so a read that mixes two groups,
 * two writes of one record, or a reused record breaks an invariant. Test support only.
 */
import { ArraySlab } from '../array-slab.js';

/** Control words: [0] stop flag, [1 + p] directory of pool p. */
export const ARRAY_CTL_STOP = 0;
/** Pools the writer rewrites. */
export const ARRAY_TORN_POOLS = 4;
/** Arrays listed per pool. */
export const ARRAY_TORN_ARRAYS = 3;
/** Data words per record of the test region. */
export const ARRAY_TORN_WORDS = 48;

/** What one reader observed. */
export interface ArrayTornCounts {
  /** Group reads that validated (or, for the control, every read). */
  reads: number;
  torn: number;
  /** Reads abandoned because a group was open when they began. */
  busy: number;
  /** Highest record index read (shows reads of records allocated, and the region grown, during the run). */
  maxRecord: number;
}

/** Writes pool `p`'s group `k`: every listed array's words, the list (with one array replaced every 8th k). */
export function writeGroup(slab: ArraySlab, dir: number, p: number, k: number, listed: number[]): void {
  slab.beginGroup(dir);
  if (k % 8 === 0) {
    // Replace the first array: another allocated (a record freed earlier, or a new one past the region's first
    // records when the ballast took the freed ones), then the old one freed (its generation moves).
    const old = listed.shift()!;
    listed.push(slab.alloc(p, 1, new Uint8Array(32).fill(p), (k * 7919) % 100_000));
    slab.free(old);
  }
  for (const r of listed) {
    const s = slab.beginWrite(r);
    const d = slab.dataWord(r);
    const f = slab.f64;
    for (let w = 0; w < ARRAY_TORN_WORDS; w++) f[d + w] = k * 1000 + w;
    slab.endWrite(r, s, BigInt(k), ARRAY_TORN_WORDS);
  }
  slab.list(listed);
  slab.endGroup(BigInt(k));
}

/** Reads pool `dir`'s listed arrays; true when they form one group's state. `count` bounds record indices. */
function groupConsistent(slab: ArraySlab, dir: number, count: number, c: ArrayTornCounts): boolean {
  const n = slab.dirLength(dir);
  if (n !== ARRAY_TORN_ARRAYS) return false;
  let k0 = -1;
  let lastStart = -Infinity;
  const f = slab.f64;
  for (let i = 0; i < n; i++) {
    const r = slab.dirRecord(dir, i);
    if (r < 0 || r >= count) return false;
    if (r > c.maxRecord) c.maxRecord = r;
    if (!slab.entryLive(dir, i)) return false;
    const start = slab.dirStartIndex(dir, i);
    if (start < lastStart) return false;
    lastStart = start;
    const d = slab.dataWord(r);
    const k = Math.floor(f[d]! / 1000);
    if (k0 === -1) k0 = k;
    else if (k !== k0) return false;
    for (let w = 0; w < ARRAY_TORN_WORDS; w++) if (f[d + w] !== k * 1000 + w) return false;
  }
  return true;
}

/** Reads through the directories' group locks for `ms`; counts torn group reads. */
export function readGroups(slab: ArraySlab, dirs: readonly number[], ms: number, validate: boolean): ArrayTornCounts {
  const c: ArrayTornCounts = { reads: 0, torn: 0, busy: 0, maxRecord: 0 };
  const end = performance.now() + ms;
  let count = slab.count();
  for (let i = 0; ; i++) {
    if ((i & 1023) === 0) {
      if (performance.now() >= end) break;
      count = slab.count();
    }
    const dir = dirs[i % dirs.length]!;
    if (!validate) {
      c.reads++;
      if (!groupConsistent(slab, dir, count, c)) c.torn++;
      continue;
    }
    const s = slab.dirBegin(dir);
    if (ArraySlab.odd(s)) {
      c.busy++;
      continue;
    }
    const ok = groupConsistent(slab, dir, count, c);
    if (!slab.dirValid(dir, s)) continue;
    c.reads++;
    if (!ok) c.torn++;
  }
  return c;
}
