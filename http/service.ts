/**
 * Assembles the service: the shared slabs, the ingest worker (their only writer), the quote worker pool, the
 * price service over the slabs, and the uWebSockets.js shell. Used by `main.ts` and by integration tests.
 */
import { ADAPTERS_BY_DEX_INDEX } from '../engine/adapters/by-dex-index.js';
import { Catalog } from '../engine/catalog/catalog.js';
import { loadCatalogTokens } from '../engine/catalog/load.js';
import { SlabPriceService } from '../engine/services/price-service.js';
import { MintTable } from '../engine/slab/mint-table.js';
import { PoolSlab } from '../engine/slab/pool-slab.js';
import { startIngestWorker, type IngestHost } from '../workers/ingest-host.js';
import { QuotePool } from '../workers/quote-pool.js';
import type { ServiceConfig } from './config.js';
import { log } from './log.js';
import { createServer } from './server.js';

/** A running service. */
export interface RunningService {
  readonly port: number;
  readonly priceService: SlabPriceService;
  readonly ingest: IngestHost;
  /** Resolves when the startup snapshot is loaded. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/** Starts every part of the service. */
export async function startService(cfg: ServiceConfig): Promise<RunningService> {
  const slab = PoolSlab.create(cfg.slabInitialPools, cfg.slabMaxPools);
  const mints = MintTable.create(1024, Math.max(1024, cfg.slabMaxPools * 2));
  const catalog = new Catalog(loadCatalogTokens(cfg.catalogFile));
  const quotePool = new QuotePool({ poolSab: slab.sab, mintSab: mints.sab, catalogFile: cfg.catalogFile, threads: cfg.quoteThreads });
  const priceService = new SlabPriceService({
    slab,
    mints,
    adapters: ADAPTERS_BY_DEX_INDEX,
    catalog,
    batchPricer: (tokens, optimistic) => quotePool.prices(tokens.map((t) => ({ token: t.token, mint: t.mint })), optimistic),
    batchThreshold: cfg.priceBatchThreshold,
  });
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((r) => (markReady = r));
  const ingest = startIngestWorker(
    {
      poolSab: slab.sab,
      mintSab: mints.sab,
      rpcUrl: cfg.rpcUrl,
      geyserUrl: cfg.geyserUrl,
      geyserXToken: cfg.geyserXToken,
      transport: cfg.geyserTransport,
      pingIntervalMs: cfg.geyserPingMs,
      silenceMs: cfg.geyserSilenceMs,
      statsIntervalMs: 1000,
    },
    {
      onReady: (pools) => {
        log.info('startup snapshot loaded', { pools });
        priceService.setReady();
        markReady();
      },
      onChange: (pools, confirmed) => priceService.poolsChanged(pools, confirmed),
      onLog: (level, msg, ctx) => log[level](msg, { thread: 'ingest', ...ctx }),
      onExit: (code) => log.warn('ingest worker exited', { code }),
    },
  );
  const server = await createServer({ priceService, port: cfg.port, host: cfg.host });
  log.info('listening', { port: server.port, rpc: cfg.rpcUrl, geyser: cfg.geyserUrl, transport: cfg.geyserTransport });
  return {
    port: server.port,
    priceService,
    ingest,
    ready,
    async close(): Promise<void> {
      await server.close();
      await ingest.stop();
      await quotePool.close();
    },
  };
}
