export { buildRoutes, type RouteDeps } from './route-table.js';
export { healthRoute } from './health.js';
export { priceRoute, pricesRoute, batchKey, MAX_BATCH_TOKENS, PRICE_ANON_CACHE_MS } from './prices.js';
export { priceStreamRoute, resolveStreamTokens, MAX_STREAM_MINTS, DEFAULT_DEDUP_THRESHOLD } from './price-stream.js';
export { requireReady } from './warm-gate.js';
