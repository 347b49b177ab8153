/**
 * The service's configuration, read only from the environment (documented in the README's table).
 */

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
  readonly slabInitialPools: number;
  readonly slabMaxPools: number;
  readonly quoteThreads: number;
  readonly priceBatchThreshold: number;
  readonly catalogFile: string | undefined;
}

function int(env: NodeJS.ProcessEnv, name: string, dflt: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min) throw new Error(`${name} must be an integer >= ${min}, got ${raw}`);
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
    slabInitialPools: int(env, 'SLAB_INITIAL_POOLS', 4096, 16),
    slabMaxPools: int(env, 'SLAB_MAX_POOLS', 262_144, 16),
    quoteThreads: int(env, 'QUOTE_THREADS', 1, 1),
    priceBatchThreshold: int(env, 'PRICE_BATCH_THRESHOLD', 1_000_000, 1),
    catalogFile: env.CATALOG_FILE || undefined,
  };
}
