/**
 * A small in-memory PriceService for the shell's tests: a three-token catalog with aliases, a set of indexed
 * mints, settable confirmed/optimistic prices, and a `push` that fires onChange like the engine does.
 */
import type { PriceEntry, PriceObject } from '../../engine/router/price-types.js';
import type { PriceChange, PriceService, ResolvedToken } from '../../engine/services/price-service-types.js';

/** Mints used by the fake catalog. */
export const FAKE_MINTS = {
  SOL: 'So11111111111111111111111111111111111111112',
  USDC: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  WBTC: '3NZ9JMVBmGAqocybic2c7LQCJScmgsAZ6vQqTDzcqmJh',
  /** Indexed but not in the catalog. */
  MEME: '7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr',
  /** A valid mint that was never indexed. */
  NEVER: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
} as const;

const CATALOG: { symbol: string; aliases: string[]; mint: string }[] = [
  { symbol: 'SOL', aliases: [], mint: FAKE_MINTS.SOL },
  { symbol: 'USDC', aliases: [], mint: FAKE_MINTS.USDC },
  { symbol: 'WBTC', aliases: ['BTC'], mint: FAKE_MINTS.WBTC },
];

const BASE58_MINT = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** Builds a price object for tests. */
export function fakePrice(token: string, mint: string, priceUsd: number, optimistic = false): PriceObject {
  const p: PriceObject = {
    token,
    mint,
    priceUsd,
    bestBid: priceUsd * 0.999,
    bestAsk: priceUsd * 1.001,
    bestBidPool: 'PooLBid1111111111111111111111111111111111111',
    bestAskPool: 'PooLAsk1111111111111111111111111111111111111',
    bestBidDex: 'raydium-cpmm',
    bestAskDex: 'orca-whirlpool',
    bestBidFeeBps: 25,
    bestAskFeeBps: 30,
    poolCacheAgeMs: 12,
    confidence: optimistic ? 'optimistic' : 'confirmed',
    poolCount: 3,
    timestamp: Date.now(),
    route: 'direct',
  };
  if (optimistic) p.optimisticAgeMs = 5;
  return p;
}

/** The fake. Fields are public so tests can steer it. */
export class FakePriceService implements PriceService {
  private readyNow = true;
  private readonly readyWaiters: (() => void)[] = [];
  /** Readiness; setting it true resolves `whenReady()` waiters. */
  get isReady(): boolean {
    return this.readyNow;
  }
  set isReady(v: boolean) {
    this.readyNow = v;
    if (v) for (const w of this.readyWaiters.splice(0)) w();
  }
  pools = 42;
  /** mint -> confirmed priceUsd (absent = unavailable). */
  readonly confirmed = new Map<string, number>();
  /** mint -> optimistic priceUsd (falls back to confirmed). */
  readonly optimistic = new Map<string, number>();
  readonly indexed = new Set<string>([FAKE_MINTS.SOL, FAKE_MINTS.USDC, FAKE_MINTS.WBTC, FAKE_MINTS.MEME]);
  /** Calls of prices(), for "one call" assertions. */
  pricesCalls = 0;
  private readonly listeners = new Set<(c: PriceChange) => void>();

  constructor() {
    this.confirmed.set(FAKE_MINTS.SOL, 150);
    this.confirmed.set(FAKE_MINTS.USDC, 1);
    this.confirmed.set(FAKE_MINTS.MEME, 0.0042);
  }

  ready(): boolean {
    return this.readyNow;
  }

  whenReady(): Promise<void> {
    return this.readyNow ? Promise.resolve() : new Promise((r) => this.readyWaiters.push(r));
  }

  poolCount(): number {
    return this.pools;
  }

  resolve(input: string): ResolvedToken | null {
    const byMint = CATALOG.find((t) => t.mint === input);
    if (byMint) return { token: byMint.symbol, mint: byMint.mint, tracked: true, indexed: this.indexed.has(byMint.mint) };
    const up = input.toUpperCase();
    const bySym = CATALOG.find((t) => t.symbol === up || t.aliases.includes(up));
    if (bySym) return { token: bySym.symbol, mint: bySym.mint, tracked: true, indexed: this.indexed.has(bySym.mint) };
    if (!BASE58_MINT.test(input)) return null;
    return { token: input, mint: input, tracked: false, indexed: this.indexed.has(input) };
  }

  trackedTokens(): readonly ResolvedToken[] {
    return CATALOG.map((t) => ({ token: t.symbol, mint: t.mint, tracked: true, indexed: this.indexed.has(t.mint) }));
  }

  price(token: ResolvedToken, optimistic: boolean): PriceEntry {
    const c = this.confirmed.get(token.mint);
    const v = optimistic ? (this.optimistic.get(token.mint) ?? c) : c;
    if (v === undefined) return { token: token.token, status: 'unavailable', reason: token.indexed ? 'no active pools' : 'mint not indexed' };
    return fakePrice(token.token, token.mint, v, optimistic);
  }

  async prices(tokens: readonly ResolvedToken[], optimistic: boolean): Promise<PriceEntry[]> {
    this.pricesCalls++;
    return tokens.map((t) => this.price(t, optimistic));
  }

  onChange(listener: (change: PriceChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Number of onChange listeners (leak checks). */
  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Fires a change that moves exactly `mints`, like the engine does. */
  push(change: { readonly mints: readonly string[]; readonly confirmed: boolean }): void {
    const c: PriceChange = { confirmed: change.confirmed, affects: (t) => change.mints.includes(t.mint) };
    for (const l of this.listeners) l(c);
  }
}
