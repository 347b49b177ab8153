/**
 * The service's configuration, read only from the environment (documented in the README's table).
 */
import { isAbsolute, join, resolve } from 'node:path';
import { projectRoot } from './project-root.js';

/** Every setting of the service. */
export interface ServiceConfig {
  readonly port: number;
  readonly host: string;
  readonly rpcUrl: string;
  readonly geyserUrl: string;
  readonly geyserXToken: string | undefined;
  readonly geyserTransport: 'napi' | 'grpc-js';
  readonly geyserPingMs: number;
  readonly geyserSilenceMs: number;
  /**
   * Byte budget of the addresses one Subscribe request lists; unset: ingest's default, 3.5 MiB
   * (`SUBSCRIBE_ADDRESS_BUDGET_BYTES`; smaller only in tests).
   */
  readonly geyserAddressBudgetBytes: number | undefined;
  /**
   * Most Subscribe streams ingest opens, the primary included (overflow streams carry what one request cannot);
   * unset: ingest's default, 4 (`DEFAULT_MAX_STREAMS`).
   */
  readonly geyserMaxStreams: number | undefined;
  /** Period of the chain's slot polls over RPC (lag, dating of states, regressions). */
  readonly chainPollMs: number;
  /** /health answers 503 beyond this many slots behind the chain. */
  readonly healthMaxSlotLag: number;
  /** /health answers 503 when no update came for this long and the feed is not level with the chain. */
  readonly healthMaxUpdateAgeMs: number;
  readonly slabInitialPools: number;
  readonly slabMaxPools: number;
  readonly quoteThreads: number;
  /** GET /v1/pools/dead lists a pool with no update for this long. */
  readonly poolsDeadAfterMs: number;
  /** The price history samples every this many ms. */
  readonly priceSampleMs: number;
  readonly priceBatchThreshold: number;
  readonly catalogFile: string | undefined;
  /** Folder of the embedded store, the admin token and the admin endpoint file. */
  readonly dataDir: string;
  /** `postgres://...` selects PostgreSQL instead of the embedded PGlite. */
  readonly databaseUrl: string | undefined;
  /** PostgreSQL schema (default `public`). */
  readonly databaseSchema: string | undefined;
  /** `redis://...` shares rate limits and stream slots between instances. */
  readonly redisUrl: string | undefined;
  /** Prefix of every Redis key (several deployments on one Redis). */
  readonly redisKeyPrefix: string;
  readonly adminHost: string;
  /** Admin API port; 0 picks a free one (written to `<dataDir>/admin.json`). */
  readonly adminPort: number;
  /** Serve `GET /metrics` on the main port too (always on the admin listener). */
  readonly metricsPublic: boolean;
  /** Admin bearer token; absent: generated into `<dataDir>/admin-token`. */
  readonly adminToken: string | undefined;
  /** Provisioned as a pro key at start. */
  readonly demoKey: string | undefined;
  /** Trust `X-Forwarded-For` for anonymous rate limits. */
  readonly trustProxy: boolean;
  /** Length of a rate-limit window in ms (60000; shorter only in tests). */
  readonly rateWindowMs: number;
  /** Every quota of the table multiplied by this (a self-hosted deployment may allow more; benchmarks). */
  readonly rateQuotaScale: number;
  /** Redis limiter: an instance reserves quota / this per Redis call (at least 1); 0 = one Redis call per request. */
  readonly rateChunkDivisor: number;
  /** Redis limiter: ceiling of a reservation chunk. */
  readonly rateChunkMax: number;
  /** Key replica poll period in ms. */
  readonly keyPollMs: number;
  /** Usage counter flush period in ms. */
  readonly usageFlushMs: number;
  /** Points reconciliation period in ms. */
  readonly pointsReconcileMs: number;
  /** Points program phase written in api_usage events. */
  readonly pointsPhase: string;
  /** SSE heartbeat period of every stream route (15000, the spec's; shorter only in tests). */
  readonly sseHeartbeatMs: number;
  /** Jito block engine base URL for `POST /v1/swap` bundles; absent: the route answers 503 BUNDLE_UNAVAILABLE. */
  readonly blockEngineUrl: string | undefined;
  /** Base58 secret key of the bundle tip wallet; absent: generated once into `<dataDir>/tip-payer-key.json`. */
  readonly tipPayerSecretKey: string | undefined;
  /** Tip of every bundle in lamports (at least Jito's 1,000). */
  readonly bundleTipLamports: bigint;
}

function dataDirOf(env: NodeJS.ProcessEnv): string {
  const d = env.DATA_DIR;
  if (!d) return join(projectRoot(import.meta.url), 'data');
  return isAbsolute(d) ? d : resolve(d);
}

function int(env: NodeJS.ProcessEnv, name: string, dflt: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min) throw new Error(`${name} must be an integer >= ${min}, got ${raw}`);
  return v;
}

/** An integer setting that is absent unless set (the consumer's default applies). */
function optionalInt(env: NodeJS.ProcessEnv, name: string, min: number): number | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : int(env, name, 0, min);
}

function positive(env: NodeJS.ProcessEnv, name: string, dflt: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  const v = Number(raw);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return v;
}

/** Parses the environment; throws a clear error on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const transport = env.GEYSER_TRANSPORT ?? 'napi';
  if (transport !== 'napi' && transport !== 'grpc-js') throw new Error(`GEYSER_TRANSPORT must be napi or grpc-js, got ${transport}`);
  return {
    port: int(env, 'PORT', 8080),
    host: env.HOST ?? '0.0.0.0',
    rpcUrl: env.RPC_URL ?? 'http://127.0.0.1:8899',
    geyserUrl: env.GEYSER_ENDPOINT ?? 'http://127.0.0.1:10000',
    geyserXToken: env.GEYSER_X_TOKEN || undefined,
    geyserTransport: transport,
    geyserPingMs: int(env, 'GEYSER_PING_MS', 15_000, 100),
    geyserSilenceMs: int(env, 'GEYSER_SILENCE_MS', 30_000, 500),
    geyserAddressBudgetBytes: optionalInt(env, 'GEYSER_ADDRESS_BUDGET_BYTES', 256),
    geyserMaxStreams: optionalInt(env, 'GEYSER_MAX_STREAMS', 1),
    chainPollMs: int(env, 'CHAIN_POLL_MS', 200, 20),
    healthMaxSlotLag: int(env, 'HEALTH_MAX_SLOT_LAG', 20, 1),
    healthMaxUpdateAgeMs: int(env, 'HEALTH_MAX_UPDATE_AGE_MS', 10_000, 100),
    slabInitialPools: int(env, 'SLAB_INITIAL_POOLS', 4096, 16),
    slabMaxPools: int(env, 'SLAB_MAX_POOLS', 262_144, 16),
    quoteThreads: int(env, 'QUOTE_THREADS', 1, 1),
    poolsDeadAfterMs: int(env, 'POOLS_DEAD_AFTER_MS', 86_400_000, 1000),
    priceSampleMs: int(env, 'PRICE_SAMPLE_MS', 10_000, 100),
    priceBatchThreshold: int(env, 'PRICE_BATCH_THRESHOLD', 1_000_000, 1),
    catalogFile: env.CATALOG_FILE || undefined,
    dataDir: dataDirOf(env),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX ?? 'svc:',
    adminHost: env.ADMIN_HOST ?? '127.0.0.1',
    adminPort: int(env, 'ADMIN_PORT', 8081),
    adminToken: env.ADMIN_TOKEN || undefined,
    metricsPublic: env.METRICS_PUBLIC === '1' || env.METRICS_PUBLIC === 'true',
    demoKey: env.SVC_DEMO_KEY || undefined,
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    rateWindowMs: int(env, 'RATE_WINDOW_MS', 60_000, 100),
    rateQuotaScale: positive(env, 'RATE_QUOTA_SCALE', 1),
    rateChunkDivisor: int(env, 'RATE_CHUNK_DIVISOR', 100),
    rateChunkMax: int(env, 'RATE_CHUNK_MAX', 1000, 1),
    keyPollMs: int(env, 'KEY_POLL_MS', 500, 50),
    usageFlushMs: int(env, 'USAGE_FLUSH_MS', 5000, 50),
    pointsReconcileMs: int(env, 'POINTS_RECONCILE_MS', 300_000, 100),
    pointsPhase: env.POINTS_PHASE ?? 'beta',
    sseHeartbeatMs: int(env, 'SSE_HEARTBEAT_MS', 15_000, 10),
    blockEngineUrl: env.BLOCK_ENGINE_URL || undefined,
    tipPayerSecretKey: env.TIP_PAYER_SECRET_KEY || undefined,
    bundleTipLamports: BigInt(int(env, 'BUNDLE_TIP_LAMPORTS', 10_000, 1000)),
  };
}
