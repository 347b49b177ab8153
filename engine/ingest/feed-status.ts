/**
 * The freshness of the live feed, as ingest reports it and as `/health` judges it. Times are epoch ms taken by
 * the ingest thread; ages are computed by the reader at the moment it answers, so a report that stops arriving
 * (a hung thread) still ages.
 */

/** What ingest reports about its feed. */
export interface FeedStatus {
  /** Every Geyser stream is subscribed now. */
  readonly connected: boolean;
  /**
   * Last account update or slot status received (pings and pongs do not count); 0 before the first. With several
   * streams, the oldest of each stream's last (a pool is as fresh as the stream that carries it).
   */
  readonly lastUpdateAtMs: number;
  /** Newest slot ingest has reported processed; with several streams, the slowest stream's. */
  readonly processedSlot: bigint;
  /** The chain's processed slot from the newest successful RPC poll (0 before the first). */
  readonly chainSlot: bigint;
  /** When that poll's answer arrived (0 before the first). */
  readonly chainSlotAtMs: number;
  /** When ingest's processed slot last moved forward (0 before). */
  readonly slotAdvancedAtMs: number;
  /** A resync (every watched account re-read over RPC) is owed and not done yet. */
  readonly resyncPending: boolean;
  /** Failed resync attempts since the last success. */
  readonly resyncFailures: number;
  /** Resyncs completed since start. */
  readonly resyncs: number;
  /** The chain went backwards or was replaced: ingest is reloading every account. */
  readonly reloading: boolean;
  /** Reloads completed since start. */
  readonly reloads: number;
  /**
   * Pools the stream does not watch: their addresses did not fit the Subscribe request's byte budget, so they are
   * written as not tradable (never served as live). Absent: 0.
   */
  readonly unwatchedPools?: number;
  /** Subscribe streams open: the primary and the overflow streams (absent: 1). */
  readonly streams?: number;
  /** Of those, subscribed now (`connected` is true when all are). */
  readonly streamsConnected?: number;
}

/** Bounds beyond which the feed is not fresh. */
export interface FreshnessBounds {
  /** Slots ingest may trail the chain's processed slot. */
  readonly maxSlotLag: number;
  /** Age of the last update beyond which a feed that is not known to be level with the chain is stale. */
  readonly maxUpdateAgeMs: number;
  /** Age of the last RPC poll beyond which the chain's slot is unknown. */
  readonly maxChainAgeMs: number;
}

/** Default bounds (documented in the README: `HEALTH_MAX_SLOT_LAG`, `HEALTH_MAX_UPDATE_AGE_MS`). */
export const DEFAULT_FRESHNESS: FreshnessBounds = { maxSlotLag: 20, maxUpdateAgeMs: 10_000, maxChainAgeMs: 10_000 };

/** Why the feed is not fresh. */
export type StaleReason = 'reloading' | 'resyncing' | 'slot-lag' | 'stream-silent' | 'no-feed';

/** The judgement of one {@link FeedStatus} at one moment. */
export interface FeedAssessment {
  readonly fresh: boolean;
  readonly reason?: StaleReason;
  /** Human-readable detail of the reason. */
  readonly detail?: string;
  /** Slots behind the chain (null while the chain's slot is unknown). */
  readonly slotLag: number | null;
  /** ms since the last update (null before the first). */
  readonly lastUpdateAgeMs: number | null;
  /** ms since the chain's slot was last read (null before the first). */
  readonly chainSlotAgeMs: number | null;
}

/**
 * Judges a feed: stale while reloading or owing a resync, when it trails the chain by more than `maxSlotLag`, or
 * when it has been silent longer than `maxUpdateAgeMs` unless a recent poll shows it level with the chain (a chain
 * that makes no new slot leaves a level feed silent, and its data is still the chain's).
 */
export function assessFeed(s: FeedStatus, nowMs: number, b: FreshnessBounds = DEFAULT_FRESHNESS): FeedAssessment {
  const lastUpdateAgeMs = s.lastUpdateAtMs > 0 ? Math.max(0, nowMs - s.lastUpdateAtMs) : null;
  const chainSlotAgeMs = s.chainSlotAtMs > 0 ? Math.max(0, nowMs - s.chainSlotAtMs) : null;
  const chainKnown = chainSlotAgeMs !== null && chainSlotAgeMs <= b.maxChainAgeMs;
  const slotLag = s.chainSlot > 0n ? Math.max(0, Number(s.chainSlot - s.processedSlot)) : null;
  const base = { slotLag, lastUpdateAgeMs, chainSlotAgeMs };
  if (s.reloading) return { ...base, fresh: false, reason: 'reloading', detail: 'the chain went backwards or was replaced; every account is being reloaded' };
  if (s.resyncPending) {
    const tries = s.resyncFailures > 0 ? ` (${s.resyncFailures} failed attempts so far)` : '';
    return { ...base, fresh: false, reason: 'resyncing', detail: `accounts missed while the stream was away are being re-read${tries}` };
  }
  if (chainKnown && slotLag !== null && slotLag > b.maxSlotLag) {
    return { ...base, fresh: false, reason: 'slot-lag', detail: `${slotLag} slots behind the chain (bound ${b.maxSlotLag})` };
  }
  if (lastUpdateAgeMs === null) return { ...base, fresh: false, reason: 'no-feed', detail: 'no update received from the stream yet' };
  if (lastUpdateAgeMs > b.maxUpdateAgeMs) {
    const level = chainKnown && slotLag === 0;
    if (!level) {
      const chain = chainKnown ? `the chain is ${slotLag} slots ahead` : 'the chain cannot be reached to check';
      return { ...base, fresh: false, reason: 'stream-silent', detail: `no update for ${lastUpdateAgeMs} ms (bound ${b.maxUpdateAgeMs}) and ${chain}` };
    }
  }
  return { ...base, fresh: true };
}
