/**
 * The soak: the localnet (random trading on every DEX, plus steady trades on the watched pools) and the whole
 * service in one process, random faults from every knob one after another, REST readers and SSE clients reading
 * all along. It measures how long /health takes to come back after each fault, checks every REST price answer's
 * `poolCacheAgeMs` against the true age of the data it was computed from, and at the end compares every pool's
 * record with the chain's accounts read over RPC.
 *
 * The age oracle: the localnet records when each slot opened. A price answer computed from a record written at
 * slot S is at least `send time - open(S)` old when it is computed; the record's slot is read from the slab just
 * before and after the request (an answer is checked when both reads agree, or when the anonymous cache answered,
 * whose record can only be older than the one read before).
 */
import { EventSource } from 'eventsource';
import { USDC_MINT, USDT_MINT } from '../../engine/catalog/tokens.js';
import { compareWithChain, type ChainComparison } from '../../engine/ingest/testing/chain-reference.js';
import { poolIndexOf } from '../../engine/ingest/testing/pool-index.js';
import { newF64Snapshot } from '../../engine/slab/pool-snapshot.js';
import { VIEW_CONFIRMED } from '../../engine/slab/pool-slab.js';
import { SeededRandom } from '../../engine/adapters/testing/seeded-random.js';
import type { PriceObject } from '../../engine/router/price-types.js';
import { startLocalnet } from '../../fixtures/localnet/start-localnet.js';
import { between, randomFault, type Random } from './soak-faults.js';
import { startServiceUnderTest, TEST_DEMO_KEY, type ServiceUnderTest } from './service-under-test.js';

/** Options of {@link runSoak}. */
export interface SoakOptions {
  /** How long faults are injected. */
  readonly durationMs: number;
  readonly seed?: number;
  /** Progress lines. */
  readonly log?: (line: string) => void;
}

/** One fault and how the service came back from it. */
export interface FaultRecord {
  readonly kind: string;
  readonly params: Record<string, unknown>;
  readonly holdMs: number;
  /** ms from clearing the fault to /health 200 (0: it never left 200); null: not back within 60 s. */
  readonly recoveryMs: number | null;
  /** /health left 200 during the fault. */
  readonly wentUnhealthy: boolean;
}

/** A REST answer whose age was smaller than the data's. */
export interface StaleAnswer {
  readonly token: string;
  readonly reportedMs: number;
  readonly trueAgeAtLeastMs: number;
  readonly slot: string;
  readonly cache: string | null;
}

/** Everything the soak measured. */
export interface SoakReport {
  readonly durationMs: number;
  readonly faults: readonly FaultRecord[];
  readonly faultCounts: Record<string, number>;
  readonly recovery: { readonly p50: number; readonly p99: number; readonly max: number; readonly unrecovered: number };
  readonly answers: {
    readonly total: number;
    readonly ok: number;
    readonly ageChecked: number;
    /** Answers saying their data is older than the stale bound (-1): never too young. */
    readonly claimedStale: number;
    readonly ageUnchecked: number;
    readonly stale: number;
    readonly byStatus: Record<string, number>;
    readonly failedRequests: number;
  };
  readonly staleSamples: readonly StaleAnswer[];
  readonly health: { readonly polls: number; readonly unhealthy: number; readonly reasons: Record<string, number> };
  readonly sse: {
    readonly clients: number;
    readonly frames: number;
    readonly errors: number;
    readonly framesInLastFiveSeconds: number;
    /** Frames whose age was checked (see {@link runSoak}), and those found younger than their data. */
    readonly ageChecked: number;
    readonly stale: number;
  };
  readonly trades: { readonly watched: number; readonly simulated: number };
  readonly chain: Pick<ChainComparison, 'compared' | 'absentFromChain'> & { readonly mismatches: number; readonly mismatchSamples: ChainComparison['mismatches'] };
}

const SLOT_MS = 100;
const HISTORY_SLOTS = 50;

/** Tokens whose only pool is one CPMM pool against USDC or USDT: their price comes from that pool alone. */
function watchedTokens(s: ServiceUnderTest): { token: string; pool: string; index: number }[] {
  const pools = s.net.universe.pools;
  const out: { token: string; pool: string; index: number }[] = [];
  for (const p of pools) {
    const usd = [USDC_MINT, USDT_MINT];
    const other = usd.includes(p.mintA) ? p.mintB : usd.includes(p.mintB) ? p.mintA : null;
    if (!other || usd.includes(other)) continue;
    if (pools.filter((q) => q.mintA === other || q.mintB === other).length !== 1) continue;
    out.push({ token: other, pool: p.address, index: poolIndexOf(s.svc.slab, p.address) });
  }
  return out.filter((w) => w.index >= 0);
}

function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs the soak and reports; never throws for what it measures (the caller judges the report). */
export async function runSoak(o: SoakOptions): Promise<SoakReport> {
  const log = o.log ?? (() => undefined);
  const gen = new SeededRandom(o.seed ?? 1);
  const rnd: Random = () => gen.float();
  const net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 5, slotMs: SLOT_MS, historySlots: HISTORY_SLOTS, holders: 50 });
  const opened = new Map<bigint, number>();
  const unsubscribe = net.ledger.subscribe((e) => {
    if (e.kind === 'slot' && e.status === 0 && !opened.has(e.slot)) opened.set(e.slot, Date.now());
  });
  const s = await startServiceUnderTest({ CHAIN_POLL_MS: '100', HEALTH_MAX_UPDATE_AGE_MS: '2000', HEALTH_MAX_SLOT_LAG: '20', LOG_LEVEL: 'error', RATE_QUOTA_SCALE: '10000' }, net);
  const watched = watchedTokens(s);
  log(`soak: ${watched.length} watched tokens, ${s.svc.slab.count()} pools, faults for ${o.durationMs} ms`);
  let running = true;

  // Steady trades on the watched pools, so their data changes during every fault.
  let watchedTrades = 0;
  const trader = (async () => {
    while (running) {
      const w = watched[Math.floor(rnd() * watched.length)]!;
      if (net.simulator.swapNow(w.pool, rnd() < 0.5, BigInt(between(rnd, 10_000, 2_000_000))).slot !== undefined) watchedTrades++;
      await sleep(150);
    }
  })();

  // REST readers with the age oracle.
  const byStatus: Record<string, number> = {};
  const staleSamples: StaleAnswer[] = [];
  let total = 0;
  let ok = 0;
  let ageChecked = 0;
  let claimedStale = 0;
  let ageUnchecked = 0;
  let stale = 0;
  let failedRequests = 0;
  const snap = newF64Snapshot();
  const recordSlot = (index: number): number => (s.svc.slab.readF64(index, VIEW_CONFIRMED, snap) ? snap.slot : -1);
  const reader = async (keyed: boolean): Promise<void> => {
    while (running) {
      const w = watched[Math.floor(rnd() * watched.length)]!;
      const before = recordSlot(w.index);
      const sentAt = Date.now();
      try {
        const r = await fetch(`${s.base}/v1/price/${w.token}`, keyed ? { headers: { 'x-api-key': TEST_DEMO_KEY } } : {});
        const body = (await r.json()) as PriceObject;
        const afterSlot = recordSlot(w.index);
        total++;
        byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
        if (r.status === 200) {
          ok++;
          const cache = r.headers.get('x-cache');
          const versionKnown = cache === 'hit' || before === afterSlot;
          const openedAt = opened.get(BigInt(before));
          if (body.poolCacheAgeMs === -1) claimedStale++;
          else if (!versionKnown || openedAt === undefined || body.bestBidPool !== w.pool) ageUnchecked++;
          else {
            ageChecked++;
            const atLeast = sentAt - openedAt;
            if (body.poolCacheAgeMs < atLeast) {
              stale++;
              if (staleSamples.length < 20) staleSamples.push({ token: w.token, reportedMs: body.poolCacheAgeMs, trueAgeAtLeastMs: atLeast, slot: String(before), cache });
            }
          }
        }
      } catch {
        failedRequests++;
      }
      await sleep(25);
    }
  };
  const readers = [reader(true), reader(false)];

  // SSE clients (the eventsource package reconnects by itself, as a browser does).
  let frames = 0;
  let sseErrors = 0;
  let sseAgeChecked = 0;
  let sseStale = 0;
  const watchedByMint = new Map(watched.map((w) => [w.token, w]));
  const frameTimes: number[] = [];
  const tokens = watched.slice(0, 5).map((w) => w.token).join(',');
  const clients = [0, 1, 2].map(() => {
    const es = new EventSource(`${s.base}/v1/stream/prices?tokens=${tokens}&apiKey=${TEST_DEMO_KEY}`);
    es.addEventListener('price', (ev) => {
      frames++;
      frameTimes.push(Date.now());
      // A frame was computed (its `timestamp`) from a record at or below the slot the record holds now, so it is at
      // least `timestamp - open(slot now)` old: a sound lower bound (never flags a truthful frame).
      const f = JSON.parse(ev.data) as PriceObject;
      const w = watchedByMint.get(f.mint);
      const slotNow = w ? recordSlot(w.index) : -1;
      const openedAt = opened.get(BigInt(slotNow));
      if (!w || openedAt === undefined || f.poolCacheAgeMs === -1 || f.bestBidPool !== w.pool) return;
      sseAgeChecked++;
      if (f.poolCacheAgeMs < f.timestamp - openedAt) {
        sseStale++;
        if (staleSamples.length < 20) staleSamples.push({ token: f.mint, reportedMs: f.poolCacheAgeMs, trueAgeAtLeastMs: f.timestamp - openedAt, slot: String(slotNow), cache: 'sse' });
      }
    });
    es.onerror = () => void sseErrors++;
    return es;
  });

  // Health, polled all along.
  let polls = 0;
  let unhealthy = 0;
  const reasons: Record<string, number> = {};
  let healthyNow = true;
  const healthPoller = (async () => {
    while (running) {
      try {
        const r = await fetch(`${s.base}/health`);
        const b = (await r.json()) as { reason?: string };
        polls++;
        healthyNow = r.status === 200;
        if (!healthyNow) {
          unhealthy++;
          reasons[b.reason ?? String(r.status)] = (reasons[b.reason ?? String(r.status)] ?? 0) + 1;
        }
      } catch {
        healthyNow = false;
      }
      await sleep(50);
    }
  })();
  const healthy = async (): Promise<boolean> => (await fetch(`${s.base}/health`).catch(() => null))?.status === 200;

  // The faults, one after another.
  const faults: FaultRecord[] = [];
  const until = Date.now() + o.durationMs;
  while (Date.now() < until) {
    await sleep(between(rnd, 1000, 3000));
    const plan = randomFault(rnd, SLOT_MS * HISTORY_SLOTS);
    let wentUnhealthy = false;
    plan.apply(net);
    const holdEnd = Date.now() + plan.holdMs;
    while (Date.now() < holdEnd) {
      if (!healthyNow) wentUnhealthy = true;
      await sleep(50);
    }
    plan.clear(net);
    const clearedAt = Date.now();
    let recoveryMs: number | null = null;
    while (Date.now() - clearedAt < 60_000) {
      if (await healthy()) {
        recoveryMs = Date.now() - clearedAt;
        break;
      }
      wentUnhealthy = true;
      await sleep(25);
    }
    faults.push({ kind: plan.kind, params: plan.params, holdMs: plan.holdMs, recoveryMs, wentUnhealthy });
    log(`fault ${faults.length}: ${plan.kind} ${JSON.stringify(plan.params)} held ${plan.holdMs} ms -> healthy after ${recoveryMs ?? 'never'} ms`);
  }

  // Quiet down: no faults, no trades; let the last writes confirm, stop the clock, compare with the chain.
  running = false;
  await trader;
  await Promise.all(readers);
  await healthPoller;
  net.rpc.clearFaults();
  net.simulator.stop();
  const endAt = Date.now();
  while (!(await healthy()) && Date.now() - endAt < 30_000) await sleep(100);
  await sleep(10 * SLOT_MS);
  net.ledger.stop();
  let chain: ChainComparison = { compared: 0, absentFromChain: 0, mismatches: [], slot: 0n };
  for (let i = 0; i < 20; i++) {
    await sleep(200);
    chain = await compareWithChain(s.svc.slab, net.rpcUrl);
    if (chain.mismatches.length === 0) break;
  }
  for (const m of chain.mismatches.slice(0, 5)) log(`mismatch: ${JSON.stringify(m)}`);
  const lastFive = frameTimes.filter((t) => t >= endAt - 5000 && t <= endAt).length;
  for (const c of clients) c.close();
  unsubscribe();
  await s.stop();
  await net.stop();

  const recoveries = faults.map((f) => f.recoveryMs).filter((x): x is number => x !== null).sort((a, b) => a - b);
  const faultCounts: Record<string, number> = {};
  for (const f of faults) faultCounts[f.kind] = (faultCounts[f.kind] ?? 0) + 1;
  return {
    durationMs: o.durationMs,
    faults,
    faultCounts,
    recovery: { p50: percentile(recoveries, 0.5), p99: percentile(recoveries, 0.99), max: recoveries.at(-1) ?? 0, unrecovered: faults.length - recoveries.length },
    answers: { total, ok, ageChecked, claimedStale, ageUnchecked, stale, byStatus, failedRequests },
    staleSamples,
    health: { polls, unhealthy, reasons },
    sse: { clients: clients.length, frames, errors: sseErrors, framesInLastFiveSeconds: lastFive, ageChecked: sseAgeChecked, stale: sseStale },
    trades: { watched: watchedTrades, simulated: net.simulator.applied },
    chain: { compared: chain.compared, absentFromChain: chain.absentFromChain, mismatches: chain.mismatches.length, mismatchSamples: chain.mismatches.slice(0, 8) },
  };
}
