/**
 * Start-up at scale (issue 11): for each pool count, a localnet with that many pools (CPMM pools added to the
 * other DEXes' 34), then the service against it once per store, reporting the time from spawning the service to
 * `/health` 200, its RSS once ready (and after settling), its peak RSS (VmHWM) and the memory per pool against
 * the smallest count. Run it alone: `flock /tmp/bench.lock node dist/bench/startup-scale.js`.
 *
 * Flags: `--pools 89,20000,158000` (total pools; the first is the baseline of memory per pool),
 * `--stores pglite,postgres`, `--service-root DIR` (a build of another revision, for before/after; default this
 * one), `--settle-ms 5000`, `--timeout-s 900`. PostgreSQL: `TEST_DATABASE_URL` (default
 * postgres://postgres@127.0.0.1:5432/test) with a throwaway schema per run, dropped after it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../engine/store/testing/pg-schema.js';
import { processMemory, startLocalnetChild, startServiceChild, waitForLine, waitHealthy } from './startup-processes.js';

/** Pools the default localnet seeds on the five DEXes other than CPMM. */
const OTHER_DEX_POOLS = 34;
/** The default localnet's CPMM pools (the `--pools` minimum). */
const DEFAULT_CPMM_POOLS = 55;

function flag(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : dflt;
}

const here = resolve(fileURLToPath(import.meta.url), '../../..');
const counts = flag('pools', '89,20000,158000').split(',').map(Number);
const stores = flag('stores', 'pglite,postgres').split(',') as ('pglite' | 'postgres')[];
const serviceRoot = resolve(flag('service-root', here));
const settleMs = Number(flag('settle-ms', '5000'));
const timeoutMs = Number(flag('timeout-s', '900')) * 1000;

/** One measured start. */
interface Row {
  pools: number;
  store: string;
  loaded: number;
  localnetBuildS: number;
  /** Null: not healthy within `--timeout-s` (the memory columns are then read at the timeout). */
  readyS: number | null;
  rssReadyMiB: number;
  rssSettledMiB: number;
  hwmMiB: number;
  perPoolKiB?: number;
}

const MiB = 1024 * 1024;
const rows: Row[] = [];
console.error(`service: ${serviceRoot}  localnet: ${here}`);
for (const total of counts) {
  const cpmm = Math.max(DEFAULT_CPMM_POOLS, total - OTHER_DEX_POOLS);
  const net = await startLocalnetChild(here, cpmm);
  console.error(`localnet with ${cpmm} CPMM pools ready in ${net.buildSeconds.toFixed(1)} s`);
  try {
    for (const store of stores) {
      const dataDir = mkdtempSync(join(tmpdir(), 'startup-scale-'));
      const schema = store === 'postgres' ? randomSchema('startup_scale') : undefined;
      const env: Record<string, string> = schema ? { DATABASE_URL: testDatabaseUrl(), DATABASE_SCHEMA: schema } : {};
      const svc = await startServiceChild(serviceRoot, net, dataDir, env);
      try {
        const readyMs = await waitHealthy(svc, timeoutMs).catch((e: Error) => {
          if (!/not healthy within/.test(e.message)) throw e;
          return null;
        });
        const atReady = processMemory(svc.pid);
        if (readyMs !== null) await new Promise((r) => setTimeout(r, settleMs));
        const settled = processMemory(svc.pid);
        const loadedLine = readyMs === null ? null : await waitForLine(svc, /"startup snapshot loaded"/, 1000);
        const loaded = loadedLine === null ? 0 : (JSON.parse(loadedLine) as { pools: number }).pools;
        const row: Row = {
          pools: total,
          store,
          loaded,
          localnetBuildS: round(net.buildSeconds, 1),
          readyS: readyMs === null ? null : round(readyMs / 1000, 2),
          rssReadyMiB: round(atReady.rss / MiB, 0),
          rssSettledMiB: round(settled.rss / MiB, 0),
          hwmMiB: round(Math.max(atReady.hwm, settled.hwm) / MiB, 0),
        };
        const base = rows.find((r) => r.store === store && r.pools === counts[0]);
        if (base && total !== base.pools && readyMs !== null) row.perPoolKiB = round(((row.rssSettledMiB - base.rssSettledMiB) * 1024) / (row.loaded - base.loaded), 2);
        rows.push(row);
        console.log(JSON.stringify(row));
      } finally {
        await svc.stop();
        rmSync(dataDir, { recursive: true, force: true });
        if (schema) await dropSchemas([schema]);
      }
    }
  } finally {
    await net.stop(60_000);
  }
}

console.log('\n| pools | store | loaded | ready (s) | RSS at ready (MiB) | RSS settled (MiB) | peak VmHWM (MiB) | per pool (KiB) |');
console.log('|---:|---|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  const ready = r.readyS === null ? `not ready in ${timeoutMs / 1000} s` : String(r.readyS);
  console.log(`| ${r.pools.toLocaleString('en-US')} | ${r.store} | ${r.loaded.toLocaleString('en-US')} | ${ready} | ${r.rssReadyMiB} | ${r.rssSettledMiB} | ${r.hwmMiB} | ${r.perPoolKiB ?? ''} |`);
}

function round(x: number, digits: number): number {
  const k = 10 ** digits;
  return Math.round(x * k) / k;
}
