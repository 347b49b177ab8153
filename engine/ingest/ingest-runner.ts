/**
 * The I/O side of ingest: the startup snapshot over RPC, then the Geyser streams, with reconnect (backoff and
 * `from_slot`), keep-alive pings, silence detection, and re-subscription when new pools bring new accounts. When the
 * accounts listed by address outgrow one request's budget, pools go to overflow streams (up to `maxStreams`), each
 * with its own connection, resume point and recovery.
 * Recovery: a resume point gone from the server's replay window (told by the gRPC status code) means subscribing
 * from the present and re-reading that stream's accounts, retried with backoff until it succeeds; a chain that
 * went backwards or was replaced (slots far below what is held, a new genesis hash) is reloaded from scratch.
 */
import type { DexAdapter } from '../adapters/types.js';
import type { GeyserTransport } from '../chain/geyser-transport.js';
import { isResumePointGone } from '../chain/grpc-status.js';
import type { RpcClient } from '../chain/rpc-client.js';
import type { SubscribeRequest, SubscribeUpdate } from '../chain/yellowstone.js';
import type { ChainWatch } from './chain-watch.js';
import { CLOCK_SYSVAR } from './clock.js';
import type { FeedStatus } from './feed-status.js';
import { applyGeyserUpdate } from './geyser-update.js';
import { REGRESSION_SLOTS, type IngestCore } from './ingest-core.js';
import { SnapshotLoader } from './snapshot-loader.js';
import { StreamLink, type StreamEnd, type StreamLinkHost, type StreamLinkStats } from './stream-link.js';
import { buildSubscribeRequest, subscribeRequestBytes } from './subscription.js';
import { DEFAULT_MAX_STREAMS, PRIMARY_STREAM, SUBSCRIBE_ADDRESS_BUDGET_BYTES, type WatchPlan } from './watch-plan.js';

/** Log sink of the runner. */
export type IngestLog = (level: 'debug' | 'info' | 'warn' | 'error', msg: string, ctx?: Record<string, unknown>) => void;

/** Default bound on holding a pool for the rest of its transaction's writes: 100 ms (another transaction or a slot status releases it sooner). */
export const DEFAULT_HELD_MAX_MS = 100;

/** Wiring of {@link IngestRunner}. */
export interface IngestRunnerOptions {
  readonly rpc: RpcClient;
  /** Creates a fresh transport for each (re)connection. */
  readonly connect: () => Promise<GeyserTransport>;
  readonly core: IngestCore;
  readonly adapters: readonly DexAdapter[];
  /**
   * Longest a pool is held for the rest of its transaction's writes (ms; default {@link DEFAULT_HELD_MAX_MS}). A
   * write of another transaction or a slot status releases it at once.
   */
  readonly heldMaxMs?: number;
  /** The chain watch (slot polls, genesis hash); without it there is no lag measure and no regression check. */
  readonly chain?: ChainWatch;
  readonly log?: IngestLog;
  readonly pingIntervalMs?: number;
  /** A stream silent this long is treated as dropped. */
  readonly silenceMs?: number;
  readonly backoffInitialMs?: number;
  readonly backoffMaxMs?: number;
  /** Resync retry backoff: first delay and cap (default 250 ms, 10 s). */
  readonly resyncBackoffInitialMs?: number;
  readonly resyncBackoffMaxMs?: number;
  /** How long both signs of a chain gone backwards must persist before a reload; default 2,000 ms. */
  readonly regressionConfirmMs?: number;
  /** Called once the snapshot is applied. */
  readonly onReady?: () => void;
  /**
   * Byte budget of the addresses listed in one Subscribe request (default {@link SUBSCRIBE_ADDRESS_BUDGET_BYTES}):
   * pools beyond it go to an overflow stream, and beyond the last stream are not watched and not tradable.
   */
  readonly addressBudgetBytes?: number;
  /** Most Subscribe streams, the primary included (default {@link DEFAULT_MAX_STREAMS}; 1: no overflow stream). */
  readonly maxStreams?: number;
}

/** Stream and recovery statistics. */
export interface IngestRunnerStats {
  connects: number;
  reconnects: number;
  messages: number;
  /** Any message, pongs included (silence detection). */
  lastMessageAtMs: number;
  /** Account updates and slot statuses only (freshness). */
  lastUpdateAtMs: number;
  connected: boolean;
  resyncs: number;
  resyncFailures: number;
  resyncPending: boolean;
  reloads: number;
  reloading: boolean;
  /** Encoded size of the last Subscribe request sent (bytes). */
  requestBytes: number;
  /** Accounts it lists by address. */
  listedAccounts: number;
  /** Pool dependencies left to the vault authority filters (not listed). */
  streamedByAuthority: number;
  /** What listing those too would have added to the request (bytes). */
  streamedBytes: number;
  /** Pools not watched: their addresses fit no stream's budget (not tradable). */
  unwatchedPools: number;
  /** Streams open (the primary and the overflow streams the plan needs). */
  streams: number;
  /** Of those, subscribed now. */
  streamsConnected: number;
}

type Owed = 'accounts' | 'reload';

/** Snapshot then stream, until stopped. */
export class IngestRunner {
  readonly stats: IngestRunnerStats = {
    connects: 0,
    reconnects: 0,
    messages: 0,
    lastMessageAtMs: 0,
    lastUpdateAtMs: 0,
    connected: false,
    resyncs: 0,
    resyncFailures: 0,
    resyncPending: false,
    reloads: 0,
    reloading: false,
    requestBytes: 0,
    listedAccounts: 0,
    streamedByAuthority: 0,
    streamedBytes: 0,
    unwatchedPools: 0,
    streams: 0,
    streamsConnected: 0,
  };
  private stopped = false;
  private started = false;
  /** The streams, by number: the primary first, then the overflow streams the plan opened. */
  private readonly links: StreamLink[] = [];
  private readonly loader: SnapshotLoader;
  private fetching = false;
  private pingId = 1;
  /** Where a stream opened now starts (`from_slot`): the snapshot's lowest slot at start, later the processed slot. */
  private firstSlot = 0n;
  /** The recovery owed (a resync of some streams, or a full reload). */
  private owed: Owed | null = null;
  /** Streams owing a resync, each with the epoch it was owed at. */
  private readonly owedStreams = new Map<number, number>();
  private resyncRunning = false;
  /**
   * Bumped by each recovery owed: a request made during a run repeats it, and a subscription records the value it
   * was made under, so a recovery reads only once the streams it covers were subscribed after it was owed (no write
   * between the read and the stream can be lost).
   */
  private epoch = 0;
  /** Since when the chain has looked like it went backwards (0: it does not). */
  private regressionSinceMs = 0;
  private timers: NodeJS.Timeout[] = [];
  private readonly log: IngestLog;
  /** The last watch plan and what it was computed from (recomputed when pools or accounts were added). */
  private plan: WatchPlan | null = null;
  private planKey = '';
  private readonly host: StreamLinkHost;

  constructor(private readonly o: IngestRunnerOptions) {
    this.log = o.log ?? (() => undefined);
    this.loader = new SnapshotLoader(o.rpc, o.core, o.adapters);
    this.host = {
      connect: () => this.o.connect(),
      beforeConnect: async (stream) => {
        // A replaced chain is noticed on (re)connect too, before resuming into a history that is not there.
        if (stream === PRIMARY_STREAM && this.o.chain && (await this.o.chain.checkGenesis())) this.reload('genesis hash changed');
      },
      request: (stream, fromSlot) => this.request(stream, fromSlot),
      epoch: () => this.epoch,
      onUpdate: (stream, u) => this.onUpdate(stream, u),
      onSubscribed: (stream, transport, fromSlot) => this.onSubscribed(stream, transport, fromSlot),
      onEnded: (stream, end, fromSlot) => this.onEnded(stream, end, fromSlot),
      log: (level, msg, ctx) => this.log(level, msg, ctx),
    };
  }

  /** Accounts that newly discovered pools need (wired to the core's `onMissingAccounts`). */
  noteMissing(addresses: readonly string[]): void {
    for (const a of addresses) this.loader.missing.add(a);
    if (this.primaryLive) void this.fetchMissing();
  }

  /** Pools whose mints are known only from the token accounts they own (the core's `onMissingOwnedTokenAccounts`). */
  noteMissingOwners(owners: readonly string[]): void {
    for (const o of owners) this.loader.missingOwners.add(o);
    if (this.primaryLive) void this.fetchMissing();
  }

  /** Statistics of each stream, by number (diagnostics and tests). */
  streamStats(): readonly StreamLinkStats[] {
    return this.links.map((l) => l.stats);
  }

  /** The stream a pool's accounts are on (0: the primary), or undefined when the pool is not known or not placed. */
  streamOf(poolAddress: string): number | undefined {
    return this.o.core.registry.get(poolAddress)?.stream;
  }

  /** Drops stream `stream`'s subscription (it reconnects; the others are untouched). For tests and operators. */
  dropStream(stream: number): void {
    this.links[stream]?.drop();
  }

  /** Loads the snapshot, then streams until {@link stop}. Resolves once the snapshot is applied. */
  async start(): Promise<void> {
    if (this.o.chain) {
      this.o.chain.start();
      await this.o.chain.checkGenesis();
    }
    const slot = await this.snapshot();
    // From here on every read races a running stream that will not replay it: read the newest state.
    this.loader.commitment = 'processed';
    this.o.onReady?.();
    // From the lowest slot any page was read at: a write to a pool after its page was read is replayed (writes
    // below what a page read are dropped as older). Outside the server's window, the runner resyncs instead.
    this.firstSlot = this.loader.lowestSlot > 0n ? this.loader.lowestSlot : slot;
    this.started = true;
    // The plan decides how many streams there are; each opens from the snapshot's lowest slot.
    this.openStreams(this.currentPlan(), this.firstSlot);
    const ping = this.o.pingIntervalMs ?? 15_000;
    this.timers.push(setInterval(() => this.ping(), ping).unref());
    this.timers.push(setInterval(() => this.checkSilence(), Math.min(ping, 1000)).unref());
    if (this.o.chain) this.timers.push(setInterval(() => this.checkRegression(), 250).unref());
  }

  /** Stops streaming. */
  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    if (this.heldTimer !== null) clearTimeout(this.heldTimer);
    this.o.chain?.stop();
    for (const l of this.links) l.stop();
  }

  /**
   * The feed's freshness as `/health` judges it: connected when every stream is; the processed slot and the last
   * update of the slowest stream (a pool is as fresh as the stream that carries it).
   */
  feedStatus(): FeedStatus {
    const c = this.o.chain;
    const core = this.o.core;
    let processed = core.lastProcessedSlot;
    let lastUpdate = this.stats.lastUpdateAtMs;
    for (const l of this.links) {
      const own = core.streamProcessedSlot(l.stream);
      const slot = own > l.freshAsOfSlot ? own : l.freshAsOfSlot;
      if (slot < processed) processed = slot;
      if (l.stats.lastUpdateAtMs < lastUpdate) lastUpdate = l.stats.lastUpdateAtMs;
    }
    this.refreshLinkStats();
    return {
      connected: this.stats.connected,
      lastUpdateAtMs: lastUpdate,
      processedSlot: processed,
      chainSlot: c?.tip ?? 0n,
      chainSlotAtMs: c?.tipAtMs ?? 0,
      slotAdvancedAtMs: core.slotAdvancedAtMs,
      resyncPending: this.stats.resyncPending,
      resyncFailures: this.stats.resyncFailures,
      resyncs: this.stats.resyncs,
      reloading: this.stats.reloading,
      reloads: this.stats.reloads,
      unwatchedPools: this.stats.unwatchedPools,
      streams: this.stats.streams,
      streamsConnected: this.stats.streamsConnected,
    };
  }

  /**
   * The chain was replaced: drop the streams, forget every account version and slot, and reload everything over
   * RPC (retried until it succeeds); pools the new chain does not have are retired.
   */
  reload(reason: string): void {
    if (this.stopped) return;
    this.log('warn', 'the chain went backwards or was replaced; reloading every account', { reason });
    this.stats.reloading = true;
    this.regressionSinceMs = 0;
    for (const l of this.links) l.resumeFrom = undefined;
    this.o.core.resetChain();
    this.o.chain?.reset();
    this.owe('reload', this.links.map((l) => l.stream));
    // The streams follow the old history (or replay from a slot the new chain has not reached): start afresh.
    for (const l of this.links) l.drop();
  }

  private get primaryLive(): boolean {
    return this.links[PRIMARY_STREAM]?.live ?? false;
  }

  /** The snapshot (all: every watched account re-read too), logged; returns its slot. */
  private async snapshot(all = false): Promise<bigint> {
    const slot = await this.loader.load(all);
    this.markRead(this.links.map((l) => l.stream));
    const core = this.o.core;
    this.log('info', 'snapshot loaded', { pools: core.registry.size, pending: core.pendingPools, accounts: core.cache.size, slot: String(slot) });
    return slot;
  }

  /** Accounts read over RPC are updates too: a feed just loaded is fresh before the stream says anything. */
  private markRead(streams: readonly number[]): void {
    const now = Date.now();
    this.stats.lastUpdateAtMs = now;
    for (const s of streams) {
      const l = this.links[s];
      if (l) l.stats.lastUpdateAtMs = now;
    }
  }

  /** Opens the streams the plan has and that are not open yet (streams are never closed before {@link stop}). */
  private openStreams(given: WatchPlan, fromSlot?: bigint): void {
    if (!this.started || this.stopped) return;
    const plan = this.plan ?? given;
    const max = this.maxStreams;
    for (let s = this.links.length; s < plan.streams.length && s < max; s++) {
      // At start, from the snapshot's lowest slot; opened later (pools placed before their accounts are read), from
      // the processed slot: the reads come after, and writes since then are replayed, duplicates dropped.
      const from = fromSlot ?? (this.o.core.lastProcessedSlot > 0n ? this.o.core.lastProcessedSlot : this.firstSlot);
      const link = new StreamLink(s, from, this.o.core.lastProcessedSlot, this.host, { initialMs: this.o.backoffInitialMs ?? 100, maxMs: this.o.backoffMaxMs ?? 2000 });
      // Its pools' accounts were just read over RPC (snapshot or fetch round): as fresh as the primary.
      link.stats.lastUpdateAtMs = this.stats.lastUpdateAtMs;
      this.links.push(link);
      if (s > PRIMARY_STREAM) this.log('info', 'opening an overflow Geyser stream: the listed accounts exceed one request', { stream: s, pools: plan.streams[s]!.pools, listedAccounts: plan.streams[s]!.addresses.length });
      link.start();
    }
    this.refreshLinkStats();
  }

  private get maxStreams(): number {
    return Math.max(1, this.o.maxStreams ?? DEFAULT_MAX_STREAMS);
  }

  private onSubscribed(stream: number, transport: string | undefined, fromSlot: bigint | undefined): void {
    const l = this.links[stream]!;
    this.refreshLinkStats();
    this.log('info', 'geyser subscribed', {
      stream,
      streams: this.links.length,
      transport,
      fromSlot: fromSlot?.toString(),
      requestBytes: l.stats.requestBytes,
      listedAccounts: l.stats.listedAccounts,
      streamedByAuthority: this.stats.streamedByAuthority,
      streamedBytes: stream === PRIMARY_STREAM ? this.stats.streamedBytes : 0,
      unwatchedPools: this.stats.unwatchedPools,
    });
    if (this.owed) void this.resyncLoop();
    if (stream === PRIMARY_STREAM && this.loader.owed) void this.fetchMissing();
  }

  /** Stream `stream` ended: it resumes where its own slot statuses got to, or owes a resync when that is gone. */
  private onEnded(stream: number, end: StreamEnd, fromSlot: bigint | undefined): boolean {
    this.refreshLinkStats();
    const l = this.links[stream]!;
    const own = this.o.core.streamProcessedSlot(stream);
    // Resume where this stream's pools are: the replay window refills what happened while it was away.
    if (own > 0n && !this.stats.reloading) l.resumeFrom = own;
    if (!end.gotMessages && fromSlot !== undefined && isResumePointGone(end.error)) {
      this.log('warn', "from_slot is outside the server replay window; resubscribing from the present and re-reading the stream's accounts", { stream, fromSlot: String(fromSlot) });
      l.resumeFrom = undefined;
      this.owe('accounts', [stream]);
      return true;
    }
    return false;
  }

  private onUpdate(stream: number, u: SubscribeUpdate): void {
    const now = Date.now();
    const l = this.links[stream]!.stats;
    l.messages++;
    l.lastMessageAtMs = now;
    this.stats.messages++;
    this.stats.lastMessageAtMs = now;
    if (u.account || u.slot) {
      l.lastUpdateAtMs = now;
      this.stats.lastUpdateAtMs = now;
    }
    applyGeyserUpdate(this.o.core, u, stream);
    if (!this.turnEndScheduled && this.o.core.hasOpenTransaction) {
      this.turnEndScheduled = true;
      // setImmediate runs once this turn's I/O callbacks are done: every message read in the turn is in.
      setImmediate(this.endTurn);
    }
  }

  private turnEndScheduled = false;
  private heldTimer: NodeJS.Timeout | null = null;
  /**
   * The turn that delivered the streams' messages ended: each stream's open transaction's writes are applied (a
   * pool that got only part of its swap set is held by the core until the rest arrives on its stream). Held pools
   * are written anyway after {@link IngestRunnerOptions.heldMaxMs} (a transaction that writes part of the set: a
   * deposit into one vault).
   */
  private readonly endTurn = (): void => {
    this.turnEndScheduled = false;
    this.o.core.endTurn();
    if (this.o.core.heldCount > 0) this.armHeldTimer();
  };

  /** Releases the pools held past the bound, and re-arms while some are still held. */
  private armHeldTimer(): void {
    if (this.heldTimer !== null) return;
    const bound = this.o.heldMaxMs ?? DEFAULT_HELD_MAX_MS;
    this.heldTimer = setTimeout(() => {
      this.heldTimer = null;
      if (this.o.core.releaseHeld(bound) > 0) this.armHeldTimer();
    }, bound / 2);
  }

  /** Sends each open stream its request as of now (widened filters); a stream the plan adds opens on its own. */
  private rewriteRequests(): void {
    for (const l of this.links) if (l.live) l.write(this.request(l.stream));
  }

  /** Fetches accounts new pools need, applies them, and widens the subscriptions to watch them. */
  private async fetchMissing(): Promise<void> {
    if (this.fetching || !this.loader.owed) return;
    this.fetching = true;
    let failed = false;
    try {
      this.rewriteRequests();
      await this.loader.fetchRound();
      this.rewriteRequests();
    } catch (e) {
      failed = true;
      this.log('warn', 'fetching accounts of new pools failed; retrying', { error: (e as Error).message });
    } finally {
      this.fetching = false;
      if (this.loader.owed) setTimeout(() => void this.fetchMissing(), failed ? 1000 : 200).unref();
    }
  }

  /** Records a recovery owed by `streams`; the strongest wins (a reload includes a resync). */
  private owe(kind: Owed, streams: readonly number[]): void {
    this.owed = this.owed === 'reload' ? 'reload' : kind;
    this.epoch++;
    for (const s of streams) this.owedStreams.set(s, this.epoch);
    this.stats.resyncPending = true;
    void this.resyncLoop();
  }

  /**
   * Pays what is owed: re-reads every program and watched account over RPC (a reload also retires pools the new
   * chain lacks), or, when only overflow streams owe it, the accounts those streams list; retried with backoff until
   * it succeeds. It waits for the streams it covers to be subscribed after the recovery was owed, so that nothing
   * written between the read and the stream is lost.
   */
  private async resyncLoop(): Promise<void> {
    if (this.resyncRunning) return;
    this.resyncRunning = true;
    let delay = this.o.resyncBackoffInitialMs ?? 250;
    try {
      while (!this.stopped && this.owed !== null) {
        const kind = this.owed;
        const debts = new Map(this.owedStreams);
        const up = [...debts].every(([s, at]) => {
          const l = this.links[s];
          return l === undefined || (l.live && l.subEpoch >= at);
        });
        if (!up) {
          await sleep(20);
          continue;
        }
        try {
          const everything = kind === 'reload' || debts.has(PRIMARY_STREAM);
          if (everything) await this.snapshot(true);
          else await this.rereadStreams([...debts.keys()]);
          if (kind === 'reload') {
            const absent = this.o.core.markAbsentPools();
            if (absent > 0) this.log('warn', 'pools absent from the reloaded chain retired', { pools: absent });
          }
          for (const [s, at] of debts) if (this.owedStreams.get(s) === at) this.owedStreams.delete(s);
          if (kind === 'reload') {
            this.stats.reloading = false;
            this.stats.reloads++;
          }
          if (this.owedStreams.size === 0) {
            this.owed = null;
            this.stats.resyncPending = false;
            this.stats.resyncFailures = 0;
          } else if (kind === 'reload' && this.owed === 'reload') this.owed = 'accounts';
          this.stats.resyncs++;
          this.log('info', kind === 'reload' ? 'reload complete' : 'resync complete', { pools: this.o.core.registry.size, streams: [...debts.keys()] });
          delay = this.o.resyncBackoffInitialMs ?? 250;
        } catch (e) {
          this.stats.resyncFailures++;
          this.log('warn', 'resync failed; retrying', { error: (e as Error).message, attempt: this.stats.resyncFailures, delayMs: delay });
          await sleep(delay * (0.8 + Math.random() * 0.4));
          delay = Math.min(delay * 2, this.o.resyncBackoffMaxMs ?? 10_000);
        }
      }
    } finally {
      this.resyncRunning = false;
    }
  }

  /** Re-reads over RPC every account the overflow streams `streams` list (their pools' own accounts included). */
  private async rereadStreams(streams: readonly number[]): Promise<void> {
    const plan = this.currentPlan();
    for (const s of streams) for (const a of plan.streams[s]?.addresses ?? []) this.loader.missing.add(a);
    this.loader.missing.add(CLOCK_SYSVAR);
    await this.loader.fetchRound(true);
    this.markRead(streams);
  }

  /**
   * The chain went backwards when, for `regressionConfirmMs`, the stream has not moved the processed slot forward
   * and either the RPC poll or the slot stream puts the chain more than {@link REGRESSION_SLOTS} below what is held
   * (and the other does not contradict it). A lagging RPC node alone never triggers it: the stream keeps advancing.
   */
  private checkRegression(): void {
    const chain = this.o.chain;
    if (!chain || this.stats.reloading || this.stopped) return;
    const now = Date.now();
    const held = this.o.core.lastProcessedSlot;
    const confirmMs = this.o.regressionConfirmMs ?? 2000;
    const stuck = now - this.o.core.slotAdvancedAtMs >= confirmMs;
    const rpcFresh = chain.tipAtMs > 0 && now - chain.tipAtMs < confirmMs;
    const rpcBehind = rpcFresh && chain.tip + REGRESSION_SLOTS < held;
    const behind = this.o.core.statusesBehind;
    const streamBehind = behind.count > 0 && now - behind.lastAtMs < confirmMs && !(rpcFresh && chain.tip + REGRESSION_SLOTS >= held);
    if (held > 0n && stuck && (rpcBehind || streamBehind)) {
      if (this.regressionSinceMs === 0) this.regressionSinceMs = now;
      if (now - this.regressionSinceMs >= confirmMs) {
        this.reload(`the chain is at slot ${rpcBehind ? chain.tip : behind.slot}, ingest held ${held}`);
      }
    } else this.regressionSinceMs = 0;
  }

  /**
   * The watch plan as of now: recomputed when pools or accounts were added since the last (a new pool to place, an
   * account read that shows a vault streams by authority), else the last one. Pools that no longer fit any stream
   * are logged (an error: they stop being tradable).
   */
  private currentPlan(): WatchPlan {
    const core = this.o.core;
    const key = `${core.registry.size}:${core.cache.size}:${core.pendingPools}`;
    if (this.plan !== null && key === this.planKey) return this.plan;
    const before = core.unwatchedPools;
    const budget = this.o.addressBudgetBytes ?? SUBSCRIBE_ADDRESS_BUDGET_BYTES;
    const plan = core.watchPlan(budget, this.maxStreams);
    this.plan = plan;
    this.planKey = key;
    this.stats.listedAccounts = plan.streams.reduce((n, st) => n + st.addresses.length, 0);
    this.stats.streamedByAuthority = plan.streamedByAuthority;
    this.stats.streamedBytes = plan.streamedBytes;
    this.stats.unwatchedPools = core.unwatchedPools;
    if (core.unwatchedPools > before) {
      this.log('error', 'every Subscribe stream is at its byte budget: pools beyond them are not watched and are served as not tradable', {
        newlyUnwatched: core.unwatchedPools - before,
        unwatchedPools: core.unwatchedPools,
        streams: plan.streams.length,
        maxStreams: this.maxStreams,
        listedAccounts: this.stats.listedAccounts,
        budgetBytes: budget,
      });
    }
    // New pools that fit only a stream not open yet: open it now (its request is this plan's).
    if (plan.streams.length > this.links.length) queueMicrotask(() => this.openStreams(plan));
    return plan;
  }

  /**
   * Stream `stream`'s Subscribe request as of now. The primary: adapter and vault authority filters, and the
   * accounts no filter streams, listed within the byte budget. An overflow stream: its pools' accounts listed, and
   * the slots.
   */
  private request(stream: number, fromSlot?: bigint): SubscribeRequest {
    const plan = this.currentPlan();
    const listing = plan.streams[stream];
    const addresses = listing?.addresses ?? [];
    const req = buildSubscribeRequest(this.o.adapters, addresses, fromSlot, stream === PRIMARY_STREAM);
    const l = this.links[stream];
    if (l) {
      l.stats.requestBytes = subscribeRequestBytes(req);
      l.stats.listedAccounts = addresses.length;
    }
    this.refreshLinkStats();
    return req;
  }

  /** The aggregate stream statistics from each stream's. */
  private refreshLinkStats(): void {
    let connects = 0;
    let reconnects = 0;
    let connected = 0;
    let bytes = 0;
    for (const l of this.links) {
      connects += l.stats.connects;
      reconnects += l.stats.reconnects;
      if (l.stats.connected) connected++;
      if (l.stats.requestBytes > bytes) bytes = l.stats.requestBytes;
    }
    this.stats.connects = connects;
    this.stats.reconnects = reconnects;
    this.stats.streams = this.links.length;
    this.stats.streamsConnected = connected;
    this.stats.connected = this.links.length > 0 && connected === this.links.length;
    this.stats.requestBytes = bytes;
  }

  private ping(): void {
    // The full request with a ping: servers that treat every request as a filter replacement keep the same filters.
    for (const l of this.links) {
      if (!l.live) continue;
      const req = this.request(l.stream);
      req.ping = { id: this.pingId++ };
      l.write(req);
    }
  }

  private checkSilence(): void {
    const silence = this.o.silenceMs ?? 30_000;
    for (const l of this.links) l.checkSilence(silence);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
