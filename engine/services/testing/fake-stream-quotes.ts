/**
 * Fakes of what lies outside the quote streams, for their unit tests and the route's: a quote function over a
 * pretend slab (pools with write sequences, a topology generation) whose answer the test steers, and a manual
 * clock with the one shared timer.
 */
import type { QuoteBody, QuoteInput, QuoteOutcome, StreamQuote } from '../quote-service.js';
import type { TickTimer } from '../quote-stream.js';

/** A quote body whose best route gives `out` (ExactIn) for `amount` in. */
export function fakeQuoteBody(out: bigint, n: number, amount = 1_000_000n): QuoteBody {
  const route = {
    dex: 'raydium-cpmm',
    poolAddress: 'PooL1111111111111111111111111111111111111111',
    inAmount: amount.toString(),
    outputAmount: out.toString(),
    priceImpactBps: 1,
    feeBps: 25,
    poolCacheAgeMs: 5,
    confidence: 'confirmed' as const,
    hops: [],
  };
  return {
    routes: [route],
    bestRoute: route,
    inputMint: 'So11111111111111111111111111111111111111112',
    outputMint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    amount: amount.toString(),
    slippageBps: 100,
    poolsScanned: 3,
    quoteId: `q${n}`,
    expiresAt: 30_000 + n,
    swapMode: 'ExactIn',
    inAmount: amount.toString(),
    outAmount: out.toString(),
    otherAmountThreshold: '0',
    contextSlot: 100 + n,
    timeTakenMs: 0.1,
  };
}

/** A quote input (SOL -> USDC ExactIn) for tests. */
export const FAKE_STREAM_INPUT: QuoteInput = {
  inputMint: 'So11111111111111111111111111111111111111112',
  outputMint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  amount: 1_000_000n,
  swapMode: 'ExactIn',
  slippageBps: 100,
  maxHops: 3,
  onlyDirectRoutes: false,
  dexes: [],
  excludeDexes: [],
  restrictIntermediateTokens: true,
};

/** The quote function and the slab it pretends to search. Every field is the test's to steer. */
export class FakeStreamQuotes {
  /** Write sequence per pool (even; `write` adds 2). */
  readonly seqs = new Map<number, number>();
  /** Topology generation. */
  gen = 0;
  /** Pools the next search reads. */
  pools: number[] = [0, 1, 2];
  /** Best output of the next search. */
  out = 1_000_000n;
  /** Failure of the next searches (null: success). */
  fail: 'NO_ROUTE' | 'ROUTE_TIMEOUT' | 'EXCEEDED_SLIPPAGE' | null = null;
  /** The next searches throw. */
  throws = false;
  /** Searches answer only when `release()` is called. */
  hold = false;
  /** Searches run and quotes committed (stored). */
  calls = 0;
  commits = 0;
  private held: (() => void)[] = [];

  /** Writes announced (the change ring's published count). */
  announced = 0;
  /** Sequence reads made (an idle check with `changes` wired makes none). */
  seqReads = 0;

  /** A write to `pool`'s record, announced as ingest announces it. */
  write(pool: number): void {
    this.seqs.set(pool, (this.seqs.get(pool) ?? 0) + 2);
    this.announced++;
  }

  /** The slab's sequence reader. */
  readonly writeSeq = (pool: number): number => {
    this.seqReads++;
    return this.seqs.get(pool) ?? 0;
  };
  /** The change ring's published count. */
  readonly changes = (): number => this.announced;
  /** The slab's generation reader. */
  readonly generation = (): number => this.gen;

  /** Answers the held searches. */
  release(): void {
    for (const r of this.held.splice(0)) r();
  }

  /** The quote function (`QuoteService.streamQuote`). */
  readonly quote = async (_input: QuoteInput): Promise<StreamQuote> => {
    const n = ++this.calls;
    // The sequences as the search reads them: before it answers.
    const watch = { pools: [...this.pools], seqs: this.pools.map((p) => this.writeSeq(p)) };
    if (this.hold) await new Promise<void>((r) => this.held.push(r));
    if (this.throws) throw new Error('worker gone');
    const outcome: QuoteOutcome = this.fail === null ? { ok: true, body: fakeQuoteBody(this.out, n) } : { ok: false, code: this.fail, message: 'fake' };
    return {
      outcome,
      watch: outcome.ok || this.fail === 'EXCEEDED_SLIPPAGE' ? watch : null,
      commit: async () => {
        if (outcome.ok) this.commits++;
      },
    };
  };
}

/** A manual clock and the shared timer: `advance` moves time in timer steps, firing the timer at each. */
export class ManualTicker {
  now = 0;
  /** The running timer's callback and period (null when stopped). */
  running: { fn: () => void; periodMs: number } | null = null;
  starts = 0;

  readonly clock = (): number => this.now;
  readonly timer: TickTimer = (fn, periodMs) => {
    this.starts++;
    const me = { fn, periodMs };
    this.running = me;
    return () => {
      if (this.running === me) this.running = null;
    };
  };

  /** Moves time by `ms`, firing the timer every period on the way (and letting the fired work settle). */
  async advance(ms: number): Promise<void> {
    const end = this.now + ms;
    while (this.running !== null && this.now + this.running.periodMs <= end) {
      this.now += this.running.periodMs;
      this.running.fn();
      await settle();
    }
    this.now = end;
  }
}

/** Lets promise chains started so far run to their end. */
export function settle(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}
