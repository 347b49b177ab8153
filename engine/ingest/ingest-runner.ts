/**
 * The I/O side of ingest: the startup snapshot over RPC, then the Geyser stream, with reconnect (backoff and
 * `from_slot`), keep-alive pings, silence detection, and re-subscription when new pools bring new accounts.
 * Recovery: a resume point gone from the server's replay window (told by the gRPC status code) means subscribing
 * from the present and re-reading every watched account, retried with backoff until it succeeds; a chain that
 * went backwards or was replaced (slots far below what is held, a new genesis hash) is reloaded from scratch.
 */
import type { DexAdapter } from '../adapters/types.js';
import type { GeyserSubscription, GeyserTransport } from '../chain/geyser-transport.js';
import { isResumePointGone } from '../chain/grpc-status.js';
import type { RpcClient } from '../chain/rpc-client.js';
import type { SubscribeUpdate } from '../chain/yellowstone.js';
import type { ChainWatch } from './chain-watch.js';
import type { FeedStatus } from './feed-status.js';
import { applyGeyserUpdate } from './geyser-update.js';
import { REGRESSION_SLOTS, type IngestCore } from './ingest-core.js';
import { SnapshotLoader } from './snapshot-loader.js';
import { buildSubscribeRequest, subscribeRequestBytes } from './subscription.js';
import { SUBSCRIBE_ADDRESS_BUDGET_BYTES } from './watch-plan.js';

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
   * Byte budget of the addresses listed in the Subscribe request (default {@link SUBSCRIBE_ADDRESS_BUDGET_BYTES});
   * pools beyond it are not watched and not tradable.
   */
  readonly addressBudgetBytes?: number;
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
  /** Pools not watched: their addresses did not fit the request's budget (not tradable). */
  unwatchedPools: number;
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
  };
  private stopped = false;
  private sub: GeyserSubscription | null = null;
  private transport: GeyserTransport | null = null;
  private readonly loader: SnapshotLoader;
  private fetching = false;
  private pingId = 1;
  /** Where the next Subscribe resumes (`from_slot`); undefined: from the present. */
  private resumeFrom: bigint | undefined;
  /** The recovery owed (a resync or a full reload). */
  private owed: Owed | null = null;
  private resyncRunning = false;
  /**
   * Bumped by each recovery owed: a request made during a run repeats it, and a subscription records the value it
   * was made under, so a recovery reads only once a stream made after it was owed is up (no write between the read
   * and the stream can be lost).
   */
  private epoch = 0;
  private subEpoch = -1;
  /** Since when the chain has looked like it went backwards (0: it does not). */
  private regressionSinceMs = 0;
  private timers: NodeJS.Timeout[] = [];
  private readonly log: IngestLog;

  constructor(private readonly o: IngestRunnerOptions) {
    this.log = o.log ?? (() => undefined);
    this.loader = new SnapshotLoader(o.rpc, o.core, o.adapters);
  }

  /** Accounts that newly discovered pools need (wired to the core's `onMissingAccounts`). */
  noteMissing(addresses: readonly string[]): void {
    for (const a of addresses) this.loader.missing.add(a);
    if (this.sub) void this.fetchMissing();
  }

  /** Pools whose mints are known only from the token accounts they own (the core's `onMissingOwnedTokenAccounts`). */
  noteMissingOwners(owners: readonly string[]): void {
    for (const o of owners) this.loader.missingOwners.add(o);
    if (this.sub) void this.fetchMissing();
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
    this.resumeFrom = this.loader.lowestSlot > 0n ? this.loader.lowestSlot : slot;
    void this.streamLoop();
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
    this.sub?.close();
    this.transport?.close();
  }

  /** The feed's freshness as `/health` judges it. */
  feedStatus(): FeedStatus {
    const c = this.o.chain;
    return {
      connected: this.stats.connected,
      lastUpdateAtMs: this.stats.lastUpdateAtMs,
      processedSlot: this.o.core.lastProcessedSlot,
      chainSlot: c?.tip ?? 0n,
      chainSlotAtMs: c?.tipAtMs ?? 0,
      slotAdvancedAtMs: this.o.core.slotAdvancedAtMs,
      resyncPending: this.stats.resyncPending,
      resyncFailures: this.stats.resyncFailures,
      resyncs: this.stats.resyncs,
      reloading: this.stats.reloading,
      reloads: this.stats.reloads,
      unwatchedPools: this.stats.unwatchedPools,
    };
  }

  /**
   * The chain was replaced: drop the stream, forget every account version and slot, and reload everything over
   * RPC (retried until it succeeds); pools the new chain does not have are retired.
   */
  reload(reason: string): void {
    if (this.stopped) return;
    this.log('warn', 'the chain went backwards or was replaced; reloading every account', { reason });
    this.stats.reloading = true;
    this.regressionSinceMs = 0;
    this.resumeFrom = undefined;
    this.o.core.resetChain();
    this.o.chain?.reset();
    this.owe('reload');
    // The stream follows the old history (or replays from a slot the new chain has not reached): start afresh.
    this.sub?.close();
  }

  /** The snapshot (all: every watched account re-read too), logged; returns its slot. */
  private async snapshot(all = false): Promise<bigint> {
    const slot = await this.loader.load(all);
    // Accounts read over RPC are updates too: a feed just loaded is fresh before the stream says anything.
    this.stats.lastUpdateAtMs = Date.now();
    const core = this.o.core;
    this.log('info', 'snapshot loaded', { pools: core.registry.size, pending: core.pendingPools, accounts: core.cache.size, slot: String(slot) });
    return slot;
  }

  private async streamLoop(): Promise<void> {
    let delay = this.o.backoffInitialMs ?? 100;
    while (!this.stopped) {
      // A replaced chain is noticed on (re)connect too, before resuming into a history that is not there.
      if (this.o.chain && (await this.o.chain.checkGenesis())) this.reload('genesis hash changed');
      const fromSlot = this.resumeFrom;
      const ended = await this.runOnce(fromSlot);
      if (this.stopped) return;
      if (ended.gotMessages) delay = this.o.backoffInitialMs ?? 100;
      this.stats.reconnects++;
      // Resume where the slabs are: the replay window refills what happened while disconnected.
      if (this.o.core.lastProcessedSlot > 0n && !this.stats.reloading) this.resumeFrom = this.o.core.lastProcessedSlot;
      if (!ended.gotMessages && fromSlot !== undefined && isResumePointGone(ended.error)) {
        this.log('warn', 'from_slot is outside the server replay window; resubscribing from the present and re-reading every watched account', { fromSlot: String(fromSlot) });
        this.resumeFrom = undefined;
        this.owe('accounts');
        delay = this.o.backoffInitialMs ?? 100;
      }
      this.log('warn', 'geyser stream ended; reconnecting', { error: errorText(ended.error).trim(), delayMs: delay });
      await sleep(delay * (0.8 + Math.random() * 0.4));
      delay = Math.min(delay * 2, this.o.backoffMaxMs ?? 2000);
    }
  }

  private async runOnce(fromSlot: bigint | undefined): Promise<{ error: Error | null; gotMessages: boolean }> {
    let gotMessages = false;
    try {
      this.transport?.close();
      this.transport = await this.o.connect();
      const req = this.request(fromSlot);
      const subscribedUnder = this.epoch;
      const error = await new Promise<Error | null>((resolve) => {
        this.transport!
          .subscribe(req, {
            onUpdate: (u) => {
              gotMessages = true;
              this.onUpdate(u);
            },
            onEnd: (e) => resolve(e),
          })
          .then((sub) => {
            this.sub = sub;
            this.subEpoch = subscribedUnder;
            this.stats.connects++;
            this.stats.connected = true;
            this.stats.lastMessageAtMs = Date.now();
            this.log('info', 'geyser subscribed', {
              transport: this.transport?.name,
              fromSlot: fromSlot?.toString(),
              requestBytes: this.stats.requestBytes,
              listedAccounts: this.stats.listedAccounts,
              streamedByAuthority: this.stats.streamedByAuthority,
              streamedBytes: this.stats.streamedBytes,
              unwatchedPools: this.stats.unwatchedPools,
            });
            if (this.owed) void this.resyncLoop();
            if (this.loader.owed) void this.fetchMissing();
          })
          .catch((e: Error) => resolve(e));
      });
      this.sub = null;
      this.stats.connected = false;
      return { error, gotMessages };
    } catch (e) {
      this.sub = null;
      this.stats.connected = false;
      return { error: e as Error, gotMessages };
    }
  }

  private onUpdate(u: SubscribeUpdate): void {
    const now = Date.now();
    this.stats.messages++;
    this.stats.lastMessageAtMs = now;
    if (u.account || u.slot) this.stats.lastUpdateAtMs = now;
    applyGeyserUpdate(this.o.core, u);
    if (!this.turnEndScheduled && this.o.core.hasOpenTransaction) {
      this.turnEndScheduled = true;
      // setImmediate runs once this turn's I/O callbacks are done: every message read in the turn is in.
      setImmediate(this.endTurn);
    }
  }

  private turnEndScheduled = false;
  private heldTimer: NodeJS.Timeout | null = null;
  /**
   * The turn that delivered the stream's messages ended: the open transaction's writes are applied (a pool that got
   * only part of its swap set is held by the core until the rest arrives). Held pools are written anyway after
   * {@link IngestRunnerOptions.heldMaxMs} (a transaction that writes part of the set: a deposit into one vault).
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

  /** Fetches accounts new pools need, applies them, and widens the subscription to watch them. */
  private async fetchMissing(): Promise<void> {
    if (this.fetching || !this.loader.owed) return;
    this.fetching = true;
    let failed = false;
    try {
      this.sub?.write(this.request());
      await this.loader.fetchRound();
      this.sub?.write(this.request());
    } catch (e) {
      failed = true;
      this.log('warn', 'fetching accounts of new pools failed; retrying', { error: (e as Error).message });
    } finally {
      this.fetching = false;
      if (this.loader.owed) setTimeout(() => void this.fetchMissing(), failed ? 1000 : 200).unref();
    }
  }

  /** Records a recovery owed; the strongest wins (a reload includes a resync). */
  private owe(kind: Owed): void {
    this.owed = this.owed === 'reload' ? 'reload' : kind;
    this.epoch++;
    this.stats.resyncPending = true;
    void this.resyncLoop();
  }

  /**
   * Pays what is owed: re-reads every program and watched account over RPC (a reload also retires pools the new
   * chain lacks), retrying with backoff until it succeeds. It waits for a stream subscribed after the recovery was
   * owed, so that nothing written between the read and the stream is lost.
   */
  private async resyncLoop(): Promise<void> {
    if (this.resyncRunning) return;
    this.resyncRunning = true;
    let delay = this.o.resyncBackoffInitialMs ?? 250;
    try {
      while (!this.stopped && this.owed !== null) {
        const kind = this.owed;
        const generation = this.epoch;
        if (!this.sub || this.subEpoch < this.epoch) {
          await sleep(20);
          continue;
        }
        try {
          await this.snapshot(true);
          if (kind === 'reload') {
            const absent = this.o.core.markAbsentPools();
            if (absent > 0) this.log('warn', 'pools absent from the reloaded chain retired', { pools: absent });
          }
          if (this.epoch === generation) {
            this.owed = null;
            this.stats.resyncPending = false;
            this.stats.resyncFailures = 0;
            if (kind === 'reload') {
              this.stats.reloading = false;
              this.stats.reloads++;
            }
          }
          this.stats.resyncs++;
          this.log('info', kind === 'reload' ? 'reload complete' : 'resync complete', { pools: this.o.core.registry.size });
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
   * The Subscribe request as of now: adapter and vault authority filters, and the accounts no filter streams, listed
   * within the byte budget. Pools that no longer fit are logged (an error: they stop being tradable).
   */
  private request(fromSlot?: bigint): ReturnType<typeof buildSubscribeRequest> {
    const core = this.o.core;
    const before = core.unwatchedPools;
    const plan = core.watchPlan(this.o.addressBudgetBytes ?? SUBSCRIBE_ADDRESS_BUDGET_BYTES);
    const req = buildSubscribeRequest(this.o.adapters, plan.addresses, fromSlot);
    this.stats.requestBytes = subscribeRequestBytes(req);
    this.stats.listedAccounts = plan.addresses.length;
    this.stats.streamedByAuthority = plan.streamedByAuthority;
    this.stats.streamedBytes = plan.streamedBytes;
    this.stats.unwatchedPools = core.unwatchedPools;
    if (core.unwatchedPools > before) {
      this.log('error', 'the Subscribe request is at its byte budget: pools beyond it are not watched and are served as not tradable', {
        newlyUnwatched: core.unwatchedPools - before,
        unwatchedPools: core.unwatchedPools,
        listedAccounts: plan.addresses.length,
        listedBytes: plan.listedBytes,
        budgetBytes: this.o.addressBudgetBytes ?? SUBSCRIBE_ADDRESS_BUDGET_BYTES,
      });
    }
    return req;
  }

  private ping(): void {
    if (!this.sub) return;
    // The full request with a ping: servers that treat every request as a filter replacement keep the same filters.
    const req = this.request();
    req.ping = { id: this.pingId++ };
    this.sub.write(req);
  }

  private checkSilence(): void {
    const silence = this.o.silenceMs ?? 30_000;
    if (this.sub && Date.now() - this.stats.lastMessageAtMs > silence) {
      this.log('warn', 'geyser stream silent; dropping it', { silentMs: Date.now() - this.stats.lastMessageAtMs });
      this.sub.close();
    }
  }
}

/** The napi client puts the gRPC status only in `cause`; grpc-js in `message` (for logs only). */
function errorText(e: Error | null): string {
  if (!e) return '';
  const cause = (e as { cause?: { message?: string } }).cause;
  return `${e.message} ${cause?.message ?? ''}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
