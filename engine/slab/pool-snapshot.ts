/**
 * Caller-owned snapshot objects that the pool slab's readers fill in place (one per reader, reused per read).
 */
import { PARAM_F64_WORDS, PARAM_U64_WORDS } from './record-fields.js';
import type { RecordExt, RecordF64, RecordFields } from './record-fields.js';

/** Float view of one pool record, filled by `PoolSlab.readF64` without allocating; usable as a `RecordF64`. */
export interface PoolF64Snapshot extends RecordF64 {
  /** 0 when the pool can trade, otherwise an adapter-defined reason it cannot. */
  status: number;
  /** Record flags (`FLAG_CONFIRMED`, `FLAG_TRADABLE`, `FLAG_WRITTEN`). */
  flags: number;
  /** True when the slot that wrote the record is confirmed. */
  confirmed: boolean;
  /** Index of the pool's DEX in `DEX_IDS`. */
  dex: number;
  /** Mint table ids of token A and token B. */
  mintA: number;
  mintB: number;
  /** Reserves in atomic units as f64 (exact below 2^53). */
  reserveA: number;
  reserveB: number;
  /** Slot that wrote the record, as a number (exact below 2^53). */
  slot: number;
  /** Wall-clock time the update was applied, in ms since the epoch. */
  updatedAtMs: number;
  /** Adapter f64 parameter words (length `PARAM_F64_WORDS`), copied in place. */
  readonly f64: Float64Array;
  /** Float words of the record's extension (a shared, immutable view), or null. */
  ext: Float64Array | null;
}

/** Exact view of one pool record, filled by `PoolSlab.readExact`; usable as a `RecordFields`. */
export interface PoolExactSnapshot extends RecordFields {
  status: number;
  /** Record flags (`FLAG_CONFIRMED`, `FLAG_TRADABLE`, `FLAG_WRITTEN`). */
  flags: number;
  /** True when the slot that wrote the record is confirmed. */
  confirmed: boolean;
  /** Index of the pool's DEX in `DEX_IDS`. */
  dex: number;
  /** Mint table ids of token A and token B. */
  mintA: number;
  mintB: number;
  /** Reserves in atomic units. */
  reserveA: bigint;
  reserveB: bigint;
  /** The f64 mirrors of the reserves, as stored. */
  reserveAF64: number;
  reserveBF64: number;
  /** Slot that wrote the record. */
  slot: bigint;
  /** Wall-clock time the update was applied, in ms since the epoch. */
  updatedAtMs: number;
  /** Adapter u64 parameter words (length `PARAM_U64_WORDS`), overwritten in place. */
  readonly u64: bigint[];
  /** Adapter f64 parameter words (length `PARAM_F64_WORDS`), overwritten in place. */
  readonly f64: number[];
  /** The record's extension (a fresh object per read), or null. */
  ext: RecordExt | null;
}

/** A fresh, zeroed {@link PoolF64Snapshot} to reuse across reads. */
export function newF64Snapshot(): PoolF64Snapshot {
  return {
    status: 0,
    flags: 0,
    confirmed: false,
    dex: 0,
    mintA: 0,
    mintB: 0,
    reserveA: 0,
    reserveB: 0,
    slot: 0,
    updatedAtMs: 0,
    f64: new Float64Array(PARAM_F64_WORDS),
    ext: null,
  };
}

/** A fresh, zeroed {@link PoolExactSnapshot} to reuse across reads. */
export function newExactSnapshot(): PoolExactSnapshot {
  return {
    status: 0,
    flags: 0,
    confirmed: false,
    dex: 0,
    mintA: 0,
    mintB: 0,
    reserveA: 0n,
    reserveB: 0n,
    reserveAF64: 0,
    reserveBF64: 0,
    slot: 0n,
    updatedAtMs: 0,
    u64: Array.from({ length: PARAM_U64_WORDS }, () => 0n),
    f64: Array.from({ length: PARAM_F64_WORDS }, () => 0),
    ext: null,
  };
}
