/**
 * One wrk run of GET /v1/price/SOL (internal key: auth, no limiter) on one service fed by the localnet (5 swaps/s),
 * printed as one JSON line. For comparing two builds under load by alternating runs (bench/README.md, "Metrics on
 * the request path": this build against a copy of its dist with the metrics observer call removed).
 * Needs wrk. Run: node dist/bench/price-load-once.bench.js [seconds]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalnet } from '../fixtures/localnet/start-localnet.js';
import { loadConfig } from '../http/config.js';
import { startService } from '../http/service.js';
import { runWrk } from './wrk.js';

const seconds = Number(process.argv[2] ?? 5);
const net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 5 });
const dataDir = mkdtempSync(join(tmpdir(), 'bench-price-once-'));
const svc = await startService(
  loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', ADMIN_PORT: '0', DATA_DIR: dataDir, RPC_URL: net.rpcUrl, GEYSER_ENDPOINT: net.grpcUrl, LOG_LEVEL: 'warn' }),
);
await svc.ready;
const key = `x-api-key: ${(await svc.keys.create({ tier: 'internal' })).key}`;
const url = `http://127.0.0.1:${svc.port}/v1/price/SOL`;
await runWrk(url, 1, [key]); // warm-up
const r = await runWrk(url, seconds, [key]);
console.log(JSON.stringify({ build: process.argv[1], ...r }));
await svc.close();
await net.stop();
rmSync(dataDir, { recursive: true, force: true });
