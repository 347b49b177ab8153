/**
 * Child process of `store-footprint.ts`: opens one store variant, runs the first queries a service start runs and
 * a little steady traffic, and prints one line `FOOTPRINT {json}` with times and memory. One process per
 * measurement, so each starts from a bare Node.
 *
 *   node dist/bench/store-footprint-child.js <variant> <dataDir | postgres-url> [schema]
 *
 * Variants: `pglite` (the store as shipped: openStore), `pglite-tierup` (shipped, but V8 may optimize PGlite with
 * TurboFan), `pglite-buffers` (only the small buffer pool: initdb on a new directory, TurboFan), `pglite-before`
 * (PGlite's defaults, initdb, TurboFan: the store before issue 11), `postgres`.
 */
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { migrate } from '../engine/store/migrate.js';
import { openStore, storeOver } from '../engine/store/open.js';
import { openPgliteDriver, type PgliteDriverOptions } from '../engine/store/pglite-driver.js';
import type { Store } from '../engine/store/types.js';
import { procMemory } from './proc-memory.js';

/** The variants this child opens. */
export const FOOTPRINT_VARIANTS = ['pglite', 'pglite-tierup', 'pglite-buffers', 'pglite-before', 'postgres'] as const;
/** One of {@link FOOTPRINT_VARIANTS}. */
export type FootprintVariant = (typeof FOOTPRINT_VARIANTS)[number];

/** What the child prints (ms and MiB). */
export interface FootprintReport {
  readonly variant: FootprintVariant;
  /** Process start to the store's modules loaded. */
  readonly importMs: number;
  /** openStore (directory seeding or initdb, PostgreSQL start, migrations). */
  readonly openMs: number;
  /** CPU time (user + system, all threads) the open took: what wall time would be on an idle machine. */
  readonly openCpuMs: number;
  /** VmRSS with the modules loaded, before opening. */
  readonly rssBaseMb: number;
  readonly rssOpenMb: number;
  /** VmRSS after the traffic below. */
  readonly rssWorkMb: number;
  /** VmHWM at the end. */
  readonly hwmMb: number;
  /** Keyed read (`keys.findByHash`) and batched write (`usage.addBatch`, 10 rows) latencies in ms. */
  readonly readP50Ms: number;
  readonly readP99Ms: number;
  readonly writeP50Ms: number;
  readonly writeP99Ms: number;
}

const PRIOR_OPTIONS: Record<string, PgliteDriverOptions> = {
  'pglite-tierup': { wasmTierUp: true },
  'pglite-buffers': { template: false, wasmTierUp: true },
  'pglite-before': { template: false, wasmTierUp: true, startParams: PGlite.defaultStartParams },
};

function pct(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
}

async function open(variant: FootprintVariant, target: string, schema: string | undefined): Promise<Store> {
  if (variant === 'postgres') return openStore({ databaseUrl: target, ...(schema ? { schema } : {}) });
  if (variant === 'pglite') return openStore({ dataDir: target });
  const driver = await openPgliteDriver(target, PRIOR_OPTIONS[variant]);
  await migrate(driver);
  return storeOver(driver);
}

/** Keys, lookups, usage batches and polls: what a starting service and its first minutes ask of the store. */
async function traffic(store: Store): Promise<{ read: number[]; write: number[] }> {
  const tag = randomBytes(4).toString('hex');
  const hashes: string[] = [];
  for (let i = 0; i < 50; i++) {
    const k = await store.keys.upsertByHash({ keyHash: `fp-${tag}-${i}`, prefix: 'svc_fp', tier: 'pro', referralCode: `FP${tag}${i}` });
    hashes.push(k.keyHash);
    await store.points.append({ apiKeyId: k.id, kind: 'signup', points: 100, sourceId: 'signup', meta: {} });
  }
  const ids = (await store.keys.list()).map((k) => k.id);
  const read: number[] = [];
  const write: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const t = performance.now();
    await store.keys.findByHash(hashes[i % hashes.length]!);
    read.push(performance.now() - t);
  }
  const windowStart = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  for (let i = 0; i < 200; i++) {
    const deltas = Array.from({ length: 10 }, (_, j) => ({
      apiKeyId: ids[(i + j) % ids.length]!,
      windowStart,
      apiSuccessful: 3,
      rpcSuccessful: 0,
      rateLimited: 1,
      requests: 4,
    }));
    const t = performance.now();
    await store.usage.addBatch(deltas);
    write.push(performance.now() - t);
  }
  let since: Date | null = null;
  for (let i = 0; i < 100; i++) since = (await store.keys.changedSince(since)).now;
  return { read, write };
}

async function main(): Promise<void> {
  const [variant, target, schema] = process.argv.slice(2) as [FootprintVariant, string, string | undefined];
  if (!FOOTPRINT_VARIANTS.includes(variant) || !target) throw new Error(`usage: store-footprint-child <${FOOTPRINT_VARIANTS.join('|')}> <dir|url> [schema]`);
  const importMs = performance.now();
  const base = procMemory()!;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const store = await open(variant, target, schema);
  const openMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const opened = procMemory()!;
  const { read, write } = await traffic(store);
  const worked = procMemory()!;
  await store.close();
  const report: FootprintReport = {
    variant,
    importMs,
    openMs,
    openCpuMs: (cpu.user + cpu.system) / 1000,
    rssBaseMb: base.rssMb,
    rssOpenMb: opened.rssMb,
    rssWorkMb: worked.rssMb,
    hwmMb: procMemory()!.hwmMb,
    readP50Ms: pct(read, 0.5),
    readP99Ms: pct(read, 0.99),
    writeP50Ms: pct(write, 0.5),
    writeP99Ms: pct(write, 0.99),
  };
  process.stdout.write(`FOOTPRINT ${JSON.stringify(report)}\n`);
}

main().catch((e: Error) => {
  process.stderr.write(`${e.stack ?? e.message}\n`);
  process.exit(1);
});
