/**
 * Soak support: random faults from every knob of the localnet (Geyser drop, refusal, stall; slot clock stop and
 * stall; RPC failures of every status, latency), alone and combined, each applied for a while and then cleared.
 */
import type { Localnet } from '../../fixtures/localnet/start-localnet.js';

/** A random source in [0, 1). */
export type Random = () => number;

/** One fault as injected. */
export interface FaultPlan {
  /** Kind, for the report (`geyser-refuse+rpc-fail`, ...). */
  readonly kind: string;
  /** Parameters, for the report. */
  readonly params: Record<string, unknown>;
  /** How long the fault is held before it is cleared. */
  readonly holdMs: number;
  apply(net: Localnet): void;
  clear(net: Localnet): void;
}

const RPC_METHODS = [undefined, ['getSlot'], ['getProgramAccounts'], ['getMultipleAccounts'], ['getProgramAccounts', 'getMultipleAccounts', 'getTokenAccountsByOwner']] as const;
const RPC_STATUSES = [429, 500, 503, 'timeout'] as const;

const pick = <T>(rnd: Random, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
/** A random integer in [lo, hi]. */
export const between = (rnd: Random, lo: number, hi: number): number => Math.round(lo + rnd() * (hi - lo));

function geyserDrop(): FaultPlan {
  return { kind: 'geyser-drop', params: {}, holdMs: 0, apply: (n) => void n.geyser.dropStreams(), clear: () => undefined };
}

/** Streams refused for `ms` (sometimes longer than the replay window), the live ones dropped. */
function geyserRefuse(rnd: Random, windowMs: number): FaultPlan {
  const ms = between(rnd, 500, windowMs * 2.5);
  return {
    kind: 'geyser-refuse',
    params: { ms, beyondReplayWindow: ms > windowMs },
    holdMs: ms,
    apply: (n) => {
      n.geyser.refuseStreams(ms);
      n.geyser.dropStreams();
    },
    clear: () => undefined,
  };
}

function geyserStall(rnd: Random): FaultPlan {
  const ms = between(rnd, 500, 8000);
  return { kind: 'geyser-stall', params: { ms }, holdMs: ms, apply: (n) => void n.geyser.stallStreams(ms), clear: () => undefined };
}

function slotsStop(rnd: Random): FaultPlan {
  const ms = between(rnd, 500, 5000);
  return { kind: 'slots-stop', params: { ms }, holdMs: ms, apply: (n) => n.ledger.stop(), clear: (n) => n.ledger.start() };
}

function slotsStall(rnd: Random): FaultPlan {
  const ms = between(rnd, 500, 5000);
  return { kind: 'slots-stall', params: { ms }, holdMs: ms, apply: (n) => n.ledger.stallSlots(ms), clear: () => undefined };
}

function rpcFail(rnd: Random): FaultPlan {
  const count = between(rnd, 1, 25);
  const status = pick(rnd, RPC_STATUSES);
  const methods = pick(rnd, RPC_METHODS);
  const holdMs = between(rnd, 1000, 5000);
  return {
    kind: 'rpc-fail',
    params: { count, status, methods: methods ?? 'all' },
    holdMs,
    apply: (n) => n.rpc.failNext(count, status, methods ? [...methods] : undefined),
    clear: (n) => n.rpc.clearFaults(),
  };
}

function rpcLatency(rnd: Random): FaultPlan {
  const ms = between(rnd, 100, 2500);
  const holdMs = between(rnd, 1000, 6000);
  return { kind: 'rpc-latency', params: { ms }, holdMs, apply: (n) => n.rpc.setLatency(ms), clear: (n) => n.rpc.clearFaults() };
}

/** Two faults at once, held for the longer of the two. */
function both(a: FaultPlan, b: FaultPlan): FaultPlan {
  return {
    kind: `${a.kind}+${b.kind}`,
    params: { [a.kind]: a.params, [b.kind]: b.params },
    holdMs: Math.max(a.holdMs, b.holdMs),
    apply: (n) => {
      a.apply(n);
      b.apply(n);
    },
    clear: (n) => {
      a.clear(n);
      b.clear(n);
    },
  };
}

/** A random fault; `replayWindowMs` is the Geyser server's `from_slot` window in ms. */
export function randomFault(rnd: Random, replayWindowMs: number): FaultPlan {
  const r = rnd();
  if (r < 0.1) return geyserDrop();
  if (r < 0.25) return geyserRefuse(rnd, replayWindowMs);
  if (r < 0.38) return geyserStall(rnd);
  if (r < 0.46) return slotsStop(rnd);
  if (r < 0.54) return slotsStall(rnd);
  if (r < 0.68) return rpcFail(rnd);
  if (r < 0.78) return rpcLatency(rnd);
  // Combined: the outage that forces a resync while RPC fails, a stall under RPC latency, a drop while slots stop.
  if (r < 0.88) return both(geyserRefuse(rnd, replayWindowMs), rpcFail(rnd));
  if (r < 0.94) return both(geyserStall(rnd), rpcLatency(rnd));
  return both(geyserDrop(), slotsStop(rnd));
}
