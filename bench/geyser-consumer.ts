/**
 * The consumer side of the Geyser benchmarks: subscribes as the service's ingest does (its own request, through
 * one of its transports), optionally applies every update with the real ingest core (decode, transaction grouping,
 * dedup, adapter rebuild, seqlocked record writes), and times the stream from its first message to its last.
 */
import { ADAPTERS } from '../engine/adapters/registry.js';
import { createGeyserTransport } from '../engine/chain/geyser-factory.js';
import type { GeyserTransportName } from '../engine/chain/geyser-transport.js';
import type { AccountUpdate } from '../engine/ingest/account-update.js';
import { applyGeyserUpdate } from '../engine/ingest/geyser-update.js';
import { IngestCore } from '../engine/ingest/ingest-core.js';
import { buildSubscribeRequest } from '../engine/ingest/subscription.js';
import { MintTable } from '../engine/slab/mint-table.js';
import { PoolSlab } from '../engine/slab/pool-slab.js';

/** What to consume and how. */
export interface ConsumeOptions {
  readonly transport: GeyserTransportName;
  readonly url: string;
  /** Accounts applied before streaming (the RPC snapshot the service would load). */
  readonly snapshot: readonly AccountUpdate[];
  /** Pools the slabs must hold. */
  readonly pools: number;
  /** The stream is done after this many account updates (or when it ends). */
  readonly expectedAccounts: number;
  /** Apply each update with the ingest core (false: decode only). */
  readonly apply: boolean;
}

/** Counts and rates of one consumed stream. */
export interface ConsumeResult {
  readonly messages: number;
  readonly accounts: number;
  readonly seconds: number;
  readonly applied: number;
  readonly recordsWritten: number;
}

/** Subscribes with the ingest's request and consumes until `expectedAccounts` account updates arrived. */
export async function consumeGeyser(o: ConsumeOptions): Promise<ConsumeResult> {
  const slab = PoolSlab.create(o.pools + 16, o.pools + 16);
  const mints = MintTable.create(2 * o.pools + 16, 2 * o.pools + 16);
  const core = new IngestCore({ slab, mints, adapters: ADAPTERS, onChange: () => undefined });
  core.applySnapshot(o.snapshot, 1n);
  const before = { ...core.counters };
  const transport = await createGeyserTransport(o.transport, { url: o.url });
  let messages = 0;
  let accounts = 0;
  let first = 0;
  let last = 0;
  await new Promise<void>((resolve) => {
    void transport.subscribe(buildSubscribeRequest(ADAPTERS, core.watchedAccounts()), {
      onUpdate: (u) => {
        if (messages === 0) first = performance.now();
        messages++;
        if (u.account) accounts++;
        if (o.apply) applyGeyserUpdate(core, u);
        last = performance.now();
        if (accounts === o.expectedAccounts) resolve();
      },
      onEnd: () => resolve(),
    });
  });
  core.flush();
  transport.close();
  return {
    messages,
    accounts,
    seconds: (last - first) / 1000,
    applied: core.counters.applied - before.applied,
    recordsWritten: core.counters.recordsWritten - before.recordsWritten,
  };
}
