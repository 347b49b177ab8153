/**
 * Starts the localnet and the whole service wired to it, with a fresh data folder, free ports and the given
 * extra environment, for integration tests. Nothing inside the service is replaced.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalnet, type Localnet } from '../../fixtures/localnet/start-localnet.js';
import { loadConfig } from '../config.js';
import { startService, type RunningService } from '../service.js';

/** The demo key every service under test provisions (pro tier). */
export const TEST_DEMO_KEY = 'test-demo-key-0001';

/** A started localnet + service. */
export interface ServiceUnderTest {
  readonly net: Localnet;
  readonly svc: RunningService;
  readonly base: string;
  readonly dataDir: string;
  stop(): Promise<void>;
}

/** Options of {@link startServiceUnderTest}. */
export interface ServiceUnderTestOptions {
  /** Wait for the startup snapshot before resolving (default true). False: resolve while the service warms up
   * (hold the snapshot with the localnet's `net.rpc.setLatency(ms)` set before starting). */
  readonly waitReady?: boolean;
}

/** Starts both; `env` adds to or overrides the service's environment. */
export async function startServiceUnderTest(env: Record<string, string> = {}, net?: Localnet, opts: ServiceUnderTestOptions = {}): Promise<ServiceUnderTest> {
  const localnet = net ?? (await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 100 }));
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'svc-data-'));
  const svc = await startService(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      ADMIN_PORT: '0',
      DATA_DIR: dataDir,
      RPC_URL: localnet.rpcUrl,
      GEYSER_ENDPOINT: localnet.grpcUrl,
      LOG_LEVEL: 'warn',
      SVC_DEMO_KEY: TEST_DEMO_KEY,
      ...env,
    }),
  );
  if (opts.waitReady !== false) await svc.ready;
  return {
    net: localnet,
    svc,
    base: `http://127.0.0.1:${svc.port}`,
    dataDir,
    async stop() {
      await svc.close();
      if (!net) await localnet.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
