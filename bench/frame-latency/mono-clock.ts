/**
 * CLOCK_MONOTONIC readings (`process.hrtime`, the C client's stamps, another process's) on this process's
 * `performance.now()` clock: one offset, read once.
 */

/** performance.now() minus CLOCK_MONOTONIC in ms (both clocks read back to back, the closest pair of 5). */
function offsetMs(): number {
  let best = Infinity;
  let offset = 0;
  for (let i = 0; i < 5; i++) {
    const a = performance.now();
    const m = Number(process.hrtime.bigint()) / 1e6;
    const b = performance.now();
    if (b - a < best) {
      best = b - a;
      offset = (a + b) / 2 - m;
    }
  }
  return offset;
}

const OFFSET_MS = offsetMs();

/** A CLOCK_MONOTONIC time in ns (any process on this machine) as this process's performance.now() ms. */
export function monoNsToNow(ns: bigint | number | string): number {
  return Number(ns) / 1e6 + OFFSET_MS;
}
