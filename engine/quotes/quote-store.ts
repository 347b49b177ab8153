/**
 * Quote ids: what a quote leaves behind for the build step (its route, amounts, mode, slippage, slot, expiry),
 * kept 30 s and taken once. The contract the memory and Redis stores share, and the id format.
 */
import { randomBytes } from 'node:crypto';

/** A quote lives this long after issue (the spec's `expiresAt`). */
export const QUOTE_TTL_MS = 30_000;
/**
 * An expired quote is remembered this long past its expiry, so that asking for it answers "expired" (410) and not
 * "unknown" (404); past that it is forgotten and reads as unknown.
 */
export const EXPIRED_KEPT_MS = 10 * 60_000;

/** One stored quote. `payload` is the caller's serialization (the route the build step replays). */
export interface StoredQuote {
  readonly quoteId: string;
  readonly expiresAtMs: number;
  readonly payload: string;
}

/** The outcome of taking a quote id. */
export type TakeResult =
  | { readonly status: 'ok'; readonly quote: StoredQuote }
  /** Issued, and its 30 s are over (410 QUOTE_EXPIRED); it stays expired on every later take. */
  | { readonly status: 'expired' }
  /** Never issued, already taken, or forgotten (404 QUOTE_NOT_FOUND). */
  | { readonly status: 'not-found' };

/** Where quote ids live: in this process, or in Redis so that any instance can build a quote another issued. */
export interface QuoteStore {
  /** Keeps `quote` until its expiry (and the expired mark {@link EXPIRED_KEPT_MS} after). */
  put(quote: StoredQuote): Promise<void>;
  /** Takes the quote: the first take before expiry gets it and consumes it; see {@link TakeResult}. */
  take(quoteId: string, nowMs: number): Promise<TakeResult>;
  /** Releases the store's resources (not the Redis connection it was given). */
  close(): Promise<void>;
}

/** A new quote id: `q_` and 128 random bits in hex (unguessable: an id is all a build needs). */
export function newQuoteId(): string {
  return `q_${randomBytes(16).toString('hex')}`;
}

/** True when `s` has the form of a quote id (anything else is unknown without asking the store). */
export function isQuoteId(s: string): boolean {
  return /^q_[0-9a-f]{32}$/.test(s);
}
