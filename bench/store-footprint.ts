/**
 * The embedded store's footprint (issue 11), every option beside PostgreSQL in one run: each measurement opens the
 * store in a fresh child process (`store-footprint-child.ts`) on a new directory or schema ("fresh"), then again
 * on the same one ("existing"), runs the first queries and a little traffic, and reports open time, VmRSS and
 * VmHWM. With `--service`, the whole service is also started in its own process against a localnet, as
 * `make run` does, and timed to its first healthy `/health` (`--baseline-root DIR` adds another build's service
 * beside it, e.g. main before this change). Prints markdown tables (p50 and max over the rounds).
 *
 *   flock /tmp/bench.lock node dist/bench/store-footprint.js [--rounds 3] [--service] [--service-rounds N]
 *     [--baseline-root DIR] [--settle-s 10] [--pg postgres://postgres@127.0.0.1:5432/test]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startLocalnet } from '../fixtures/localnet/start-localnet.js';
import { projectRoot } from '../engine/store/project-root.js';
import { dropSchemas, randomSchema } from '../engine/store/testing/pg-schema.js';
import type { FootprintReport, FootprintVariant } from './store-footprint-child.js';
import { measureServiceStart, type ServiceStartReport } from './service-start.js';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    service: { type: 'boolean', default: false },
    'service-rounds': { type: 'string' },
    'baseline-root': { type: 'string' },
    'settle-s': { type: 'string', default: '10' },
    pg: { type: 'string', default: process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const rounds = Number(args.rounds);
const pgUrl = args.pg!;
const root = projectRoot();
const CHILD = join(root, 'dist/bench/store-footprint-child.js');

/** A store option as measured. */
interface StoreOption {
  readonly label: string;
  readonly variant: FootprintVariant;
}

const STORE_OPTIONS: readonly StoreOption[] = [
  { label: 'PGlite before (its defaults: shared_buffers 128MB, initdb, TurboFan)', variant: 'pglite-before' },
  { label: 'PGlite + shared_buffers 4MB (initdb, TurboFan)', variant: 'pglite-buffers' },
  { label: 'PGlite + shared_buffers 4MB + template (TurboFan)', variant: 'pglite-tierup' },
  { label: 'PGlite + shared_buffers 4MB + template + Liftoff only (shipped)', variant: 'pglite' },
  { label: 'PostgreSQL (node-postgres pool)', variant: 'postgres' },
];

function runChild(opt: StoreOption, target: string, schema?: string): Promise<FootprintReport> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [CHILD, opt.variant, target, ...(schema ? [schema] : [])], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    proc.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('FOOTPRINT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice('FOOTPRINT '.length)) as FootprintReport);
      else reject(new Error(`${opt.label} exited ${code}: ${err}`));
    });
  });
}

function p50(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}
const max = (xs: readonly number[]): number => Math.max(...xs);
const f0 = (x: number): string => x.toFixed(0);
const f2 = (x: number): string => x.toFixed(2);
const both = (xs: readonly number[], f: (x: number) => string = f0): string => (xs.length > 1 ? `${f(p50(xs))} / ${f(max(xs))}` : f(xs[0]!));

async function measureStores(): Promise<string> {
  const results = new Map<string, FootprintReport[]>();
  const add = (key: string, r: FootprintReport): void => void results.set(key, [...(results.get(key) ?? []), r]);
  for (let round = 1; round <= rounds; round++) {
    for (const opt of STORE_OPTIONS) {
      if (opt.variant === 'postgres') {
        const schema = randomSchema('footprint');
        try {
          add(`${opt.label}|fresh`, await runChild(opt, pgUrl, schema));
          add(`${opt.label}|existing`, await runChild(opt, pgUrl, schema));
        } finally {
          await dropSchemas([schema], pgUrl);
        }
      } else {
        const parent = mkdtempSync(join(tmpdir(), 'store-footprint-'));
        try {
          const dir = join(parent, 'pglite');
          add(`${opt.label}|fresh`, await runChild(opt, dir));
          add(`${opt.label}|existing`, await runChild(opt, dir));
        } finally {
          rmSync(parent, { recursive: true, force: true });
        }
      }
      process.stderr.write(`round ${round}: ${opt.label} done\n`);
    }
  }
  const pgWork = (start: string): number => p50((results.get(`${STORE_OPTIONS.at(-1)!.label}|${start}`) ?? []).map((r) => r.rssWorkMb));
  const lines = [
    `Store alone, ${rounds} round(s), p50 / max; MiB of VmRSS, ms; open CPU = user + system time of the open, all threads. "added" = VmRSS after the traffic minus VmRSS before opening (Node + the store's modules, ${f0(p50([...results.values()].flat().map((r) => r.rssBaseMb)))} MiB).`,
    '',
    '| option | directory | open ms | open CPU ms | VmRSS after open | VmRSS after traffic | added | vs PostgreSQL | VmHWM | read p50 / p99 ms | write p50 / p99 ms |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const opt of STORE_OPTIONS) {
    for (const start of ['fresh', 'existing']) {
      const rs = results.get(`${opt.label}|${start}`) ?? [];
      if (rs.length === 0) continue;
      const work = rs.map((r) => r.rssWorkMb);
      lines.push(
        `| ${opt.label} | ${start} | ${both(rs.map((r) => r.openMs))} | ${both(rs.map((r) => r.openCpuMs))} | ${both(rs.map((r) => r.rssOpenMb))} | ${both(work)} | ` +
          `${both(rs.map((r) => r.rssWorkMb - r.rssBaseMb))} | ${opt.variant === 'postgres' ? '-' : `+${f0(p50(work) - pgWork(start))}`} | ` +
          `${both(rs.map((r) => r.hwmMb))} | ${f2(p50(rs.map((r) => r.readP50Ms)))} / ${f2(p50(rs.map((r) => r.readP99Ms)))} | ` +
          `${f2(p50(rs.map((r) => r.writeP50Ms)))} / ${f2(p50(rs.map((r) => r.writeP99Ms)))} |`,
      );
    }
  }
  return lines.join('\n');
}

async function measureServices(): Promise<string> {
  const serviceRounds = Number(args['service-rounds'] ?? rounds);
  const settleMs = Number(args['settle-s']) * 1000;
  const roots = [{ label: 'this build', root }, ...(args['baseline-root'] ? [{ label: 'baseline', root: args['baseline-root'] }] : [])];
  const net = await startLocalnet({ rpcPort: 0, grpcPort: 0, landingDelayMs: 100 });
  const results = new Map<string, ServiceStartReport[]>();
  const add = (key: string, r: ServiceStartReport): void => void results.set(key, [...(results.get(key) ?? []), r]);
  try {
    for (let round = 1; round <= serviceRounds; round++) {
      for (const r of roots) {
        const common = { root: r.root, rpcUrl: net.rpcUrl, grpcUrl: net.grpcUrl, settleMs };
        const dataDir = mkdtempSync(join(tmpdir(), 'svc-footprint-'));
        try {
          add(`${r.label}|PGlite|fresh`, await measureServiceStart({ ...common, env: { DATA_DIR: dataDir } }));
          add(`${r.label}|PGlite|existing`, await measureServiceStart({ ...common, env: { DATA_DIR: dataDir } }));
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
        const schema = randomSchema('svcfootprint');
        const pgDir = mkdtempSync(join(tmpdir(), 'svc-footprint-pg-'));
        try {
          const env = { DATA_DIR: pgDir, DATABASE_URL: pgUrl, DATABASE_SCHEMA: schema };
          add(`${r.label}|PostgreSQL|fresh`, await measureServiceStart({ ...common, env }));
          add(`${r.label}|PostgreSQL|existing`, await measureServiceStart({ ...common, env }));
        } finally {
          rmSync(pgDir, { recursive: true, force: true });
          await dropSchemas([schema], pgUrl);
        }
        process.stderr.write(`round ${round}: service (${r.label}) done\n`);
      }
    }
  } finally {
    await net.stop();
  }
  const lines = [
    `Whole service (own process, default localnet), ${serviceRounds} round(s), p50 / max; settled = ${args['settle-s']} s after healthy.`,
    '',
    '| build | store | start | healthy after ms | CPU ms to healthy | VmRSS at healthy | VmRSS settled | VmHWM |',
    '|---|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const [key, rs] of results) {
    const [build, store, start] = key.split('|');
    lines.push(
      `| ${build} | ${store} | ${start} | ${both(rs.map((r) => r.healthyMs))} | ${both(rs.map((r) => r.cpuToHealthyMs))} | ` +
        `${both(rs.map((r) => r.rssHealthyMb))} | ` +
        `${both(rs.map((r) => r.rssSettledMb))} | ${both(rs.map((r) => r.hwmMb))} |`,
    );
  }
  return lines.join('\n');
}

// Why the load average: the machine is shared; wall times stretch with other work, CPU times much less.
const load = (): string => loadavg()[0]!.toFixed(2);
const out = [`Load average (1 min) at the start: ${load()}.`, await measureStores()];
out.push(`Load average (1 min) after the store runs: ${load()}.`);
if (args.service) {
  out.push(await measureServices());
  out.push(`Load average (1 min) after the service runs: ${load()}.`);
}
process.stdout.write(`${out.join('\n\n')}\n`);
