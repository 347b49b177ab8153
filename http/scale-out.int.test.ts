/**
 * Scale-out: two service processes behind no shared memory, sharing one PostgreSQL (DATABASE_URL) and one Redis
 * (REDIS_URL), enforce one quota and one concurrent-stream count per key.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';
import { KeyService } from '../engine/keys/key-service.js';
import { quotaOf } from '../engine/limits/table.js';
import { openStore } from '../engine/store/open.js';
import type { Store } from '../engine/store/types.js';
import { startLocalnet, type Localnet } from '../fixtures/localnet/start-localnet.js';
import { projectRoot } from './project-root.js';
import { rawStream } from './testing/raw-stream.js';

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const WINDOW_MS = 4000;
const MAIN = join(projectRoot(import.meta.url), 'dist/http/main.js');
const tag = randomBytes(4).toString('hex');
const SCHEMA = `scale_${tag}`;
const PREFIX = `test:scale:${tag}:`;

interface Instance {
  readonly proc: ChildProcess;
  readonly base: string;
  readonly dataDir: string;
}

let net: Localnet;
let store: Store;
const instances: Instance[] = [];

function startInstance(): Promise<Instance> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-scale-'));
  const proc = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      ADMIN_PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL,
      DATABASE_SCHEMA: SCHEMA,
      REDIS_URL,
      REDIS_KEY_PREFIX: PREFIX,
      RPC_URL: net.rpcUrl,
      GEYSER_ENDPOINT: net.grpcUrl,
      RATE_WINDOW_MS: String(WINDOW_MS),
      KEY_POLL_MS: '200',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.once('exit', (code) => reject(new Error(`instance exited with ${code}`)));
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /SERVICE_READY (\{.*\})/.exec(out);
      if (m) resolve({ proc, base: (JSON.parse(m[1]!) as { url: string }).url, dataDir });
    });
  });
}

async function until<T>(f: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

before(async () => {
  net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 100 });
  // The schema (and its migrations) first, so both instances start on a migrated store.
  store = await openStore({ databaseUrl: DATABASE_URL, schema: SCHEMA });
  instances.push(...(await Promise.all([startInstance(), startInstance()])));
  for (const i of instances) {
    await until(async () => ((await fetch(`${i.base}/health`)).status === 200 ? true : undefined), 20_000, 'health');
  }
});

after(async () => {
  for (const i of instances) {
    i.proc.kill('SIGTERM');
    await new Promise((r) => i.proc.once('exit', r));
    rmSync(i.dataDir, { recursive: true, force: true });
  }
  await store?.close();
  const c = new pg.Client({ connectionString: DATABASE_URL });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await c.end();
  const r = new Redis(REDIS_URL);
  const keys = await r.keys(`${PREFIX}*`);
  if (keys.length) await r.del(...keys);
  await r.quit();
  await net?.stop();
});

async function newKey(tier: 'free' | 'starter' | 'pro'): Promise<string> {
  const { key } = await new KeyService(store).create({ tier });
  // Both instances learn the key by polling the shared store.
  for (const i of instances) {
    await until(async () => ((await fetch(`${i.base}/v1/points/me`, { headers: { 'x-api-key': key } })).status === 200 ? true : undefined), 3000, 'key visible');
  }
  return key;
}

test('two instances enforce one quota per key', async () => {
  const key = await newKey('free');
  const limit = quotaOf('prices', 'free');
  // Start at a fresh window so the burst fits in one.
  const now = Date.now();
  await new Promise((r) => setTimeout(r, Math.ceil(now / WINDOW_MS) * WINDOW_MS - now + 20));
  const remaining: number[] = [];
  for (let n = 1; n <= limit; n++) {
    const res = await fetch(`${instances[n % 2]!.base}/v1/price/SOL`, { headers: { 'x-api-key': key } });
    assert.equal(res.status, 200, `request ${n}`);
    remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
  }
  assert.deepEqual(remaining, Array.from({ length: limit }, (_, i) => limit - 1 - i), 'one counter across both instances');
  for (const i of instances) {
    const res = await fetch(`${i.base}/v1/price/SOL`, { headers: { 'x-api-key': key } });
    assert.equal(res.status, 429, 'both instances refuse once the shared quota is spent');
    const body = (await res.json()) as { limit: number; tier: string };
    assert.equal(body.limit, limit);
    assert.equal(body.tier, 'free');
  }
});

test('two instances reserving a quota in chunks serve exactly the quota, never more', async () => {
  const key = await newKey('starter');
  const limit = quotaOf('prices', 'starter'); // 300: reserved 3 at a time (engine/limits/README.md)
  const now = Date.now();
  const windowEnd = Math.ceil(now / WINDOW_MS) * WINDOW_MS;
  await new Promise((r) => setTimeout(r, windowEnd - now + 20));
  let ok = 0;
  const remaining: number[] = [];
  // Rounds of 10 concurrent requests per instance until a round where both refuse everything: by then each
  // instance has spent what it held, so the total is the quota exactly, not the quota minus the early refusal.
  for (let round = 0; round < 100; round++) {
    const res = await Promise.all(
      Array.from({ length: 20 }, (_, i) => fetch(`${instances[i % 2]!.base}/v1/price/SOL`, { headers: { 'x-api-key': key } })),
    );
    let roundOk = 0;
    for (const r of res) {
      await r.arrayBuffer();
      if (r.status === 200) {
        roundOk++;
        remaining.push(Number(r.headers.get('x-ratelimit-remaining')));
      } else assert.equal(r.status, 429);
    }
    ok += roundOk;
    if (roundOk === 0) break;
  }
  assert.ok(Date.now() < windowEnd + WINDOW_MS, 'the burst stayed in one window');
  assert.equal(ok, limit);
  assert.ok(remaining.every((n) => n >= 0 && n < limit), 'remaining within the quota');
  assert.ok(remaining.includes(0), 'the last unit reports nothing left');
});

test('two instances share one concurrent-stream count per key', async () => {
  const key = await newKey('free'); // one stream
  const [a, b] = instances as [Instance, Instance];
  const first = await rawStream(a.base, key);
  assert.equal(first.status, 200);
  const second = await rawStream(b.base, key);
  assert.equal(second.status, 429, 'the other instance sees the slot taken');
  second.socket.destroy();
  first.socket.resetAndDestroy();
  const s = await until(async () => {
    const t = await rawStream(b.base, key);
    if (t.status === 200) return t;
    t.socket.destroy();
    return undefined;
  }, 2000, 'slot released across instances');
  s.socket.destroy();
});
