/**
 * What the HTTP shell needs from the pricing side. Implemented by `engine/services/price-service.ts`
 * over the slabs; faked only in the shell's own unit tests.
 */
import type { PriceEntry } from '../router/price-types.js';

/** A request token resolved against the catalog and the mint table. */
export interface ResolvedToken {
  /** What the API shows in `token`: the catalog symbol, or the mint itself. */
  readonly token: string;
  /** Canonical mint. */
  readonly mint: string;
  /** True when the mint is in the catalog. */
  readonly tracked: boolean;
  /** True when the mint is known to the mint table (has or had an indexed pool). */
  readonly indexed: boolean;
}

/**
 * Pools whose records changed, as the price side sees them. A listener asks about the tokens it cares about
 * (its subscriptions): nothing is listed per change, since a change to a SOL pool can move every SOL-paired mint.
 */
export interface PriceChange {
  /** True when these changes are now confirmed (a confirmed frame is due); false for optimistic updates. */
  readonly confirmed: boolean;
  /** True when the price of `token` may have moved with this change. */
  affects(token: ResolvedToken): boolean;
}

/** The pricing side as the shell sees it. */
export interface PriceService {
  /** False while the startup snapshot is loading. */
  ready(): boolean;
  /** Resolves once the startup snapshot is loaded (at once when it is). */
  whenReady(): Promise<void>;
  /** Number of pools indexed. */
  poolCount(): number;
  /**
   * Resolves a symbol (case-insensitive, aliases) or a mint. Returns null for an unknown symbol or a string
   * that is not a valid base58 mint.
   */
  resolve(input: string): ResolvedToken | null;
  /** Every tracked (catalog) token. */
  trackedTokens(): readonly ResolvedToken[];
  /**
   * The price of one token, read directly from the slabs; `optimistic` selects the latest processed state. Ages
   * and `timestamp` are taken at `nowMs` (default: now).
   */
  price(token: ResolvedToken, optimistic: boolean, nowMs?: number): PriceEntry;
  /**
   * A value that moves whenever any price's inputs may have changed (ingest published a pool change, a pool was
   * added). Equal values at the same ms mean a price computed then is still exactly what `price` would return. Null
   * (or absent) when the service cannot tell: then nothing may be memoized.
   */
  inputsVersion?(): number | null;
  /** Prices of many tokens in one call (one worker task when a pool is used). */
  prices(tokens: readonly ResolvedToken[], optimistic: boolean): Promise<PriceEntry[]>;
  /** Subscribes to price-input changes; returns the unsubscribe function. */
  onChange(listener: (change: PriceChange) => void): () => void;
}
