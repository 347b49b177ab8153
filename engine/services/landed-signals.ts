/**
 * The `landed` source of the transaction tracker: a deshred watch (`engine/chain/deshred-watch.ts`) filtered by the
 * fee payers of the transactions the service submits (`engine/tx/tracked-payers.ts`). A deshred transaction whose
 * signature is tracked becomes `tracker.observe({ type: 'landed', source: 'geyser' })`; a payer leaves the filter
 * when none of its transactions is tracked any more (finalized, failed, or past the tracking budget).
 *
 * Why `expect` runs before the submission, not after: the landed signal can come while the submission is still
 * answering (on the localnet it comes during `sendTransaction` itself), so a filter written afterwards would miss
 * it. `expect` resolves once the server applied the grown filter (bounded by the watch's ack timeout; at once when
 * the payer is already watched or no stream is open), so a submission waits at most that long, and only for a
 * payer new to the filter.
 *
 * Why on the main thread, not in the ingest worker (where the architecture puts Geyser): this stream carries only
 * the service's own submissions (a few transactions per second at most, filtered on the server), and the events go
 * to the tracker, which lives here; the market-data stream stays alone in the ingest thread.
 */
import type { TxTracker } from '../tx/tx-tracker.js';
import { TrackedPayers } from '../tx/tracked-payers.js';

/** What the landed source needs of a deshred watch (`DeshredWatch` has this shape). */
export interface LandedWatch {
  /** True while its stream is open. */
  readonly open: boolean;
  start(): void;
  setAccounts(accounts: Iterable<string>): Promise<void>;
  close(): void;
}

/** Options (defaults: a signature is watched at most 70 s, a payer lingers 60 s, the sweep runs every 5 s). */
export interface LandedSignalsOptions {
  readonly ttlMs?: number;
  /** How long a payer stays in the filter after its last tracked transaction ended (see `TrackedPayers`). */
  readonly lingerMs?: number;
  readonly sweepMs?: number;
  readonly now?: () => number;
}

/** The landed source of one service instance. */
export class LandedSignals {
  private readonly payers: TrackedPayers;
  private readonly watch: LandedWatch;
  private readonly unsubscribe: () => void;
  private readonly sweep: NodeJS.Timeout;
  /** The filter write in flight, if any: a payer already added waits on it too. */
  private applying: Promise<void> | null = null;

  /** `openWatch` builds the watch around the callback of its matched transactions. */
  constructor(
    private readonly tracker: TxTracker,
    openWatch: (onTransaction: (signature: string, slot: number) => void) => LandedWatch,
    opts: LandedSignalsOptions = {},
  ) {
    this.payers = new TrackedPayers(opts.ttlMs ?? 70_000, opts.now ?? Date.now, opts.lingerMs ?? 60_000);
    this.watch = openWatch((signature, slot) => {
      if (this.payers.has(signature)) tracker.observe({ type: 'landed', signature, slot, source: 'geyser', err: null });
    });
    this.unsubscribe = tracker.subscribe((e) => {
      if ((e.type === 'finalized' || e.type === 'failed') && this.payers.remove(e.signature)) void this.apply();
    });
    this.sweep = setInterval(() => this.expireNow(), opts.sweepMs ?? 5000);
    this.sweep.unref();
  }

  /** Payers in the filter now (tests, metrics). */
  get watchedPayers(): readonly string[] {
    return this.payers.payers();
  }

  /** True while the deshred stream is open (a submission then gets its landed signal). */
  get watching(): boolean {
    return this.watch.open;
  }

  /** Opens the watch. */
  start(): void {
    this.watch.start();
  }

  /** `signature`, paid by `feePayer`, is about to be submitted: resolves once its landed signal can be seen. Never rejects. */
  expect(signature: string, feePayer: string): Promise<void> {
    if (this.payers.add(signature, feePayer)) return this.apply();
    return this.applying ?? Promise.resolve();
  }

  /** The sweep's work (tests call it): signatures past their deadline leave, and their payers if no other is left. */
  expireNow(): void {
    if (this.payers.expire()) void this.apply();
  }

  /** Stops the watch and the sweep. */
  close(): void {
    clearInterval(this.sweep);
    this.unsubscribe();
    this.watch.close();
  }

  private apply(): Promise<void> {
    const p = this.watch.setAccounts(this.payers.payers());
    this.applying = p;
    void p.then(() => {
      if (this.applying === p) this.applying = null;
    });
    return p;
  }
}
