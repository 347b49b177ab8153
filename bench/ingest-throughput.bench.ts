/**
 * Ingest throughput per Geyser transport: a flood server (own process) streams pre-encoded vault updates of
 * CPMM pools; this process receives them through each transport and applies them to the slabs with the real
 * ingest core (decode, slot batching, dedup, adapter rebuild, seqlocked record writes).
 * Run: node dist/bench/ingest-throughput.bench.js [pools] [updates] [perSlot]
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ADAPTERS } from '../engine/adapters/registry.js';
import { createGeyserTransport } from '../engine/chain/geyser-factory.js';
import type { GeyserTransportName } from '../engine/chain/geyser-transport.js';
import { applyGeyserUpdate } from '../engine/ingest/geyser-update.js';
import { IngestCore } from '../engine/ingest/ingest-core.js';
import { buildSubscribeRequest } from '../engine/ingest/subscription.js';
import { MintTable } from '../engine/slab/mint-table.js';
import { PoolSlab } from '../engine/slab/pool-slab.js';
import { floodUniverse } from '../fixtures/synthetic/cpmm-universe.js';

const [pools = 200, total = 200_000, perSlot = 100] = process.argv.slice(2).map(Number);

async function startFlood(): Promise<{ port: number; messages: number; stop: () => void }> {
  const file = fileURLToPath(new URL('./geyser-flood-server.js', import.meta.url));
  const child = spawn(process.execPath, [file, String(pools), String(total), String(perSlot)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let buf = '';
  for await (const chunk of child.stdout) {
    buf += String(chunk);
    const m = /FLOOD_READY (\{.*\})/.exec(buf);
    if (m) {
      const info = JSON.parse(m[1]!) as { port: number; messages: number };
      return { ...info, stop: () => child.kill() };
    }
  }
  throw new Error('flood server did not start');
}

async function measure(name: GeyserTransportName): Promise<Record<string, string | number>> {
  const flood = await startFlood();
  const slab = PoolSlab.create(pools + 16, pools + 16);
  const mints = MintTable.create(pools + 16, pools + 16);
  const core = new IngestCore({ slab, mints, adapters: ADAPTERS, onChange: () => undefined });
  const u = floodUniverse(pools);
  core.applySnapshot(u.accounts, 1n);
  const before = { ...core.counters };
  const transport = await createGeyserTransport(name, { url: `http://127.0.0.1:${flood.port}` });
  let received = 0;
  let first = 0;
  let last = 0;
  const done = new Promise<void>((resolve) => {
    void transport.subscribe(buildSubscribeRequest(ADAPTERS, core.watchedAccounts()), {
      onUpdate: (upd) => {
        if (received === 0) first = performance.now();
        received++;
        applyGeyserUpdate(core, upd);
        last = performance.now();
        if (received === flood.messages) resolve();
      },
      onEnd: () => resolve(),
    });
  });
  await done;
  core.flush();
  transport.close();
  flood.stop();
  const secs = (last - first) / 1000;
  const applied = core.counters.applied - before.applied;
  return {
    transport: name,
    messages: received,
    'messages/s': Math.round(received / secs),
    'account updates applied': applied,
    'updates applied/s': Math.round(applied / secs),
    'records written/s': Math.round((core.counters.recordsWritten - before.recordsWritten) / secs),
  };
}

const rows = [];
for (const t of ['napi', 'grpc-js'] as const) rows.push(await measure(t));
console.table(rows);
process.exit(0);
