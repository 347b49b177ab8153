/**
 * Assembles the service: the store, the key replica, the limiters, usage counters and points reconciliation;
 * the shared slabs, the ingest worker (their only writer), the quote worker pool, the price service over the
 * slabs; the uWebSockets.js shell and the loopback admin API. Used by `main.ts` and by integration tests.
 */
import { connectRedis } from '../engine/limits/redis-connection.js';
import { MemoryQuoteStore } from '../engine/quotes/memory-quote-store.js';
import { RedisQuoteStore } from '../engine/quotes/redis-quote-store.js';
import type { QuoteStore } from '../engine/quotes/quote-store.js';
import { QuoteService } from '../engine/services/quote-service.js';
import { openAttestation } from '../engine/services/attestation-service.js';
import { TxStatusService } from '../engine/services/tx-status-service.js';
import { SendService } from '../engine/services/send-service.js';
import { SwapSubmitService } from '../engine/services/swap-submit-service.js';
import { BundleClient } from '../engine/tx/bundle-client.js';
import { loadTipPayerKey } from '../engine/tx/tip-payer-key.js';
import { SwapBuildService } from '../engine/services/swap-build-service.js';
import { LookupTableManager } from '../engine/services/lookup-table-manager.js';
import { BlockhashCache } from '../engine/tx/blockhash-cache.js';
import { Rebroadcaster } from '../engine/tx/rebroadcaster.js';
import { TxTracker } from '../engine/tx/tx-tracker.js';
import { TxTrackingService } from '../engine/services/tx-tracking-service.js';
import { GeyserSignals } from '../engine/services/geyser-signals.js';
import { DeshredWatch } from '../engine/chain/deshred-watch.js';
import { TxStageWatch } from '../engine/chain/tx-stage-watch.js';
import { createGeyserTransport } from '../engine/chain/geyser-factory.js';
import { createDeshredClient } from '../engine/chain/geyser-deshred.js';
import { AccountWatch } from '../engine/chain/account-watch.js';
import { AccountStreams } from '../engine/services/account-streams.js';
import { RpcClient } from '../engine/chain/rpc-client.js';
import { QuoteStreams } from '../engine/services/quote-stream.js';
import { ADAPTERS_BY_DEX_INDEX } from '../engine/adapters/by-dex-index.js';
import { Catalog } from '../engine/catalog/catalog.js';
import { loadCatalogTokens } from '../engine/catalog/load.js';
import { SlabPriceService } from '../engine/services/price-service.js';
import { MarketData } from '../engine/services/market-data.js';
import { PriceHistory } from '../engine/services/price-history.js';
import { ChangeRing, changeCounter } from '../engine/slab/change-ring.js';
import { MintTable } from '../engine/slab/mint-table.js';
import { PoolSlab } from '../engine/slab/pool-slab.js';
import { startIngestWorker, type IngestHost } from '../workers/ingest-host.js';
import { QuotePool } from '../workers/quote-pool.js';
import { KeyDirectory } from '../engine/keys/key-directory.js';
import { KeyService } from '../engine/keys/key-service.js';
import { createLimiters } from '../engine/limits/factory.js';
import { quotaOf, type Category } from '../engine/limits/table.js';
import type { Tier } from '../engine/tiers/tier.js';
import { pointsView } from '../engine/points/ledger.js';
import { PointsReconciler } from '../engine/points/reconciler.js';
import { UsageMeter } from '../engine/points/usage-meter.js';
import { openStore } from '../engine/store/open.js';
import type { Store } from '../engine/store/types.js';
import { startAdminServer } from './admin/admin-server.js';
import { clearAdminEndpoint, loadAdminToken, readAdminEndpoint, writeAdminEndpoint } from './admin/admin-token.js';
import { keyAuth } from './auth.js';
import type { ServiceConfig } from './config.js';
import { log } from './log.js';
import { ServiceMetrics } from './metrics.js';
import type { OutcomeObserver } from './pipeline.js';
import { quotaRateLimit } from './rate-limit.js';
import { createServer, type RunningServer } from './server.js';
import { streamSlots } from './stream-slots.js';

/** A running service. */
export interface RunningService {
  readonly port: number;
  readonly priceService: SlabPriceService;
  /** The shared pool slab and mint table (read-only outside the ingest thread; tests compare them to the chain). */
  readonly slab: PoolSlab;
  readonly mints: MintTable;
  readonly ingest: IngestHost;
  readonly store: Store;
  readonly keys: KeyService;
  /** This instance's metrics (GET /metrics on the admin listener; on the main port too with METRICS_PUBLIC=1). */
  readonly metrics: ServiceMetrics;
  /** The admin API's URL (loopback). */
  readonly adminUrl: string;
  /** Writes the accumulated usage counters now (tests). */
  flushUsage(): Promise<void>;
  /** Runs one points reconciliation now (tests). */
  reconcilePoints(): Promise<unknown>;
  /** Stream slots held by a key across all instances (tests, metrics); 0 for an unknown key. */
  streamSlotsHeld(apiKey: string): Promise<number>;
  /** Where quotes are kept under their ids for the build step (tests look frames up). */
  readonly quoteStore: QuoteStore;
  /** The quote streams (tests read their counters: an idle stream does no route work). */
  readonly quoteStreams: QuoteStreams;
  /** The Geyser sources of the transaction tracker (null without a Geyser endpoint; tests wait for their streams). */
  readonly txSignals: GeyserSignals | null;
  /** The account streams of GET /v1/stream/accounts (null without a Geyser endpoint; tests read their filter). */
  readonly accountStreams: AccountStreams | null;
  /** Resolves when the startup snapshot is loaded. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/** The swap submit service: bundles to BLOCK_ENGINE_URL tipped from the tip wallet, or none configured (503). */
function openSwapSubmit(cfg: ServiceConfig, rpc: RpcClient, beforeSubmit: (signature: string, feePayer: string) => Promise<void>): SwapSubmitService {
  if (!cfg.blockEngineUrl) return new SwapSubmitService({ bundles: null });
  const tip = loadTipPayerKey(cfg.dataDir, cfg.tipPayerSecretKey);
  const tipPayer = tip.keypair.publicKey.toBase58();
  log.info('bundle tip wallet (fund it: it pays every bundle tip and fee)', { tipPayer, source: tip.source, tipLamports: cfg.bundleTipLamports.toString(), blockEngine: cfg.blockEngineUrl });
  return new SwapSubmitService({
    bundles: {
      engine: new BundleClient(cfg.blockEngineUrl),
      tipPayer: tip.keypair,
      tipLamports: cfg.bundleTipLamports,
      tipBalance: async (address) => BigInt((await rpc.call<{ value: number }>('getBalance', [address, { commitment: 'confirmed' }])).value),
    },
    beforeSubmit,
  });
}

/** Starts every part of the service. */
export async function startService(cfg: ServiceConfig): Promise<RunningService> {
  if (!cfg.databaseUrl) {
    // Why: PGlite is one process's database; a second service on the same folder would corrupt it.
    const other = readAdminEndpoint(cfg.dataDir);
    if (other && other.pid !== process.pid) throw new Error(`another service (pid ${other.pid}) uses ${cfg.dataDir}; set DATA_DIR or DATABASE_URL`);
  }
  const store = await openStore({
    ...(cfg.databaseUrl ? { databaseUrl: cfg.databaseUrl } : { dataDir: `${cfg.dataDir}/pglite` }),
    ...(cfg.databaseSchema ? { schema: cfg.databaseSchema } : {}),
    onError: (e) => log.warn('store connection error', { err: e }),
  });
  const directory = new KeyDirectory(store.keys, { pollMs: cfg.keyPollMs, onError: (e) => log.warn('key poll failed', { err: e }) });
  await directory.start();
  const keys = new KeyService(store, directory);
  if (cfg.demoKey) log.info('demo key provisioned', { id: (await keys.provisionDemoKey(cfg.demoKey)).id, tier: 'pro' });
  const limiters = createLimiters({
    ...(cfg.redisUrl ? { redisUrl: cfg.redisUrl } : {}),
    keyPrefix: cfg.redisKeyPrefix,
    windowMs: cfg.rateWindowMs,
    chunk: cfg.rateChunkDivisor === 0 ? false : { divisor: cfg.rateChunkDivisor, max: cfg.rateChunkMax },
    log: (level, msg, ctx) => log[level](msg, ctx),
  });
  // Why wait: until Redis is connected the limiters count in memory, and two instances would not share a quota.
  if (limiters.backend === 'redis' && !(await limiters.ready(5000))) log.warn('Redis not reachable: limits are per instance until it is');
  const usage = new UsageMeter(store.usage);
  usage.start(cfg.usageFlushMs);
  const reconciler = new PointsReconciler(store, { phase: cfg.pointsPhase });
  reconciler.start(cfg.pointsReconcileMs);
  // Read at scrape time only; `server` is set once it listens (no scrape can come before).
  let server: RunningServer | null = null;
  const metrics = new ServiceMetrics({
    sseClients: () => server?.sseClientCount() ?? 0,
    sseCounts: () => server?.sseCounts() ?? { frames: 0, writes: 0, slowDropped: 0 },
    ingest: () => {
      const f = ingest.feed();
      const applied = ingest.stats().applied;
      return {
        connected: f?.connected ?? false,
        slotLag: f && f.chainSlot > 0n ? Math.max(0, Number(f.chainSlot - f.processedSlot)) : null,
        updatesApplied: typeof applied === 'number' ? applied : 0,
      };
    },
    slab: () => ({ pools: slab.count(), capacity: slab.capacity(), maxPools: slab.maxPools() }),
    quoteQueue: () => quotePool.queueSize(),
  });
  const observe: OutcomeObserver = (ctx, route, status) => {
    metrics.observe(ctx, route, status);
    const p = ctx.principal;
    if (p.kind !== 'key' || route.meter === null) return;
    const outcome = status === 429 ? 'rate-limited' : status >= 200 && status < 300 ? (route.rpc ? 'rpc-ok' : 'ok') : 'other';
    usage.record(p.keyId, outcome, Date.now());
  };
  const slab = PoolSlab.create(cfg.slabInitialPools, cfg.slabMaxPools);
  const mints = MintTable.create(1024, Math.max(1024, cfg.slabMaxPools * 2));
  const changes = ChangeRing.create();
  const changedCount = changeCounter(changes.sab);
  const catalog = new Catalog(loadCatalogTokens(cfg.catalogFile));
  const quotePool = new QuotePool({ poolSab: slab.sab, extSab: slab.ext.sab, arraySab: slab.arrays.sab, mintSab: mints.sab, catalogFile: cfg.catalogFile, threads: cfg.quoteThreads });
  const priceService = new SlabPriceService({
    slab,
    mints,
    adapters: ADAPTERS_BY_DEX_INDEX,
    catalog,
    batchPricer: (tokens, optimistic) => quotePool.prices(tokens.map((t) => ({ token: t.token, mint: t.mint })), optimistic),
    batchThreshold: cfg.priceBatchThreshold,
    changeCount: changedCount,
  });
  const marketData = new MarketData({
    slab,
    mints,
    adapters: ADAPTERS_BY_DEX_INDEX,
    catalog,
    prices: priceService,
    rawPrice: (t, optimistic, nowMs) => priceService.rawPrice(t, optimistic, nowMs),
    deadAfterMs: cfg.poolsDeadAfterMs,
  });
  // The service's own price history: change24h on every price, and the candles route (loaded from the store first).
  const priceHistory = new PriceHistory({
    repo: store.prices,
    prices: priceService,
    rawPrice: (t, optimistic, nowMs) => priceService.rawPrice(t, optimistic, nowMs),
    sampleMs: cfg.priceSampleMs,
    onError: (e) => log.warn('price history failed', { err: e }),
  });
  await priceHistory.start();
  priceService.setHistory(priceHistory);
  // Quote ids live in Redis when there is one (any instance builds a quote another issued), else in this process.
  const quoteRedis = cfg.redisUrl ? connectRedis(cfg.redisUrl, { keyPrefix: cfg.redisKeyPrefix, commandTimeoutMs: 1000 }) : null;
  const quoteStore = quoteRedis ? new RedisQuoteStore(quoteRedis.redis) : new MemoryQuoteStore();
  const quotes = new QuoteService({ route: (t, signal) => quotePool.route(t, signal), store: quoteStore, poolCount: () => priceService.poolCount() });
  // The streams watch the records of the pools each search read, in the slab itself: no message per change.
  const quoteStreams = new QuoteStreams({
    quote: (input) => quotes.streamQuote(input),
    writeSeq: (pool) => slab.writeSeq(pool),
    generation: () => slab.generation(),
    changes: changedCount,
    onError: (e) => log.warn('quote stream recompute failed', { err: e }),
  });
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((r) => (markReady = r));
  const ingest = startIngestWorker(
    {
      poolSab: slab.sab,
      extSab: slab.ext.sab,
      arraySab: slab.arrays.sab,
      mintSab: mints.sab,
      changeSab: changes.sab,
      rpcUrl: cfg.rpcUrl,
      geyserUrl: cfg.geyserUrl,
      geyserXToken: cfg.geyserXToken,
      transport: cfg.geyserTransport,
      pingIntervalMs: cfg.geyserPingMs,
      silenceMs: cfg.geyserSilenceMs,
      addressBudgetBytes: cfg.geyserAddressBudgetBytes,
      maxStreams: cfg.geyserMaxStreams,
      statsIntervalMs: 1000,
      chainPollMs: cfg.chainPollMs,
    },
    {
      onReady: (pools) => {
        log.info('startup snapshot loaded', { pools });
        priceService.setReady();
        marketData.markReady();
        markReady();
      },
      onChange: (runs, lapped) => {
        if (lapped) {
          // Changes were lost: every pool may have moved, in both views.
          const all = Array.from({ length: slab.count() }, (_, i) => i);
          marketData.noteChanged(all);
          priceService.poolsChanged(all, false);
          priceService.poolsChanged(all, true);
          return;
        }
        // In the order ingest published them: a confirmation's frames are not held behind a later write's.
        for (const r of runs) priceService.poolsChanged(r.pools, r.confirmed);
        // After the frames: discovery stamps are not on the frame path.
        for (const r of runs) marketData.noteChanged(r.pools);
      },
      onLog: (level, msg, ctx) => log[level](msg, { thread: 'ingest', ...ctx }),
      onExit: (code) => log.warn('ingest worker exited', { code }),
    },
  );
  const attestation = openAttestation(cfg.dataDir);
  // Why no retries on send: a send that timed out may have reached the node; the caller decides (SUBMISSION_FAILED).
  const sendRpc = new RpcClient(cfg.rpcUrl, { retries: 0, timeoutMs: 5000 });
  const rebroadcaster = new Rebroadcaster(sendRpc);
  const tracker = new TxTracker(new RpcClient(cfg.rpcUrl, { retries: 0, timeoutMs: 5000 }));
  // The Geyser events of the service's own submissions: a deshred stream (`landed`) and a Subscribe stream
  // (processed, confirmed, finalized, failed) on this thread (why here, not in the ingest worker:
  // engine/services/geyser-signals.ts), filtered by their fee payers; started once the service is up.
  const geyserEndpoint = { url: cfg.geyserUrl, ...(cfg.geyserXToken ? { xToken: cfg.geyserXToken } : {}) };
  const watchLog = (level: 'debug' | 'info' | 'warn', msg: string, ctx?: Record<string, unknown>): void => log[level](msg, { thread: 'main', ...ctx });
  const geyserSignals = cfg.geyserUrl
    ? new GeyserSignals(
        tracker,
        (onTransaction) => new DeshredWatch({ connect: () => createDeshredClient(cfg.geyserTransport, geyserEndpoint), onTransaction, log: watchLog }),
        (h) => new TxStageWatch({ connect: () => createGeyserTransport(cfg.geyserTransport, geyserEndpoint), ...h, log: watchLog }),
      )
    : null;
  const txTracking = new TxTrackingService(tracker, geyserSignals);
  // GET /v1/stream/accounts: one Subscribe stream per commitment, its filter every client's accounts and owners.
  const accountStreams = cfg.geyserUrl
    ? new AccountStreams((commitment, onAccount) => new AccountWatch({ connect: () => createGeyserTransport(cfg.geyserTransport, geyserEndpoint), commitment, onAccount, log: watchLog }))
    : null;
  const expectLanded = (signature: string, feePayer: string): Promise<void> => txTracking.expect(signature, feePayer);
  log.info('attestation key', { publicKey: attestation.publicKey.publicKey, source: attestation.source });
  const swapSubmit = openSwapSubmit(cfg, sendRpc, expectLanded);
  // The build step's pool reads and simulations (one retry, 5 s: a client waits), and its blockhash, kept fresh.
  const buildRpc = new RpcClient(cfg.rpcUrl, { retries: 1, timeoutMs: 5000 });
  const blockhashes = new BlockhashCache(
    async () => (await buildRpc.call<{ value: { blockhash: string; lastValidBlockHeight: number } }>('getLatestBlockhash', [{ commitment: 'confirmed' }])).value,
    { onError: (e) => log.debug('getLatestBlockhash failed', { err: e }) },
  );
  blockhashes.start();
  // Address lookup tables for routes over one packet, owned and paid by the tip wallet (engine/tx/README.md, "Size").
  const tableWallet = loadTipPayerKey(cfg.dataDir, cfg.tipPayerSecretKey).keypair;
  const lookupTables = new LookupTableManager({
    rpc: buildRpc,
    wallet: tableWallet,
    blockhash: () => blockhashes.current()?.blockhash ?? null,
    log: (level, msg, ctx) => log[level](msg, { thread: 'main', ...ctx }),
  });
  void lookupTables.load();
  const swapBuild = new SwapBuildService({ store: quoteStore, rpc: buildRpc, blockhash: blockhashes, signer: attestation.signer, lookupTables });
  server = await createServer({
    priceService,
    port: cfg.port,
    host: cfg.host,
    auth: keyAuth((k) => directory.lookup(k)),
    rateLimit: quotaRateLimit({
      limiter: limiters.window,
      trustProxy: cfg.trustProxy,
      ...(cfg.rateQuotaScale === 1 ? {} : { quota: (c: Category, t: Tier) => Math.floor(quotaOf(c, t) * cfg.rateQuotaScale) }),
    }),
    slots: streamSlots(limiters.slots),
    observe,
    points: (id) => pointsView(store, id),
    quotes,
    attestation,
    // Why one retry and 5 s: a status check answers a waiting client; a slow node is reported as `error`, not waited on.
    txStatus: new TxStatusService(new RpcClient(cfg.rpcUrl, { retries: 1, timeoutMs: 5000 })),
    send: new SendService(sendRpc, rebroadcaster, expectLanded),
    txTracking,
    swapSubmit,
    swapBuild,
    marketData,
    priceHistory,
    quoteStreams,
    ...(accountStreams ? { accountStreams } : {}),
    heartbeatMs: cfg.sseHeartbeatMs,
    ...(cfg.metricsPublic ? { publicMetrics: metrics } : {}),
    health: {
      feed: () => ingest.feed(),
      bounds: { maxSlotLag: cfg.healthMaxSlotLag, maxUpdateAgeMs: cfg.healthMaxUpdateAgeMs, maxChainAgeMs: cfg.healthMaxUpdateAgeMs },
    },
  });
  const admin = await startAdminServer({ keys, token: loadAdminToken(cfg.dataDir, cfg.adminToken), host: cfg.adminHost, port: cfg.adminPort, metrics });
  writeAdminEndpoint(cfg.dataDir, { url: admin.url, pid: process.pid });
  geyserSignals?.start();
  log.info('listening', {
    port: server.port,
    admin: admin.url,
    store: store.driver,
    limits: limiters.backend,
    rpc: cfg.rpcUrl,
    geyser: cfg.geyserUrl,
    transport: cfg.geyserTransport,
  });
  return {
    port: server.port,
    priceService,
    slab,
    mints,
    ingest,
    store,
    keys,
    adminUrl: admin.url,
    metrics,
    quoteStore,
    quoteStreams,
    txSignals: geyserSignals,
    accountStreams,
    ready,
    flushUsage: async () => {
      await usage.flush();
    },
    reconcilePoints: () => reconciler.runOnce(),
    streamSlotsHeld: async (apiKey) => {
      const k = directory.lookup(apiKey);
      return k ? limiters.slots.held(`k${k.id}`) : 0;
    },
    async close(): Promise<void> {
      await server.close();
      rebroadcaster.close();
      geyserSignals?.close();
      accountStreams?.close();
      tracker.close();
      blockhashes.close();
      quoteStreams.close();
      admin.close();
      clearAdminEndpoint(cfg.dataDir, process.pid);
      // Why this order: the last usage counts and price bars reach the store before it closes (nothing is lost).
      await priceHistory.stop();
      await usage.stop();
      await reconciler.stop();
      await directory.stop();
      await limiters.close();
      await ingest.stop();
      await quotePool.close();
      await quoteStore.close();
      await quoteRedis?.close();
      await store.close();
    },
  };
}
