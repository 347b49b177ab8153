/**
 * Watches the chain itself over RPC, beside the Geyser stream: polls the processed slot (the lag the stream has
 * behind the chain, and the {@link SlotTimeline} that dates states) and the genesis hash (a replaced chain).
 * Independent of the stream on purpose: a stalled or lagging stream cannot vouch for its own freshness.
 */
import type { RpcClient } from '../chain/rpc-client.js';
import { SlotTimeline } from './slot-timeline.js';

/** Options of {@link ChainWatch}. */
export interface ChainWatchOptions {
  /** A client for the polls: no retries, a short timeout (a poll that fails is simply missed). */
  readonly rpc: RpcClient;
  /** Poll period; default 200 ms. */
  readonly pollMs?: number;
  /** Genesis hash check period; default 30 s (also checked on demand). */
  readonly genesisCheckMs?: number;
  /** Called after each successful poll. */
  readonly onSlot?: (tip: bigint, sentAtMs: number) => void;
  /** Called when the genesis hash differs from the first one read. */
  readonly onGenesisChanged?: (previous: string, current: string) => void;
  readonly now?: () => number;
}

/** The chain's slot and identity, polled. */
export class ChainWatch {
  readonly timeline = new SlotTimeline();
  /** Newest tip polled, and when its answer arrived. */
  tip = 0n;
  tipAtMs = 0;
  /** Failed polls since start. */
  failures = 0;
  genesisHash: string | undefined;
  private timer: NodeJS.Timeout | null = null;
  private genesisTimer: NodeJS.Timeout | null = null;
  private inflight = false;
  private readonly now: () => number;

  constructor(private readonly o: ChainWatchOptions) {
    this.now = o.now ?? Date.now;
  }

  /** Starts polling (the first poll at once). */
  start(): void {
    if (this.timer) return;
    void this.poll();
    this.timer = setInterval(() => void this.poll(), this.o.pollMs ?? 200);
    this.timer.unref();
    this.genesisTimer = setInterval(() => void this.checkGenesis(), this.o.genesisCheckMs ?? 30_000);
    this.genesisTimer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.genesisTimer) clearInterval(this.genesisTimer);
    this.timer = this.genesisTimer = null;
  }

  /** Forgets the tip and the timeline (after a reload the old chain's slots mean nothing). */
  reset(): void {
    this.timeline.reset();
    this.tip = 0n;
    this.tipAtMs = 0;
  }

  /** One poll of the processed slot; overlapping polls are skipped. */
  async poll(): Promise<void> {
    if (this.inflight) return;
    this.inflight = true;
    const sentAtMs = this.now();
    try {
      const tip = await this.o.rpc.getSlot('processed');
      this.timeline.observe(tip, sentAtMs);
      this.tip = tip;
      this.tipAtMs = this.now();
      this.o.onSlot?.(tip, sentAtMs);
    } catch {
      this.failures++;
    } finally {
      this.inflight = false;
    }
  }

  /**
   * Reads the genesis hash: the first read is kept; a later different one is reported (and becomes the one kept).
   * Returns whether it changed. A failed read changes nothing.
   */
  async checkGenesis(): Promise<boolean> {
    let h: string;
    try {
      h = await this.o.rpc.getGenesisHash();
    } catch {
      return false;
    }
    const prev = this.genesisHash;
    this.genesisHash = h;
    if (prev !== undefined && prev !== h) {
      this.o.onGenesisChanged?.(prev, h);
      return true;
    }
    return false;
  }
}
