/**
 * The record images ingest writes to the slab: a fresh image to build into, and the statuses of pools ingest retires
 * (never tradable). Re-exported by `ingest-core.ts`, where they were first defined.
 */
import { PARAM_F64_WORDS, PARAM_U64_WORDS, type RecordFields } from '../adapters/types.js';

/** Record status of a pool whose account the chain no longer has (after a reload); never tradable. */
export const RECORD_STATUS_ABSENT = 0xffff_ffff;

/** Record status of a pool the stream does not watch (over the subscription's byte budget); never tradable. */
export const RECORD_STATUS_UNWATCHED = 0xffff_fffe;

/** A fresh, zeroed record image. */
export function newRecordFields(): RecordFields {
  return {
    status: 0,
    reserveA: 0n,
    reserveB: 0n,
    u64: new Array<bigint>(PARAM_U64_WORDS).fill(0n),
    f64: new Array<number>(PARAM_F64_WORDS).fill(0),
    ext: null,
  };
}
