/**
 * Transaction tracking as the shell sees it (`GET /v1/stream/tx`, and `POST /v1/send` / `POST /v1/swap` registering
 * what they submitted): the tracker (`engine/tx/tx-tracker.ts`) plus which key submitted which signature, so that a
 * stream without `signatures=` carries every transaction its key submitted. Bounded: 100,000 remembered submissions.
 * With the Geyser sources (`geyser-signals.ts`), the send and swap services call `expect` with the fee payer before
 * they submit, so the Geyser events (`landed`, then the stages) are seen; they may then come before `submitted`,
 * which hands what the signature already went through to its key's open streams.
 */
import { LRUCache } from 'lru-cache';
import type { TxEvent, TxTracker } from '../tx/tx-tracker.js';
import type { GeyserSignals } from './geyser-signals.js';

/** Most signatures one `GET /v1/stream/tx` connection may list. */
export const MAX_STREAM_SIGNATURES = 100;

/** What a stream subscribes to: listed signatures, or everything its key submits (from now on). */
export type TxInterest = { readonly signatures: ReadonlySet<string> } | { readonly keyId: number };

/** The tracking service. */
export class TxTrackingService {
  private readonly submittedBy = new LRUCache<string, number>({ max: 100_000 });
  /** The open streams of each key (without `signatures=`). */
  private readonly keyStreams = new Map<number, Set<(e: TxEvent) => void>>();

  constructor(
    private readonly tracker: TxTracker,
    private readonly geyser: Pick<GeyserSignals, 'expect'> | null = null,
  ) {}

  /**
   * `signature`, paid by `feePayer`, is about to be submitted (the send and swap services call it first): its Geyser
   * events are watched for. Resolves when the watches are in place (bounded; at once without Geyser sources).
   */
  expect(signature: string, feePayer: string): Promise<void> {
    return this.geyser?.expect(signature, feePayer) ?? Promise.resolve();
  }

  /** A transaction the key submitted through the service: followed, and owned by the key for its streams. */
  submitted(keyId: number | null, signature: string): void {
    if (keyId !== null && this.submittedBy.get(signature) !== keyId) {
      this.submittedBy.set(signature, keyId);
      // Why: events emitted before the submission answered (the landed signal) reached no stream of the key yet.
      const history = this.tracker.history(signature);
      if (history.length > 0) for (const deliver of this.keyStreams.get(keyId) ?? []) for (const e of history) deliver(e);
    }
    this.tracker.follow(signature, true);
  }

  /**
   * Subscribes `deliver` to the events of `interest`; listed signatures are followed, and what they went through
   * before is replayed first. Returns the unsubscribe.
   */
  subscribe(interest: TxInterest, deliver: (e: TxEvent) => void): () => void {
    if ('signatures' in interest) {
      for (const s of interest.signatures) {
        for (const e of this.tracker.history(s)) deliver(e);
        this.tracker.follow(s);
      }
      return this.tracker.subscribe((e) => {
        if (interest.signatures.has(e.signature)) deliver(e);
      });
    }
    const { keyId } = interest;
    let streams = this.keyStreams.get(keyId);
    if (!streams) this.keyStreams.set(keyId, (streams = new Set()));
    streams.add(deliver);
    const off = this.tracker.subscribe((e) => {
      if (this.submittedBy.get(e.signature) === keyId) deliver(e);
    });
    return () => {
      off();
      streams.delete(deliver);
      if (streams.size === 0 && this.keyStreams.get(keyId) === streams) this.keyStreams.delete(keyId);
    };
  }
}
