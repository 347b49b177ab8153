/**
 * The Geyser sources of the transaction tracker for the service's own submissions: two streams filtered by the fee
 * payers of the transactions the service submits (`engine/tx/tracked-payers.ts`):
 * - `landed`: a SubscribeDeshred watch (`engine/chain/deshred-watch.ts`): a deshred transaction whose signature is
 *   tracked becomes `tracker.observe({ type: 'landed', source: 'geyser' })`;
 * - the later stages: a Subscribe watch (`engine/chain/tx-stage-watch.ts`: transaction statuses of the payers at
 *   processed, and every slot status): a tracked signature's transaction update is `processed` (or `failed` with
 *   its error), and its slot's `confirmed` / `finalized` status gives the stage of every tracked transaction in it
 *   (`engine/tx/slot-stages.ts`, which also lets go of the transactions of a slot that left the chain: the tracker
 *   then polls them at once, `pollSoon`).
 * A payer leaves both filters when none of its transactions is tracked any more (finalized, failed, or past the
 * tracking budget) and its linger passed. The tracker keeps polling these submissions as a fallback, slowly while the
 * stage stream is live (`TxTracker.attachStream`).
 *
 * Why `expect` runs before the submission, not after: the landed signal can come while the submission is still
 * answering (on the localnet it comes during `sendTransaction` itself), so a filter written afterwards would miss
 * it. `expect` resolves once both servers applied the grown filter (bounded by the watches' ack timeout; at once when
 * the payer is already watched or no stream is open), so a submission waits at most that long, and only for a
 * payer new to the filter.
 *
 * Why on the main thread, not in the ingest worker (where the architecture puts Geyser): these streams carry only
 * the service's own submissions (a few transactions per second at most, filtered on the server) and slot statuses
 * (a few a slot), and the events go to the tracker, which lives here; the market-data stream stays alone in the
 * ingest thread.
 */
import { SlotStages } from '../tx/slot-stages.js';
import type { TxEvent, TxTracker } from '../tx/tx-tracker.js';
import { TrackedPayers } from '../tx/tracked-payers.js';

/** What the sources need of a watch (`DeshredWatch` and `TxStageWatch` have this shape). */
export interface SignalWatch {
  /** True while its stream is open. */
  readonly open: boolean;
  start(): void;
  setAccounts(accounts: Iterable<string>): Promise<void>;
  close(): void;
}

/** The stage watch: a signal watch that also says whether it delivers now. */
export interface StageWatch extends SignalWatch {
  /** Open and delivering (slot statuses flow all the time). */
  readonly live: boolean;
}

/** What the stage watch reports (`TxStageWatch`'s callbacks). */
export interface StageHandlers {
  onTransaction(signature: string, slot: number, err: string | null): void;
  onSlot(slot: number, status: number): void;
}

/** Options (defaults: a signature is watched at most 70 s, a payer lingers 60 s, the sweep runs every 5 s). */
export interface GeyserSignalsOptions {
  readonly ttlMs?: number;
  /** How long a payer stays in the filter after its last tracked transaction ended (see `TrackedPayers`). */
  readonly lingerMs?: number;
  readonly sweepMs?: number;
  readonly now?: () => number;
}

/** The Geyser sources of one service instance. */
export class GeyserSignals {
  private readonly payers: TrackedPayers;
  private readonly landedWatch: SignalWatch;
  private readonly stageWatch: StageWatch | null;
  private readonly stages = new SlotStages();
  private readonly unsubscribe: () => void;
  private readonly sweep: NodeJS.Timeout;
  /** The filter write in flight, if any: a payer already added waits on it too. */
  private applying: Promise<void> | null = null;

  /**
   * `openLanded` builds the deshred watch around the callback of its matched transactions; `openStages` (optional:
   * without it, only `landed` comes from Geyser) the stage watch around its handlers.
   */
  constructor(
    private readonly tracker: TxTracker,
    openLanded: (onTransaction: (signature: string, slot: number) => void) => SignalWatch,
    openStages: ((h: StageHandlers) => StageWatch) | null = null,
    opts: GeyserSignalsOptions = {},
  ) {
    this.payers = new TrackedPayers(opts.ttlMs ?? 70_000, opts.now ?? Date.now, opts.lingerMs ?? 60_000);
    this.landedWatch = openLanded((signature, slot) => {
      if (this.payers.has(signature)) this.observe('landed', signature, slot);
    });
    this.stageWatch = openStages?.({ onTransaction: (s, slot, err) => this.onTransaction(s, slot, err), onSlot: (slot, st) => this.onSlot(slot, st) }) ?? null;
    const stageWatch = this.stageWatch;
    if (stageWatch) tracker.attachStream(() => stageWatch.live);
    this.unsubscribe = tracker.subscribe((e) => {
      if (e.type !== 'finalized' && e.type !== 'failed') return;
      this.stages.forget(e.signature);
      if (this.payers.remove(e.signature)) void this.apply();
    });
    this.sweep = setInterval(() => this.expireNow(), opts.sweepMs ?? 5000);
    this.sweep.unref();
  }

  /** Payers in the filter now (tests, metrics). */
  get watchedPayers(): readonly string[] {
    return this.payers.payers();
  }

  /** True while every stream is open (a submission then gets its Geyser events). */
  get watching(): boolean {
    return this.landedWatch.open && (this.stageWatch?.open ?? true);
  }

  /** Tracked transactions placed in a slot by the stage stream and waiting for its statuses (tests, metrics). */
  get placed(): number {
    return this.stages.size;
  }

  /** Opens the watches. */
  start(): void {
    this.landedWatch.start();
    this.stageWatch?.start();
  }

  /** `signature`, paid by `feePayer`, is about to be submitted: resolves once its Geyser events can be seen. Never rejects. */
  expect(signature: string, feePayer: string): Promise<void> {
    if (this.payers.add(signature, feePayer)) return this.apply();
    return this.applying ?? Promise.resolve();
  }

  /** The sweep's work (tests call it): signatures past their deadline leave, and their payers if no other is left. */
  expireNow(): void {
    if (this.payers.expire()) void this.apply();
  }

  /** Stops the watches and the sweep. */
  close(): void {
    clearInterval(this.sweep);
    this.unsubscribe();
    this.landedWatch.close();
    this.stageWatch?.close();
  }

  private onTransaction(signature: string, slot: number, err: string | null): void {
    if (!this.payers.has(signature)) return;
    if (err !== null) {
      this.stages.forget(signature);
      this.observe('failed', signature, slot, err);
      return;
    }
    this.observe('processed', signature, slot);
    const stage = this.stages.place(signature, slot);
    if (stage !== null) this.observe(stage, signature, slot);
  }

  private onSlot(slot: number, status: number): void {
    const o = this.stages.slotStatus(slot, status);
    if (o.stage !== null) for (const s of o.reached) this.observe(o.stage, s, slot);
    for (const s of o.lost) this.tracker.pollSoon(s);
  }

  private observe(type: TxEvent['type'], signature: string, slot: number, err: string | null = null): void {
    this.tracker.observe({ type, signature, slot, source: 'geyser', err });
  }

  private apply(): Promise<void> {
    const accounts = this.payers.payers();
    const writes = [this.landedWatch.setAccounts(accounts)];
    if (this.stageWatch) writes.push(this.stageWatch.setAccounts(accounts));
    const p = Promise.all(writes).then(() => undefined);
    this.applying = p;
    void p.then(() => {
      if (this.applying === p) this.applying = null;
    });
    return p;
  }
}
