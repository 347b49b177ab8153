/**
 * The ingest thread: the only writer of the slabs. Snapshot over RPC, then the Geyser stream, decoded by the
 * adapters into transaction-consistent records; publishes changed pools on the change ring (shared memory) and
 * reports readiness, feed status and stats to the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ADAPTERS } from '../engine/adapters/registry.js';
import { createGeyserTransport } from '../engine/chain/geyser-factory.js';
import { RpcClient } from '../engine/chain/rpc-client.js';
import { ChainWatch } from '../engine/ingest/chain-watch.js';
import { IngestCore } from '../engine/ingest/ingest-core.js';
import { IngestRunner } from '../engine/ingest/ingest-runner.js';
import { ChangeRing } from '../engine/slab/change-ring.js';
import { MintTable } from '../engine/slab/mint-table.js';
import { PoolSlab } from '../engine/slab/pool-slab.js';
import type { IngestMessage, IngestWorkerData } from './protocol.js';

const data = workerData as IngestWorkerData;
const port = parentPort!;
const post = (m: IngestMessage): void => port.postMessage(m);

const slab = PoolSlab.attach(data.poolSab, data.extSab, data.arraySab);
const mints = MintTable.attach(data.mintSab);
const ring = ChangeRing.attach(data.changeSab);
// Polls get their own client: one attempt, a short timeout (a missed poll is simply missed, never queued).
const chain = new ChainWatch({ rpc: new RpcClient(data.rpcUrl, { retries: 0, timeoutMs: 2000 }), pollMs: data.chainPollMs ?? 200 });
const core = new IngestCore({
  slab,
  mints,
  adapters: ADAPTERS,
  onChange: (c) => {
    for (const p of c.pools) ring.push(p, c.confirmed);
    ring.publish();
  },
  // The runner is created right below; discovery only happens once it runs.
  onMissingAccounts: (a) => runner.noteMissing(a),
  onMissingOwnedTokenAccounts: (o) => runner.noteMissingOwners(o),
  // Records are stamped no later than the chain opened their slot: held-back data never looks fresh.
  dataTimeMs: (slot, appliedAtMs) => chain.timeline.notAfterOpenMs(slot, appliedAtMs),
});
const runner: IngestRunner = new IngestRunner({
  rpc: new RpcClient(data.rpcUrl),
  connect: () => createGeyserTransport(data.transport, { url: data.geyserUrl, xToken: data.geyserXToken }),
  core,
  adapters: ADAPTERS,
  chain,
  pingIntervalMs: data.pingIntervalMs,
  silenceMs: data.silenceMs,
  addressBudgetBytes: data.addressBudgetBytes,
  maxStreams: data.maxStreams,
  log: (level, msg, ctx) => post({ type: 'log', level, msg, ctx }),
  // The feed's status first (messages keep their order): /health can judge freshness from the first answer on.
  onReady: () => {
    postFeed();
    post({ type: 'ready', pools: core.registry.size });
  },
});

const statsTimer = setInterval(() => {
  post({
    type: 'stats',
    stats: {
      ...core.counters,
      ...runner.stats,
      processedSlot: core.lastProcessedSlot.toString(),
      pools: core.registry.size,
    },
  });
}, data.statsIntervalMs);
statsTimer.unref();

function postFeed(): void {
  const f = runner.feedStatus();
  post({ type: 'feed', feed: { ...f, processedSlot: f.processedSlot.toString(), chainSlot: f.chainSlot.toString() } });
}
const feedTimer = setInterval(postFeed, data.feedIntervalMs ?? 250);
feedTimer.unref();

port.on('message', (m: { type: string }) => {
  if (m.type === 'stop') {
    runner.stop();
    clearInterval(statsTimer);
    clearInterval(feedTimer);
    port.close();
  }
});

/** Startup with retries: the snapshot must load before the service is ready; RPC may not be up yet. */
async function startWithRetry(): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await runner.start();
      return;
    } catch (e) {
      post({ type: 'log', level: 'warn', msg: 'ingest start failed; retrying', ctx: { error: (e as Error).message, attempt } });
      await new Promise((r) => setTimeout(r, Math.min(5000, 250 * 2 ** attempt)));
    }
  }
}
void startWithRetry();
