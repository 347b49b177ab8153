/**
 * Start-up at scale (issue 11): for each pool count, a localnet with that many pools (CPMM pools added to the
 * other DEXes' 34), then the service against it once per store, reporting the time from spawning the service to
 * `/health` 200, its RSS once ready (and after settling), its peak RSS (VmHWM) and the memory per pool against
 * the smallest count. Run it alone: `flock /tmp/bench.lock node dist/bench/startup-scale.js`.
 *
 * Flags: `--pools 89,20000,158000` (total pools; the first is the baseline of memory per pool),
 * `--stores pglite,postgres`, `--service-root DIR` (a build of another revision, for before/after; default this
 * one), `--before-root DIR` (a build of another revision run first against the same localnet, rows labelled
 * `before`), `--settle-ms 5000`, `--timeout-s 900`. PostgreSQL: `TEST_DATABASE_URL` (default
 * postgres://postgres@127.0.0.1:5432/test) with a throwaway schema per run, dropped after it.
 *
 * The live stream: seconds from spawn to the first `geyser subscribed` log line, the request's encoded size it
 * logs (`requestBytes`; and `requestBytes + streamedBytes`, what listing every vault by address would have sent),
 * the `geyser stream ended` lines seen by the end of the settle time (a refused request makes a reconnect loop)
 * and those naming `RESOURCE_EXHAUSTED`,
 * and `/health`'s `streamConnected` and `slotLag` at that moment.
 *
 * `--pumpswap-pools N` adds N PumpSwap pools to every localnet (the localnet's `--pumpswap-pools`; each pool's vaults
 * and base mint are listed by address, so past ~26,000 of them one request cannot carry them): the rows then also
 * give `/health`'s `streams` and `streamsConnected` (Subscribe streams open and subscribed; absent before them).
 * `--service-env K=V,K=V` adds environment to every service started.
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
const beforeRoot = flag('before-root', '');
const services: { label: string; root: string }[] = [...(beforeRoot ? [{ label: 'before', root: resolve(beforeRoot) }] : []), { label: 'this', root: serviceRoot }];
const settleMs = Number(flag('settle-ms', '5000'));
const timeoutMs = Number(flag('timeout-s', '900')) * 1000;
const pumpswapPools = Number(flag('pumpswap-pools', '0'));
const serviceEnv: Record<string, string> = Object.fromEntries(
  flag('service-env', '').split(',').filter((kv) => kv.includes('=')).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
);

/** One measured start. */
interface Row {
  pools: number;
  service: string;
  store: string;
  loaded: number;
  localnetBuildS: number;
  /** Null: not healthy within `--timeout-s` (the memory columns are then read at the timeout). */
  readyS: number | null;
  rssReadyMiB: number;
  rssSettledMiB: number;
  hwmMiB: number;
  perPoolKiB?: number;
  /** Seconds from spawn to the first `geyser subscribed` (null: none by the end of the settle time). */
  subscribedS: number | null;
  /** `requestBytes` of that log line, and what the same request listing every streamed vault would weigh. */
  requestBytes: number | null;
  allListedBytes: number | null;
  /** `geyser stream ended` lines by the end of the settle time. */
  streamEnds: number;
  /** Lines naming `RESOURCE_EXHAUSTED` or its description (the server refusing the request's size). */
  exhausted: number;
  /** `/health` at the end of the settle time. */
  streamConnected: boolean | null;
  slotLag: number | null;
  unwatchedPools: number;
  /** `/health`'s Subscribe streams open and subscribed (null: a service that does not report them). */
  streams: number | null;
  streamsConnected: number | null;
}

const MiB = 1024 * 1024;
const rows: Row[] = [];
console.error(`service: ${serviceRoot}  localnet: ${here}`);
for (const count of counts) {
  const cpmm = Math.max(DEFAULT_CPMM_POOLS, count - OTHER_DEX_POOLS);
  const total = count + pumpswapPools;
  const net = await startLocalnetChild(here, cpmm, pumpswapPools);
  console.error(`localnet with ${cpmm} CPMM pools and ${pumpswapPools} more PumpSwap pools ready in ${net.buildSeconds.toFixed(1)} s`);
  try {
    for (const store of stores) for (const service of services) {
      const dataDir = mkdtempSync(join(tmpdir(), 'startup-scale-'));
      const schema = store === 'postgres' ? randomSchema('startup_scale') : undefined;
      const env: Record<string, string> = { ...serviceEnv, ...(schema ? { DATABASE_URL: testDatabaseUrl(), DATABASE_SCHEMA: schema } : {}) };
      const svc = await startServiceChild(service.root, net, dataDir, env);
      let subscribedMs: number | null = null;
      // The primary stream's line (overflow streams log theirs with a nonzero `stream`).
      const subscribed = waitForLine(svc, /"geyser subscribed"(?!.*"stream":[1-9])/, timeoutMs)
        .then((l) => {
          subscribedMs = performance.now() - svc.startedAt;
          return l;
        })
        .catch(() => null);
      try {
        const readyMs = await waitHealthy(svc, timeoutMs).catch((e: Error) => {
          if (!/not healthy within/.test(e.message)) throw e;
          return null;
        });
        const atReady = processMemory(svc.pid);
        if (readyMs !== null) await new Promise((r) => setTimeout(r, settleMs));
        const settled = processMemory(svc.pid);
        const health = await fetch(`${svc.base}/health`)
          .then((r) => r.json() as Promise<{ streamConnected?: boolean; slotLag?: number | null; unwatchedPools?: number; streams?: number; streamsConnected?: number }>)
          .catch(() => null);
        const subLine = subscribedMs !== null ? await subscribed : null;
        const sub = subLine === null ? null : (JSON.parse(subLine) as { requestBytes?: number; streamedBytes?: number });
        const streamEnds = svc.lines.filter((l) => /geyser stream ended/.test(l)).length;
        // grpc-js names the code; the napi client prints only tonic's description of it.
        const exhausted = svc.lines.filter((l) => /RESOURCE_EXHAUSTED|Some resource has been exhausted/.test(l)).length;
        // What ended the streams, and what the service logged as the streams came up (stderr, for diagnosis).
        for (const l of svc.lines.filter((x) => /geyser stream ended|geyser subscribed|overflow Geyser stream|byte budget/.test(x)).slice(0, 12)) console.error(`  ${service.label}: ${l.slice(0, 400)}`);
        const loadedLine = readyMs === null ? null : await waitForLine(svc, /"startup snapshot loaded"/, 1000);
        const loaded = loadedLine === null ? 0 : (JSON.parse(loadedLine) as { pools: number }).pools;
        const row: Row = {
          pools: total,
          service: service.label,
          store,
          loaded,
          localnetBuildS: round(net.buildSeconds, 1),
          readyS: readyMs === null ? null : round(readyMs / 1000, 2),
          rssReadyMiB: round(atReady.rss / MiB, 0),
          rssSettledMiB: round(settled.rss / MiB, 0),
          hwmMiB: round(Math.max(atReady.hwm, settled.hwm) / MiB, 0),
          subscribedS: subscribedMs === null ? null : round(subscribedMs / 1000, 2),
          requestBytes: sub?.requestBytes ?? null,
          allListedBytes: sub?.requestBytes !== undefined ? sub.requestBytes + (sub.streamedBytes ?? 0) : null,
          streamEnds,
          exhausted,
          streamConnected: health?.streamConnected ?? null,
          slotLag: health?.slotLag ?? null,
          unwatchedPools: health?.unwatchedPools ?? 0,
          streams: health?.streams ?? null,
          streamsConnected: health?.streamsConnected ?? null,
        };
        const base = rows.find((r) => r.store === store && r.service === service.label && r.pools === counts[0]! + pumpswapPools);
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

console.log('\n| pools | service | store | loaded | ready (s) | RSS at ready (MiB) | RSS settled (MiB) | peak VmHWM (MiB) | per pool (KiB) |');
console.log('|---:|---|---|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  const ready = r.readyS === null ? `not ready in ${timeoutMs / 1000} s` : String(r.readyS);
  console.log(`| ${r.pools.toLocaleString('en-US')} | ${r.service} | ${r.store} | ${r.loaded.toLocaleString('en-US')} | ${ready} | ${r.rssReadyMiB} | ${r.rssSettledMiB} | ${r.hwmMiB} | ${r.perPoolKiB ?? ''} |`);
}
console.log('\n| pools | service | store | first subscribed (s) | request bytes | listing every vault (bytes) | stream ends by settle end | RESOURCE_EXHAUSTED lines | streamConnected | slotLag | unwatched pools | streams (connected) |');
console.log('|---:|---|---|---:|---:|---:|---:|---:|---|---:|---:|---|');
for (const r of rows) {
  const n = (x: number | null) => (x === null ? '' : x.toLocaleString('en-US'));
  console.log(`| ${r.pools.toLocaleString('en-US')} | ${r.service} | ${r.store} | ${r.subscribedS ?? 'none'} | ${n(r.requestBytes)} | ${n(r.allListedBytes)} | ${r.streamEnds} | ${r.exhausted} | ${r.streamConnected ?? ''} | ${r.slotLag ?? ''} | ${r.unwatchedPools} | ${r.streams === null ? '' : `${r.streams} (${r.streamsConnected})`} |`);
}

function round(x: number, digits: number): number {
  const k = 10 ** digits;
  return Math.round(x * k) / k;
}
