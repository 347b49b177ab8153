/**
 * The Clock sysvar: its address and decoder (slot @0, epoch @16, unix_timestamp i64 @32).
 */
import type { ChainClock } from '../adapters/types.js';

/** Address of the Clock sysvar. */
export const CLOCK_SYSVAR = 'SysvarC1ock11111111111111111111111111111111';

/** Decodes the Clock sysvar account. */
export function decodeClock(data: Uint8Array): ChainClock {
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return { slot: dv.getBigUint64(0, true), epoch: dv.getBigUint64(16, true), unixTimestamp: dv.getBigInt64(32, true) };
}
