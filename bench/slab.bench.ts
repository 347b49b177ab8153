/**
 * Slab read benchmark (standalone tinybench script): the cost of the seqlock on the float read path, against the
 * same loads without it, and the exact (BigInt) read path. Each task body reads 1,000 records, so results are
 * reported per record. Writes a "Slab reads" section into bench/README.md.
 *
 * Run: `npx tsc -p tsconfig.json && node dist/bench/slab.bench.js` (`--no-write` only prints).
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, arch, platform } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { PARAM_F64_WORDS, PARAM_U64_WORDS } from '../engine/adapters/types.js';
import type { RecordFields } from '../engine/adapters/types.js';
import { PoolSlab, VIEW_LATEST, newExactSnapshot, newF64Snapshot } from '../engine/slab/index.js';
import { UnsynchronizedReader } from '../engine/slab/testing/unsynchronized-reader.js';

const RECORDS = 1000;
const README = fileURLToPath(new URL('../../bench/README.md', import.meta.url));
const SECTION = '## Slab reads';

function recordFields(k: number): RecordFields {
  return {
    status: k % 7 === 0 ? 1 : 0,
    reserveA: 1_000_000_000n + BigInt(k) * 12_345n,
    reserveB: 5_000_000_000_000n - BigInt(k),
    u64: Array.from({ length: PARAM_U64_WORDS }, (_, i) => BigInt(k * 31 + i) << 20n),
    f64: Array.from({ length: PARAM_F64_WORDS }, (_, i) => k / (i + 1)),
  };
}

const slab = PoolSlab.create(RECORDS, RECORDS);
const addr = new Uint8Array(32);
const inputs: RecordFields[] = [];
for (let p = 0; p < RECORDS; p++) {
  slab.addPool(addr, p % 12, p, p + 1);
  inputs.push(recordFields(p));
  slab.write(p, VIEW_LATEST, inputs[p]!, 300_000_000n + BigInt(p), Date.now(), false);
}
const reader = PoolSlab.attach(slab.sab);
const rawFixed = new UnsynchronizedReader(slab.sab, false);
const rawTracking = new UnsynchronizedReader(slab.sab, true);
const f = newF64Snapshot();
const e = newExactSnapshot();
let sink = 0;

const bench = new Bench({ time: 1500, warmupTime: 300 });
bench
  .add('readF64, seqlock (fixed-length views)', () => {
    let acc = 0;
    for (let p = 0; p < RECORDS; p++) if (reader.readF64(p, VIEW_LATEST, f)) acc += f.reserveA + f.f64[3]!;
    sink += acc;
  })
  .add('same loads, no seqlock (fixed-length views)', () => {
    let acc = 0;
    for (let p = 0; p < RECORDS; p++) if (rawFixed.readF64(p, VIEW_LATEST, f)) acc += f.reserveA + f.f64[3]!;
    sink += acc;
  })
  .add('same loads, no seqlock (length-tracking views)', () => {
    let acc = 0;
    for (let p = 0; p < RECORDS; p++) if (rawTracking.readF64(p, VIEW_LATEST, f)) acc += f.reserveA + f.f64[3]!;
    sink += acc;
  })
  .add('readExact, seqlock (BigInt)', () => {
    let acc = 0;
    for (let p = 0; p < RECORDS; p++) if (reader.readExact(p, VIEW_LATEST, e)) acc += e.status + e.u64.length;
    sink += acc;
  })
  .add('write (writer side, seqlock + input checks)', () => {
    const now = Date.now();
    for (let p = 0; p < RECORDS; p++) slab.write(p, VIEW_LATEST, inputs[p]!, 300_000_000n, now, false);
  });

await bench.run();

const BASELINE = 'same loads, no seqlock (fixed-length views)';
const rows = bench.tasks.map((t) => {
  const r = t.result;
  if (r === undefined || r.error !== undefined) throw new Error(`${t.name}: ${r?.error?.message ?? 'no result'}`);
  // latency is in ms per task body (1,000 records): ms * 1e6 / 1000 = ns per record.
  return { name: t.name, nsPerRecord: (r.latency.mean * 1e6) / RECORDS, p50: (r.latency.p50! * 1e6) / RECORDS, rme: r.latency.rme };
});
const base = rows.find((r) => r.name === BASELINE)!.nsPerRecord;
const date = new Date().toISOString().slice(0, 10);
const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} vCPU, ${platform()}/${arch()}, Node ${process.version}`;
const table = [
  '| Variant (1,000 records per iteration) | ns/record (mean) | ns/record (p50) | reads/s (M) | vs no seqlock | ±rme |',
  '|---|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.nsPerRecord.toFixed(1)} | ${r.p50.toFixed(1)} | ${(1000 / r.nsPerRecord).toFixed(1)} | ${(r.nsPerRecord / base).toFixed(2)}x | ${r.rme.toFixed(1)}% |`,
  ),
].join('\n');

const section = `${SECTION}

\`node dist/bench/slab.bench.js\` (\`bench/slab.bench.ts\`), ${date}, ${machine}. One thread, no concurrent writer,
all records in cache (1,000 pools x 320 B). "No seqlock" runs the same loads as \`PoolSlab.readF64\` without the two
\`Atomics.load\`s of the sequence word (\`engine/slab/testing/unsynchronized-reader.ts\`; it can return torn records, see
\`engine/slab/seqlock.torn.test.ts\`). The length-tracking row is why \`PoolSlab\` uses fixed-length views re-made after
growth instead of views that track the growable buffer.

${table}
`;

process.stdout.write(`${section}\n(sink ${sink > 0 ? 'ok' : 'zero'})\n`);

if (!process.argv.includes('--no-write')) {
  const old = existsSync(README) ? readFileSync(README, 'utf8') : '# Benchmarks\n';
  const start = old.indexOf(SECTION);
  let next: string;
  if (start < 0) next = `${old.trimEnd()}\n\n${section}`;
  else {
    const after = old.indexOf('\n## ', start + SECTION.length);
    next = old.slice(0, start) + section + (after < 0 ? '' : old.slice(after));
  }
  writeFileSync(README, next.endsWith('\n') ? next : `${next}\n`);
}
