/**
 * What auth and rate limiting cost per request: the request pipeline (auth -> rate limit -> handler ->
 * serialize) on a bare route, run anonymously with no limiter (the baseline), then with a key resolved against
 * the key replica (10,000 keys), then with the memory and the Redis fixed-window limiters: one Redis call per
 * request (per call), and quota reserved in chunks (chunked; the quota here gives chunks of 1000). The quota is
 * raised so nothing is refused (the work is the same either way). Per call is measured one request at a time
 * (latency) and 64 in flight (what a loaded instance sees); chunked after one pass over the keys has reserved a
 * chunk for each (the steady state), 64 requests per event-loop turn, beside the memory limiter the same way.
 * Needs Redis at REDIS_URL (default redis://127.0.0.1:6379). Run: node dist/bench/auth-rate-limit.bench.js
 */
import { Bench } from 'tinybench';
import { KeyDirectory } from '../engine/keys/key-directory.js';
import { generateApiKey, hashApiKey } from '../engine/keys/key-material.js';
import { createLimiters } from '../engine/limits/factory.js';
import { keyAuth } from '../http/auth.js';
import { isPromiseLike, type MaybePromise } from '../http/maybe-promise.js';
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
const redis = createLimiters({ redisUrl: REDIS_URL, keyPrefix: `bench:${process.pid}:`, chunk: false });
const chunked = createLimiters({ redisUrl: REDIS_URL, keyPrefix: `bench:${process.pid}:chunked:` });
if (!(await redis.ready(3000)) || !(await chunked.ready(3000))) throw new Error(`Redis not reachable at ${REDIS_URL}`);
const unlimited = (): number => 1e12;

const bare: PipelineStages = { auth, rateLimit: noRateLimit, cache: null };
const withMemory: PipelineStages = { auth, rateLimit: quotaRateLimit({ limiter: memory.window, quota: unlimited }), cache: null };
const withRedis: PipelineStages = { auth, rateLimit: quotaRateLimit({ limiter: redis.window, quota: unlimited }), cache: null };
const withChunked: PipelineStages = { auth, rateLimit: quotaRateLimit({ limiter: chunked.window, quota: unlimited }), cache: null };

let i = 0;
const anon = (): ReturnType<typeof createRequestContext> => createRequestContext({ path: '/bench' });
const keyed = (): ReturnType<typeof createRequestContext> =>
  createRequestContext({ path: '/bench', headers: { 'x-api-key': keys[i++ % keys.length]! } });

// One pass over the keys: every key's bucket reserves its first chunk (the first request of a bucket waits).
// Run right before the chunked row: units idle for 5 s go back to Redis, and the rows before take longer.
const reserveChunks = async (): Promise<void> => {
  await Promise.all(keys.map(() => runPipeline(route, keyed(), withChunked)));
};
// Requests of the per-turn rows that had to wait (a promise instead of an answer), by row.
const waited = new Map<PipelineStages, { waited: number; calls: number }>();
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
/** 64 requests in one event-loop turn; the ones that had to wait on Redis are awaited, so their time counts. */
async function perTurn(stages: PipelineStages): Promise<void> {
  const stat = waited.get(stages) ?? { waited: 0, calls: 0 };
  waited.set(stages, stat);
  const out: Promise<unknown>[] = [];
  for (let n = 0; n < 64; n++) {
    const r: MaybePromise<unknown> = runPipeline(route, keyed(), stages);
    if (isPromiseLike(r)) out.push(r);
  }
  stat.calls += 64;
  stat.waited += out.length;
  for (const r of out) await r;
  await turn();
}

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
  })
  // A server answers a batch of requests per event-loop turn; the turn is what lets Redis replies (top-ups,
  // the next window's chunks) land. A loop that never yields would starve them, which no server does.
  // Async functions: tinybench calls a plain function once when it is added, to see whether it returns a promise
  // (for the chunked row that call would come before its chunks are reserved).
  .add('+ auth + memory rate limit, 64 per event-loop turn', async () => {
    await perTurn(withMemory);
  })
  .add(
    '+ auth + Redis chunked rate limit, 64 per event-loop turn',
    async () => {
      await perTurn(withChunked);
    },
    { beforeAll: reserveChunks },
  );
await bench.run();
console.table(
  bench.tasks.map((t) => {
    const r = t.result as unknown as { latency?: { p50?: number; p99?: number; mean?: number }; throughput?: { mean?: number } } | undefined;
    const per = t.name.includes('64 ') ? 64 : 1;
    return {
      task: t.name,
      'mean µs/request': r?.latency?.mean !== undefined ? ((r.latency.mean * 1000) / per).toFixed(2) : '?',
      'p50 µs (op)': r?.latency?.p50 !== undefined ? (r.latency.p50 * 1000).toFixed(2) : '?',
      'p99 µs (op)': r?.latency?.p99 !== undefined ? (r.latency.p99 * 1000).toFixed(2) : '?',
      'requests/s': r?.throughput?.mean !== undefined ? Math.round(r.throughput.mean * per) : '?',
    };
  }),
);
for (const [name, stages] of [['memory', withMemory], ['Redis chunked', withChunked]] as const) {
  const stat = waited.get(stages);
  console.log(`${name}, 64 per turn: ${stat?.waited} of ${stat?.calls} requests answered with a promise`);
}
await memory.close();
await redis.close();
await chunked.close();
