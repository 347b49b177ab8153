/**
 * The contracts of the limiters: a fixed-window counter for per-minute quotas and a slot counter for
 * concurrent streams. Each has a memory implementation (one instance) and a Redis one (several instances
 * behind one load balancer enforce one quota).
 */

/** The answer of a window counter. */
export interface WindowDecision {
  /** True when the units were granted (and counted). */
  readonly allowed: boolean;
  /** Units counted in the window after this call (a refused call adds nothing). */
  readonly used: number;
  /** The quota the call was checked against. */
  readonly limit: number;
  /** End of the window (epoch ms); `X-RateLimit-Reset` is this in epoch seconds, rounded up. */
  readonly resetAtMs: number;
}

/** Fixed-window counters: `limit` units per `windowMs`, windows aligned to the epoch. */
export interface WindowLimiter {
  /**
   * Grants `cost` units to `bucket` if `used + cost <= limit`, counting them; refuses without counting otherwise.
   * Never rejects: a backend failure falls back to a local decision (and is logged).
   */
  consume(bucket: string, cost: number, limit: number, nowMs: number): WindowDecision | Promise<WindowDecision>;
  close(): Promise<void>;
}

/** A held stream slot. Release is idempotent. */
export interface SlotLease {
  release(): void;
}

/** The answer of a slot acquisition. */
export type SlotDecision =
  | { readonly ok: true; readonly held: number; readonly lease: SlotLease }
  | { readonly ok: false; readonly held: number };

/** Concurrent-stream slots per subject (an API key), shared across every stream route. */
export interface SlotLimiter {
  /** Takes a slot if fewer than `limit` are held. */
  acquire(subject: string, limit: number): Promise<SlotDecision>;
  /** Slots currently held by `subject` (all instances). */
  held(subject: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * Where the limiters report backend trouble (Redis down, recovered, a failed release). Same shape as the ingest
 * runner's logger so one adapter wires both.
 */
export type LimitsLog = (level: 'debug' | 'info' | 'warn' | 'error', msg: string, ctx?: Record<string, unknown>) => void;
