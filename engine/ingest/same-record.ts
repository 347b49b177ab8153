/**
 * Whether a rebuilt record image equals the one a pool already holds: a Clock update rebuilds the clock-bound
 * pools (not open yet, fee schedulers) every slot, and most slots change nothing in them. Writing the same
 * image again would relabel unchanged data as new, wake every reader and queue a confirmation for nothing.
 */
import type { RecordExt, RecordFields } from '../adapters/types.js';

/** True when `a` and `b` hold the same status, reserves, parameter words, float mirrors and extension. */
export function sameRecordFields(a: RecordFields, b: RecordFields): boolean {
  if (a.status !== b.status || a.reserveA !== b.reserveA || a.reserveB !== b.reserveB) return false;
  if (!sameWords(a.u64, b.u64) || !sameFloats(a.f64, b.f64)) return false;
  return sameExt(a.ext ?? null, b.ext ?? null);
}

function sameExt(a: RecordExt | null, b: RecordExt | null): boolean {
  if (a === null || b === null) return a === b;
  return sameWords(a.u64, b.u64) && sameFloats(a.f64, b.f64);
}

function sameWords(a: readonly bigint[], b: readonly bigint[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameFloats(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  // Object.is: NaN equals NaN, and 0 differs from -0 (a sign an adapter may mean).
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}
