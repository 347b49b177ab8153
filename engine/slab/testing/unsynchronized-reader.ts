/**
 * The negative control of the seqlock: the same field loads as `PoolSlab.readF64`, without the sequence checks.
 * Only for the torn-read test (which must see it tear, proving the test can fail) and the read benchmark (the cost
 * of the seqlock). Never use it to read live data; it is deliberately not re-exported from `index.ts`.
 */
import { PARAM_F64_WORDS } from '../record-fields.js';
import { FLAG_CONFIRMED, FLAG_WRITTEN, REC, recordOffset } from '../layout.js';
import type { PoolF64Snapshot } from '../pool-snapshot.js';

const R16_DEX = REC.dex >> 1;
const R16_FLAGS = REC.flags >> 1;
const R32_MINT_A = REC.mintA >> 2;
const R32_MINT_B = REC.mintB >> 2;
const R32_STATUS = REC.status >> 2;
const R32_SLOT_LO = REC.slot >> 2;
const R64_UPDATED = REC.updatedAtMs >> 3;
const R64_RESERVE_A_F64 = REC.reserveAF64 >> 3;
const R64_RESERVE_B_F64 = REC.reserveBF64 >> 3;
const R64_PARAM_F64 = REC.paramF64 >> 3;
const TWO_POW_32 = 4294967296;

/** Reads pool records without the seqlock (test and benchmark use only: results may be torn). */
export class UnsynchronizedReader {
  private readonly u32: Uint32Array;
  private readonly u16: Uint16Array;
  private readonly f64: Float64Array;

  /**
   * Views over a pool slab's buffer (`PoolSlab.sab`). `lengthTracking` builds them without a length (they follow
   * growth); otherwise they are fixed to the current length (as `PoolSlab` does) and the caller must bound `pool`
   * by the pools that length holds.
   */
  constructor(sab: SharedArrayBuffer, lengthTracking = true) {
    const bytes = lengthTracking ? undefined : sab.byteLength;
    this.u32 = bytes === undefined ? new Uint32Array(sab) : new Uint32Array(sab, 0, bytes >> 2);
    this.u16 = bytes === undefined ? new Uint16Array(sab) : new Uint16Array(sab, 0, bytes >> 1);
    this.f64 = bytes === undefined ? new Float64Array(sab) : new Float64Array(sab, 0, bytes >> 3);
  }

  /** `PoolSlab.readF64` without the sequence checks: same loads, same `out` fields, possibly torn. */
  readF64(pool: number, view: number, out: PoolF64Snapshot): boolean {
    const b = recordOffset(pool, view);
    const w = b >> 2;
    const q = b >> 3;
    const u32 = this.u32;
    const f64 = this.f64;
    const outF64 = out.f64;
    out.dex = this.u16[(b >> 1) + R16_DEX]!;
    out.mintA = u32[w + R32_MINT_A]!;
    out.mintB = u32[w + R32_MINT_B]!;
    const flags = this.u16[(b >> 1) + R16_FLAGS]!;
    out.status = u32[w + R32_STATUS]!;
    out.reserveA = f64[q + R64_RESERVE_A_F64]!;
    out.reserveB = f64[q + R64_RESERVE_B_F64]!;
    out.slot = u32[w + R32_SLOT_LO]! + u32[w + R32_SLOT_LO + 1]! * TWO_POW_32;
    out.updatedAtMs = f64[q + R64_UPDATED]!;
    for (let i = 0; i < PARAM_F64_WORDS; i++) outF64[i] = f64[q + R64_PARAM_F64 + i]!;
    out.flags = flags;
    out.confirmed = (flags & FLAG_CONFIRMED) !== 0;
    return (flags & FLAG_WRITTEN) !== 0;
  }
}
