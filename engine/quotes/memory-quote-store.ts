/**
 * Quote ids in this process: a Map in issue order (every quote lives the same 30 s, so issue order is expiry order
 * and the oldest entries are swept from the front). Bounded: past `maxEntries` the oldest are dropped, and a build
 * of one of those reads as unknown.
 */
import { EXPIRED_KEPT_MS, type QuoteStore, type StoredQuote, type TakeResult } from './quote-store.js';

/** Default bound: a million quotes (about 30,000 quotes/s for 30 s). */
export const DEFAULT_MAX_QUOTES = 1_000_000;

/** The in-memory store. */
export class MemoryQuoteStore implements QuoteStore {
  private readonly quotes = new Map<string, StoredQuote>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  /** `now`: the clock of the sweep (takes are judged at the time they are given). */
  constructor(opts: { readonly maxEntries?: number; readonly now?: () => number } = {}) {
    this.maxEntries = opts.maxEntries ?? DEFAULT_MAX_QUOTES;
    this.now = opts.now ?? Date.now;
  }

  /** Quotes held (live and expired marks). */
  get size(): number {
    return this.quotes.size;
  }

  async put(quote: StoredQuote): Promise<void> {
    this.sweep(this.now());
    this.quotes.delete(quote.quoteId);
    this.quotes.set(quote.quoteId, quote);
    while (this.quotes.size > this.maxEntries) this.quotes.delete(this.quotes.keys().next().value!);
  }

  async take(quoteId: string, nowMs: number): Promise<TakeResult> {
    const q = this.quotes.get(quoteId);
    if (q === undefined || q.expiresAtMs + EXPIRED_KEPT_MS <= nowMs) return { status: 'not-found' };
    if (q.expiresAtMs <= nowMs) return { status: 'expired' };
    this.quotes.delete(quoteId);
    return { status: 'ok', quote: q };
  }

  async close(): Promise<void> {
    this.quotes.clear();
  }

  /** Drops, from the front, the quotes whose expired mark is over at `nowMs`. */
  private sweep(nowMs: number): void {
    for (const [id, q] of this.quotes) {
      if (q.expiresAtMs + EXPIRED_KEPT_MS > nowMs) return;
      this.quotes.delete(id);
    }
  }
}
