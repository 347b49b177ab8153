/**
 * Ingest throughput per Geyser transport: a flood server (own process) streams pre-encoded vault updates of
 * CPMM pools; this process receives them through each transport and applies them to the slabs with the real
 * ingest core (decode, transaction grouping, dedup, adapter rebuild, seqlocked record writes).
 * Run: node dist/bench/ingest-throughput.bench.js [pools] [updates] [perSlot]
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { GeyserTransportName } from '../engine/chain/geyser-transport.js';
import { floodUniverse } from '../fixtures/synthetic/cpmm-universe.js';
import { consumeGeyser } from './geyser-consumer.js';

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
  const r = await consumeGeyser({ transport: name, url: `http://127.0.0.1:${flood.port}`, snapshot: floodUniverse(pools).accounts, pools, expectedAccounts: total, apply: true });
  flood.stop();
  return {
    transport: name,
    messages: r.messages,
    'messages/s': Math.round(r.messages / r.seconds),
    'account updates applied': r.applied,
    'updates applied/s': Math.round(r.applied / r.seconds),
    'records written/s': Math.round(r.recordsWritten / r.seconds),
  };
}

const rows = [];
for (const t of ['napi', 'grpc-js'] as const) rows.push(await measure(t));
console.table(rows);
process.exit(0);
