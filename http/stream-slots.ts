/**
 * The concurrent-stream stage: an SSE route takes one of the key's stream slots at connect (shared across every
 * stream route; free 1, starter 3, growth 5, pro 10) and gives it back when the stream closes for any reason
 * (client gone, server end, shutdown), or at once when the request ends without opening a stream.
 */
import { streamSlotsOf } from '../engine/limits/table.js';
import type { SlotLease, SlotLimiter } from '../engine/limits/types.js';
import { ApiError } from './errors.js';
import type { RequestContext } from './request-context.js';

/** `Retry-After` of a refused stream: slots free only when another stream of the key closes. */
export const STREAM_SLOT_RETRY_S = 5;

/** Takes a stream slot for the request's key, or throws 429 RATE_LIMITED. Null for callers without a key. */
export type StreamSlotStage = (ctx: RequestContext) => Promise<SlotLease | null>;

/** A lease that holds nothing (internal keys, unlimited). */
const NO_LEASE: SlotLease = { release: () => undefined };

/** The stage over a slot limiter. */
export function streamSlots(slots: SlotLimiter): StreamSlotStage {
  return async (ctx) => {
    const p = ctx.principal;
    if (p.kind !== 'key') return null;
    const limit = streamSlotsOf(p.tier);
    if (limit === Infinity) return NO_LEASE;
    const d = await slots.acquire(`k${p.keyId}`, limit);
    if (d.ok) return d.lease;
    throw new ApiError('RATE_LIMITED', `Too many concurrent streams: ${limit} allowed for the ${p.tier} tier`, {
      details: 'close another stream of this key (every stream route shares the limit)',
      extra: { limit, tier: p.tier, retryAfterSeconds: STREAM_SLOT_RETRY_S },
    });
  };
}
