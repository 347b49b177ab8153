/**
 * The I/O side of ingest: the startup snapshot over RPC, then the Geyser stream, with reconnect (backoff and
 * `from_slot`), keep-alive pings, silence detection, and re-subscription when new pools bring new accounts.
 */
import type { DexAdapter } from '../adapters/types.js';
import type { GeyserSubscription, GeyserTransport } from '../chain/geyser-transport.js';
import type { RpcClient } from '../chain/rpc-client.js';
import type { SubscribeUpdate } from '../chain/yellowstone.js';
import type { AccountUpdate } from './account-update.js';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../adapters/common/spl-layouts.js';
import { CLOCK_SYSVAR } from './clock.js';
import { applyGeyserUpdate } from './geyser-update.js';
import type { IngestCore } from './ingest-core.js';
import { buildSubscribeRequest, toRpcFilters } from './subscription.js';

/** Log sink of the runner. */
export type IngestLog = (level: 'debug' | 'info' | 'warn' | 'error', msg: string, ctx?: Record<string, unknown>) => void;

/** Wiring and knobs of the runner. */
export interface IngestRunnerOptions {
  readonly rpc: RpcClient;
  /** Creates a fresh transport for each (re)connection. */
  readonly connect: () => Promise<GeyserTransport>;
  readonly core: IngestCore;
  readonly adapters: readonly DexAdapter[];
  readonly log?: IngestLog;
  readonly pingIntervalMs?: number;
  /** A stream silent this long is treated as dropped. */
  readonly silenceMs?: number;
  readonly backoffInitialMs?: number;
  readonly backoffMaxMs?: number;
  /** Called once the snapshot is applied. */
  readonly onReady?: () => void;
}

/** Stream statistics. */
export interface IngestRunnerStats {
  connects: number;
  reconnects: number;
  messages: number;
  lastMessageAtMs: number;
  connected: boolean;
}

/** Snapshot then stream, until stopped. */
export class IngestRunner {
  readonly stats: IngestRunnerStats = { connects: 0, reconnects: 0, messages: 0, lastMessageAtMs: 0, connected: false };
  private stopped = false;
  private sub: GeyserSubscription | null = null;
  private transport: GeyserTransport | null = null;
  private readonly missing = new Set<string>();
  /** Pools whose owned token accounts must be read (pools described by them). */
  private readonly missingOwners = new Set<string>();
  private fetching = false;
  private pingId = 1;
  /** Set when the server refused `from_slot`: re-read every account once the next stream is up. */
  private resyncAfterConnect = false;
  private timers: NodeJS.Timeout[] = [];
  private readonly log: IngestLog;

  constructor(private readonly o: IngestRunnerOptions) {
    this.log = o.log ?? (() => undefined);
  }

  /** Accounts that newly discovered pools need (wired to the core's `onMissingAccounts`). */
  noteMissing(addresses: readonly string[]): void {
    for (const a of addresses) this.missing.add(a);
    if (this.sub) void this.fetchMissing();
  }

  /** Pools whose mints are known only from the token accounts they own (the core's `onMissingOwnedTokenAccounts`). */
  noteMissingOwners(owners: readonly string[]): void {
    for (const o of owners) this.missingOwners.add(o);
    if (this.sub) void this.fetchMissing();
  }

  /** Loads the snapshot, then streams until {@link stop}. Resolves once the snapshot is applied. */
  async start(): Promise<void> {
    const slot = await this.snapshot();
    this.o.onReady?.();
    void this.streamLoop(slot);
    const ping = this.o.pingIntervalMs ?? 15_000;
    this.timers.push(setInterval(() => this.ping(), ping).unref());
    this.timers.push(setInterval(() => this.checkSilence(), Math.min(ping, 1000)).unref());
  }

  /** Stops streaming. */
  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.sub?.close();
    this.transport?.close();
  }

  /**
   * Program accounts of every adapter, then their dependencies and the clock; returns the snapshot slot. `all`
   * (a resync) re-reads every watched account, not only those the cache lacks.
   */
  private async snapshot(all = false): Promise<bigint> {
    const { rpc, core } = this.o;
    const accounts: AccountUpdate[] = [];
    let slot = 0n;
    for (const a of this.o.adapters) {
      // Auxiliary accounts (configs) first so that pools find them when discovered.
      for (const f of [...a.auxFilters, ...a.poolFilters]) {
        const r = await rpc.getProgramAccounts(a.programId, toRpcFilters(f));
        if (r.slot > slot) slot = r.slot;
        for (const acc of r.value) accounts.push({ ...acc, slot: r.slot, writeVersion: 0n });
      }
    }
    core.applySnapshot(accounts, slot);
    // Dependencies, then what they reveal (pools waiting for a config or their mints' decimals, and those pools'
    // own dependencies): a few rounds at most.
    let last = slot;
    this.missing.add(CLOCK_SYSVAR);
    if (all) for (const a of core.watchedAccounts()) this.missing.add(a);
    for (let round = 0; (this.missing.size > 0 || this.missingOwners.size > 0) && round < 5; round++) {
      const r = await this.fetchRound(round === 0);
      if (r > last) last = r;
    }
    this.log('info', 'snapshot loaded', { pools: core.registry.size, pending: core.pendingPools, accounts: core.cache.size, slot: String(last) });
    return last;
  }

  private async streamLoop(snapshotSlot: bigint): Promise<void> {
    let fromSlot: bigint | undefined = snapshotSlot;
    let delay = this.o.backoffInitialMs ?? 100;
    while (!this.stopped) {
      const ended = await this.runOnce(fromSlot);
      if (this.stopped) return;
      if (ended.gotMessages) delay = this.o.backoffInitialMs ?? 100;
      this.stats.reconnects++;
      // Resume where the slabs are: the replay window refills what happened while disconnected.
      fromSlot = this.o.core.lastProcessedSlot > 0n ? this.o.core.lastProcessedSlot : snapshotSlot;
      if (ended.rejectedFromSlot) {
        this.log('warn', 'from_slot refused; resubscribing without it and re-reading watched accounts');
        fromSlot = undefined;
        this.resyncAfterConnect = true;
      }
      this.log('warn', 'geyser stream ended; reconnecting', { error: errorText(ended.error).trim(), delayMs: delay });
      await sleep(delay * (0.8 + Math.random() * 0.4));
      delay = Math.min(delay * 2, this.o.backoffMaxMs ?? 5000);
    }
  }


  private async runOnce(fromSlot: bigint | undefined): Promise<{ error: Error | null; gotMessages: boolean; rejectedFromSlot: boolean }> {
    let gotMessages = false;
    try {
      this.transport?.close();
      this.transport = await this.o.connect();
      const req = buildSubscribeRequest(this.o.adapters, this.o.core.watchedAccounts(), fromSlot);
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
            this.stats.connects++;
            this.stats.connected = true;
            this.stats.lastMessageAtMs = Date.now();
            this.log('info', 'geyser subscribed', { transport: this.transport?.name, fromSlot: fromSlot?.toString() });
            if (this.resyncAfterConnect) {
              this.resyncAfterConnect = false;
              void this.resync();
            }
            if (this.missing.size > 0) void this.fetchMissing();
          })
          .catch((e: Error) => resolve(e));
      });
      this.sub = null;
      this.stats.connected = false;
      const rejectedFromSlot = !gotMessages && fromSlot !== undefined && /from_slot|fromSlot|INVALID_ARGUMENT|OUT_OF_RANGE/i.test(errorText(error));
      return { error, gotMessages, rejectedFromSlot };
    } catch (e) {
      this.sub = null;
      this.stats.connected = false;
      return { error: e as Error, gotMessages, rejectedFromSlot: false };
    }
  }

  private onUpdate(u: SubscribeUpdate): void {
    this.stats.messages++;
    this.stats.lastMessageAtMs = Date.now();
    applyGeyserUpdate(this.o.core, u);
  }

  /**
   * One fetch round: the missing accounts by address and the token accounts of pools described by them, applied
   * as a snapshot at the lowest context slot read. Returns the highest context slot read.
   */
  private async fetchRound(rereadCached = false): Promise<bigint> {
    const { rpc, core } = this.o;
    // An account asked for twice (a pool woken mid-batch asks for one the same batch brings) is read once.
    const addrs = rereadCached ? [...this.missing] : [...this.missing].filter((a) => !core.cache.has(a));
    const owners = [...this.missingOwners];
    this.missing.clear();
    this.missingOwners.clear();
    const ups: AccountUpdate[] = [];
    let slot = 0n;
    if (addrs.length > 0) {
      const r = await rpc.getMultipleAccounts(addrs);
      r.value.forEach((a) => a && ups.push({ ...a, slot: r.slot, writeVersion: 0n }));
      slot = r.slot;
    }
    for (const owner of owners) {
      for (const program of [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID]) {
        const r = await rpc.getTokenAccountsByOwner(owner, program);
        for (const a of r.value) ups.push({ ...a, slot: r.slot, writeVersion: 0n });
        if (r.slot > slot) slot = r.slot;
      }
    }
    core.applySnapshot(ups, slot);
    return slot;
  }

  /** Fetches accounts new pools need, applies them, and widens the subscription to watch them. */
  private async fetchMissing(): Promise<void> {
    if (this.fetching || (this.missing.size === 0 && this.missingOwners.size === 0)) return;
    this.fetching = true;
    try {
      this.sub?.write(buildSubscribeRequest(this.o.adapters, this.o.core.watchedAccounts()));
      await this.fetchRound();
      this.sub?.write(buildSubscribeRequest(this.o.adapters, this.o.core.watchedAccounts()));
    } catch (e) {
      this.log('warn', 'fetching accounts of new pools failed', { error: (e as Error).message });
    } finally {
      this.fetching = false;
      if (this.missing.size > 0 || this.missingOwners.size > 0) setTimeout(() => void this.fetchMissing(), 200).unref();
    }
  }

  /** After a reconnect without replay: re-read every watched and program account. */
  private async resync(): Promise<void> {
    try {
      await this.snapshot(true);
    } catch (e) {
      this.log('warn', 'resync failed', { error: (e as Error).message });
    }
  }

  private ping(): void {
    if (!this.sub) return;
    // The full request with a ping: servers that treat every request as a filter replacement keep the same filters.
    const req = buildSubscribeRequest(this.o.adapters, this.o.core.watchedAccounts());
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

/** The napi client puts the gRPC status only in `cause`; grpc-js in `message`. */
function errorText(e: Error | null): string {
  if (!e) return '';
  const cause = (e as { cause?: { message?: string } }).cause;
  return `${e.message} ${cause?.message ?? ''}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
