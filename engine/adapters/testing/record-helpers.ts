/**
 * Helpers the adapters' tests share: a record image to fill, the float view of a state as the slab would hand it
 * to float readers (extension included), and the exact-in output of a quote (0 when not OK).
 */
import { PARAM_F64_WORDS, PARAM_U64_WORDS, type DexAdapter, type RecordF64, type RecordFields } from '../types.js';

/** A record image filled with a marker value (7), so a test sees which words `toRecord` leaves untouched. */
export function emptyRecord(): RecordFields {
  return { status: -1, reserveA: 0n, reserveB: 0n, u64: new Array<bigint>(PARAM_U64_WORDS).fill(7n), f64: new Array<number>(PARAM_F64_WORDS).fill(7), ext: null };
}

/** The float view float readers get of `state` (`toRecord`, then the slab's f64 mirrors). */
export function floatRecordOf<S>(adapter: DexAdapter<S>, state: S): RecordF64 {
  const rec: RecordFields = { status: 0, reserveA: 0n, reserveB: 0n, u64: new Array<bigint>(PARAM_U64_WORDS).fill(0n), f64: new Array<number>(PARAM_F64_WORDS).fill(0), ext: null };
  adapter.toRecord(state, rec);
  return {
    status: rec.status,
    reserveA: Number(rec.reserveA),
    reserveB: Number(rec.reserveB),
    f64: Float64Array.from(rec.f64),
    ext: rec.ext ? Float64Array.from(rec.ext.f64) : null,
  };
}

/** The exact-in output of `amountIn`, 0 when the quote is not OK. */
export function exactOutOf<S>(adapter: DexAdapter<S>, state: S, aToB: boolean, amountIn: bigint): bigint {
  const q = adapter.quote(state, aToB, amountIn, 'ExactIn');
  return q.status === 'OK' ? q.outAmount : 0n;
}
