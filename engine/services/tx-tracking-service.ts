/**
 * Transaction tracking as the shell sees it (`GET /v1/stream/tx`, and `POST /v1/send` / `POST /v1/swap` registering
 * what they submitted): the tracker (`engine/tx/tx-tracker.ts`) plus which key submitted which signature, so that a
 * stream without `signatures=` carries every transaction its key submitted. Bounded: 100,000 remembered submissions.
 */
import { LRUCache } from 'lru-cache';
import type { TxEvent, TxTracker } from '../tx/tx-tracker.js';

/** Most signatures one `GET /v1/stream/tx` connection may list. */
export const MAX_STREAM_SIGNATURES = 100;

/** What a stream subscribes to: listed signatures, or everything its key submits (from now on). */
export type TxInterest = { readonly signatures: ReadonlySet<string> } | { readonly keyId: number };

/** The tracking service. */
export class TxTrackingService {
  private readonly submittedBy = new LRUCache<string, number>({ max: 100_000 });

  constructor(private readonly tracker: TxTracker) {}

  /** A transaction the key submitted through the service: followed, and owned by the key for its streams. */
  submitted(keyId: number | null, signature: string): void {
    if (keyId !== null) this.submittedBy.set(signature, keyId);
    this.tracker.follow(signature);
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
    return this.tracker.subscribe((e) => {
      if (this.submittedBy.get(e.signature) === interest.keyId) deliver(e);
    });
  }
}
