/**
 * The typed, versioned task protocol between the main thread and the quote workers. A worker refuses a task of
 * another version (a mixed deploy must fail loudly, not misread fields).
 */
import type { SwapMode } from '../engine/adapters/types.js';
import type { DexId } from '../engine/dex-ids.js';
import type { RouteAnswer } from '../engine/router/route-wire.js';
import type { FeedStatus } from '../engine/ingest/feed-status.js';
import type { PriceEntry } from '../engine/router/price-types.js';

/**
 * Version of the task protocol; bump on any change of a task or result shape. Optional fields a worker of the same
 * version may ignore (RouteTask's `maxAccounts`, `cancelSlot`; a route answer's `CANCELLED`) are additions, not
 * changes: the pool and its workers are always the same build.
 */
export const TASK_PROTOCOL_VERSION = 3;

/** A token to price: the label shown and the canonical mint. */
export interface PriceItem {
  readonly token: string;
  readonly mint: string;
}

/** Prices of many tokens, one task per request. */
export interface PricesTask {
  readonly v: typeof TASK_PROTOCOL_VERSION;
  readonly kind: 'prices';
  readonly items: readonly PriceItem[];
  readonly optimistic: boolean;
}

/** A no-op round trip, for measuring dispatch cost. */
export interface PingTask {
  readonly v: typeof TASK_PROTOCOL_VERSION;
  readonly kind: 'ping';
}

/**
 * A route search (`engine/router/route-search.ts`): mints as base58 (the worker maps them to its mint table), the
 * amount as a bigint (structured clone carries it), the deadline on the wall clock (each thread's `performance.now()`
 * has its own origin).
 */
export interface RouteTask {
  readonly v: typeof TASK_PROTOCOL_VERSION;
  readonly kind: 'route';
  readonly inputMint: string;
  readonly outputMint: string;
  readonly amount: bigint;
  readonly mode: SwapMode;
  readonly maxHops: number;
  readonly onlyDirectRoutes: boolean;
  readonly dexes: readonly DexId[];
  readonly excludeDexes: readonly DexId[];
  readonly restrictIntermediateTokens: boolean;
  /** Epoch ms past which the search answers ROUTE_TIMEOUT. */
  readonly deadlineEpochMs: number;
  /** Most accounts a route's swap transaction may reference (engine/router/route-accounts.ts). Absent: no bound. */
  readonly maxAccounts?: number;
  /**
   * Index of this task's word in the pool's cancel words (`QuoteWorkerData.cancelSab`): nonzero means abandoned, and
   * the search answers CANCELLED at its next deadline check (or at once). Absent: the task cannot be cancelled.
   */
  readonly cancelSlot?: number;
  /** Answer the pools the search read with their write sequences (`RouteAnswer.watch`; the quote stream). */
  readonly collectPools?: boolean;
}

/** Every task. */
export type QuoteTask = PricesTask | PingTask | RouteTask;

/** Result of a {@link RouteTask} (`engine/router/route-wire.ts`), stamped with the protocol version. */
export type RouteResult = RouteAnswer & { readonly v: typeof TASK_PROTOCOL_VERSION };

/** Result of a {@link PricesTask}. */
export interface PricesResult {
  readonly v: typeof TASK_PROTOCOL_VERSION;
  readonly entries: PriceEntry[];
}

/** Result of a {@link PingTask}. */
export interface PingResult {
  readonly v: typeof TASK_PROTOCOL_VERSION;
  readonly pong: true;
}

/** What the quote worker receives at start: the shared slabs. */
export interface QuoteWorkerData {
  readonly poolSab: SharedArrayBuffer;
  /** The pool slab's extension region (`PoolSlab.ext.sab`). */
  readonly extSab: SharedArrayBuffer;
  /** The pool slab's array region (`PoolSlab.arrays.sab`); without it the pools' array directories read as none. */
  readonly arraySab?: SharedArrayBuffer;
  readonly mintSab: SharedArrayBuffer;
  readonly catalogFile?: string;
  /** Int32 cancel words of route tasks, one per `RouteTask.cancelSlot` (workers/quote-pool.ts). */
  readonly cancelSab?: SharedArrayBuffer;
}

/** Messages from the ingest worker to the main thread. */
export type IngestMessage =
  | { readonly type: 'ready'; readonly pools: number }
  | { readonly type: 'stats'; readonly stats: Record<string, number | boolean | string> }
  | { readonly type: 'feed'; readonly feed: FeedStatusWire }
  | { readonly type: 'log'; readonly level: 'debug' | 'info' | 'warn' | 'error'; readonly msg: string; readonly ctx?: Record<string, unknown> }
  | { readonly type: 'fatal'; readonly error: string };

/** A {@link FeedStatus} as posted between threads (slots as decimal strings). */
export type FeedStatusWire = Omit<FeedStatus, 'processedSlot' | 'chainSlot'> & { readonly processedSlot: string; readonly chainSlot: string };

/** Settings the ingest worker receives at start. */
export interface IngestWorkerData {
  readonly poolSab: SharedArrayBuffer;
  /** The pool slab's extension region (`PoolSlab.ext.sab`). */
  readonly extSab: SharedArrayBuffer;
  /** The pool slab's array region (`PoolSlab.arrays.sab`); without it the pools' array directories read as none. */
  readonly arraySab?: SharedArrayBuffer;
  readonly mintSab: SharedArrayBuffer;
  /** The change ring (`engine/slab/change-ring.ts`): ingest publishes changed pools there, not in messages. */
  readonly changeSab: SharedArrayBuffer;
  readonly rpcUrl: string;
  readonly geyserUrl: string;
  readonly geyserXToken?: string;
  readonly transport: 'napi' | 'grpc-js';
  readonly pingIntervalMs: number;
  readonly silenceMs: number;
  /** Byte budget of one Subscribe request's listed addresses (`GEYSER_ADDRESS_BUDGET_BYTES`). */
  readonly addressBudgetBytes?: number;
  /** Most Subscribe streams (`GEYSER_MAX_STREAMS`). */
  readonly maxStreams?: number;
  readonly statsIntervalMs: number;
  /** Period of the feed-status reports (freshness for /health). */
  readonly feedIntervalMs?: number;
  /** Period of the chain's slot polls over RPC. */
  readonly chainPollMs?: number;
}
