/**
 * What auth and rate limiting cost per request: the request pipeline (auth -> rate limit -> handler ->
 * serialize) on a bare route, run anonymously with no limiter (the baseline), then with a key resolved against
 * the key replica (10,000 keys), then with the memory and the Redis fixed-window limiter. The quota is raised so
 * nothing is refused (the work is the same either way). Redis is measured one request at a time (latency) and
 * 64 in flight (what a loaded instance sees). Needs Redis at REDIS_URL (default redis://127.0.0.1:6379).
 * Run: node dist/bench/auth-rate-limit.bench.js
 */
import { Bench } from 'tinybench';
import { KeyDirectory } from '../engine/keys/key-directory.js';
import { generateApiKey, hashApiKey } from '../engine/keys/key-material.js';
import { createLimiters } from '../engine/limits/factory.js';
import { keyAuth } from '../http/auth.js';
import { runPipeline, type PipelineStages } from '../http/pipeline.js';
import { noRateLimit, quotaRateLimit } from '../http/rate-limit.js';
import { createRequestContext } from '../http/request-context.js';
import type { RouteDef } from '../http/route.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const route: RouteDef = {
  name: 'bench',
  method: 'get',
  pattern: '/bench',
  auth: 'none',
  apiKeyQuery: false,
  meter: 'prices',
  anonCacheTtlMs: 0,
  handler: () => ({ status: 200, body: '{"ok":true}' }),
};

const directory = new KeyDirectory({ changedSince: async () => ({ rows: [], now: new Date() }) });
const keys: string[] = [];
for (let id = 1; id <= 10_000; id++) {
  const k = generateApiKey();
  keys.push(k);
  directory.apply({ id, keyHash: hashApiKey(k), tier: 'pro', revokedAt: null });
}
const auth = keyAuth((k) => directory.lookup(k));
const memory = createLimiters({});
const redis = createLimiters({ redisUrl: REDIS_URL, keyPrefix: `bench:${process.pid}:` });
if (!(await redis.ready(3000))) throw new Error(`Redis not reachable at ${REDIS_URL}`);
const unlimited = (): number => 1e12;

const bare: PipelineStages = { auth, rateLimit: noRateLimit, cache: null };
const withMemory: PipelineStages = { auth, rateLimit: quotaRateLimit({ limiter: memory.window, quota: unlimited }), cache: null };
const withRedis: PipelineStages = { auth, rateLimit: quotaRateLimit({ limiter: redis.window, quota: unlimited }), cache: null };

let i = 0;
const anon = (): ReturnType<typeof createRequestContext> => createRequestContext({ path: '/bench' });
const keyed = (): ReturnType<typeof createRequestContext> =>
  createRequestContext({ path: '/bench', headers: { 'x-api-key': keys[i++ % keys.length]! } });

const bench = new Bench({ time: 2000, warmupTime: 300 });
bench
  .add('bare route, anonymous, no limiter (baseline)', () => {
    runPipeline(route, anon(), bare);
  })
  .add('+ auth (key replica lookup), no limiter', () => {
    runPipeline(route, keyed(), bare);
  })
  .add('+ auth + memory rate limit', () => {
    runPipeline(route, keyed(), withMemory);
  })
  .add('+ auth + Redis rate limit, 1 in flight', async () => {
    await runPipeline(route, keyed(), withRedis);
  })
  .add('+ auth + Redis rate limit, 64 in flight (per batch)', async () => {
    await Promise.all(Array.from({ length: 64 }, () => runPipeline(route, keyed(), withRedis)));
  });
await bench.run();
console.table(
  bench.tasks.map((t) => {
    const r = t.result as unknown as { latency?: { p50?: number; p99?: number; mean?: number }; throughput?: { mean?: number } } | undefined;
    const per = t.name.includes('64 in flight') ? 64 : 1;
    return {
      task: t.name,
      'mean µs/request': r?.latency?.mean !== undefined ? ((r.latency.mean * 1000) / per).toFixed(2) : '?',
      'p50 µs (op)': r?.latency?.p50 !== undefined ? (r.latency.p50 * 1000).toFixed(2) : '?',
      'p99 µs (op)': r?.latency?.p99 !== undefined ? (r.latency.p99 * 1000).toFixed(2) : '?',
      'requests/s': r?.throughput?.mean !== undefined ? Math.round(r.throughput.mean * per) : '?',
    };
  }),
);
await memory.close();
await redis.close();
