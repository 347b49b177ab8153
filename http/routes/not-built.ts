/**
 * The interface's routes that are declared but not built yet. Each is mounted with its real auth, tier, quota
 * and stream-slot policy, and answers 501 NOT_IMPLEMENTED after those stages, so the auth table test covers the
 * whole interface from day one. An issue that builds a route moves it out of this list into its own file.
 */
import { ApiError } from '../errors.js';
import type { RequestContext } from '../request-context.js';
import type { RouteDef } from '../route.js';

/** Most wallets one portfolio request may name (spec: Portfolio batch). */
export const MAX_PORTFOLIO_WALLETS = 20;

/** Body limit of the JSON POST/PATCH routes. */
export const JSON_BODY_LIMIT = 64 * 1024;

/**
 * Number of wallets of a portfolio request's `wallets` (0 when absent); 400 INVALID_REQUEST above 20 (spec:
 * Portfolio batch). Request validation: the portfolio handlers call it for every tier (internal keys skip the rate
 * limiter, which calls it through {@link walletCost}).
 */
export function portfolioWallets(ctx: RequestContext): number {
  const raw = ctx.query.get('wallets');
  if (raw === null) return 0;
  const n = raw.split(',').filter((w) => w.trim() !== '').length;
  if (n > MAX_PORTFOLIO_WALLETS) {
    throw new ApiError('INVALID_REQUEST', `At most ${MAX_PORTFOLIO_WALLETS} wallets per request`, { details: `got ${n}` });
  }
  return n;
}

/** Quota units of a portfolio request: one per wallet of `wallets` (spec), at least 1; 400 above 20. */
export function walletCost(ctx: RequestContext): number {
  return Math.max(1, portfolioWallets(ctx));
}

type Decl = Omit<RouteDef, 'handler' | 'anonCacheTtlMs' | 'apiKeyQuery'> & { anonCacheTtlMs?: number; apiKeyQuery?: boolean };

/** `validate` runs first: a request the built route would refuse as invalid is refused the same way now. */
const notBuilt = (d: Decl, validate?: (ctx: RequestContext) => unknown): RouteDef => ({
  anonCacheTtlMs: 0,
  apiKeyQuery: false,
  ...d,
  handler: (ctx) => {
    validate?.(ctx);
    throw new ApiError('NOT_IMPLEMENTED', `${d.method.toUpperCase().replace('DEL', 'DELETE')} ${d.pattern} is not built yet`);
  },
});

const POOLS_CACHE_MS = 5000;
const FORENSICS = { auth: 'key', apiKeyQuery: true, minTier: 'starter', meter: 'forensics' } as const;
const STREAM = { auth: 'key', apiKeyQuery: true, stream: true } as const;
const PORTFOLIO = { auth: 'key', apiKeyQuery: true, meter: 'portfolio', cost: walletCost } as const;
const WEBHOOKS = { auth: 'key', meter: 'webhooks' } as const;
const BODY = { maxBodyBytes: JSON_BODY_LIMIT } as const;

/** Every declared, unbuilt route of the interface. */
export function notBuiltRoutes(): RouteDef[] {
  return [
    // Pools (no key; anonymous answers cached 5 s).
    notBuilt({ name: 'pools.browse', method: 'get', pattern: '/v1/pools', auth: 'none', meter: 'pools', anonCacheTtlMs: POOLS_CACHE_MS }),
    notBuilt({ name: 'pools.new', method: 'get', pattern: '/v1/pools/new', auth: 'none', meter: 'pools', anonCacheTtlMs: POOLS_CACHE_MS }),
    notBuilt({ name: 'pools.seed', method: 'get', pattern: '/v1/pools/seed', auth: 'none', meter: 'pools' }),
    notBuilt({ name: 'pools.dead', method: 'get', pattern: '/v1/pools/dead', auth: 'none', meter: 'pools', anonCacheTtlMs: POOLS_CACHE_MS }),
    notBuilt({ name: 'pools.token', method: 'get', pattern: '/v1/pools/:token', auth: 'none', meter: 'pools', anonCacheTtlMs: POOLS_CACHE_MS }),
    notBuilt({ name: 'pools.pair', method: 'get', pattern: '/v1/pools/:tokenA/:tokenB', auth: 'none', meter: 'pools', anonCacheTtlMs: POOLS_CACHE_MS }),
    notBuilt({ name: 'pool.one', method: 'get', pattern: '/v1/pool/:address', auth: 'none', meter: 'pools', anonCacheTtlMs: POOLS_CACHE_MS }),
    // Search and tokens.
    notBuilt({ name: 'search', method: 'get', pattern: '/v1/search', auth: 'none', meter: 'search' }),
    notBuilt({ name: 'tokens.list', method: 'get', pattern: '/v1/tokens', auth: 'none', meter: 'tokens' }),
    notBuilt({ name: 'token.page', method: 'get', pattern: '/v1/token/:mint', auth: 'none', meter: 'tokens' }),
    notBuilt({ name: 'tokens.metadata', method: 'get', pattern: '/v1/tokens/:mint', auth: 'key', meter: 'tokens' }),
    notBuilt({ name: 'tokens.logo', method: 'get', pattern: '/v1/tokens/:mint/logo', auth: 'none', meter: 'logo' }),
    // Forensics (key, Starter or higher; ?apiKey= accepted).
    notBuilt({ name: 'forensics.asset', method: 'get', pattern: '/v1/forensics/token/:mint/asset', ...FORENSICS }),
    notBuilt({ name: 'forensics.holders', method: 'get', pattern: '/v1/forensics/token/:mint/holders', ...FORENSICS }),
    notBuilt({ name: 'forensics.scan', method: 'get', pattern: '/v1/forensics/token/:mint/scan', ...FORENSICS }),
    notBuilt({ name: 'forensics.transactions', method: 'get', pattern: '/v1/forensics/address/:address/transactions', ...FORENSICS }),
    notBuilt({ name: 'forensics.firstFunder', method: 'get', pattern: '/v1/forensics/address/:address/first-funder', ...FORENSICS }),
    // Wallet history, portfolio, balances, transaction status.
    notBuilt({ name: 'history.balance', method: 'get', pattern: '/v1/history/balance', auth: 'key', meter: 'history' }),
    notBuilt({ name: 'stream.balanceHistory', method: 'get', pattern: '/v1/stream/balance-history', ...STREAM, meter: 'history' }),
    notBuilt({ name: 'portfolio.pnl', method: 'get', pattern: '/v1/portfolio/pnl/:walletAddress', ...PORTFOLIO }, portfolioWallets),
    notBuilt({ name: 'portfolio.pnlBatch', method: 'get', pattern: '/v1/portfolio/pnl', ...PORTFOLIO }, portfolioWallets),
    notBuilt({ name: 'portfolio.value', method: 'get', pattern: '/v1/portfolio/value/:walletAddress', ...PORTFOLIO }, portfolioWallets),
    notBuilt({ name: 'stream.portfolio', method: 'get', pattern: '/v1/stream/portfolio/pnl', ...PORTFOLIO, stream: true }, portfolioWallets),
    notBuilt({ name: 'balances', method: 'get', pattern: '/v1/balances', auth: 'key', meter: 'balances' }),
    notBuilt({ name: 'tx.status', method: 'get', pattern: '/v1/tx/:signature', auth: 'key', meter: 'tx' }),
    // Streams.
    notBuilt({ name: 'stream.quote', method: 'get', pattern: '/v1/quote/stream', ...STREAM, meter: 'quote-stream' }),
    notBuilt({ name: 'stream.pools', method: 'get', pattern: '/v1/stream/pools', ...STREAM, meter: 'stream' }),
    notBuilt({ name: 'stream.accounts', method: 'get', pattern: '/v1/stream/accounts', ...STREAM, meter: 'stream' }),
    notBuilt({ name: 'stream.tx', method: 'get', pattern: '/v1/stream/tx', ...STREAM, meter: 'stream' }),
    // Quote, build, submit, send.
    notBuilt({ name: 'quote', method: 'post', pattern: '/v1/quote', auth: 'key', meter: 'quote', ...BODY }),
    notBuilt({ name: 'swap.build', method: 'post', pattern: '/v1/swap/build', auth: 'key', meter: 'swap', ...BODY }),
    notBuilt({ name: 'swap.submit', method: 'post', pattern: '/v1/swap', auth: 'key', meter: 'swap', rpc: true, ...BODY }),
    notBuilt({ name: 'send', method: 'post', pattern: '/v1/send', auth: 'key', meter: 'send', rpc: true, ...BODY }),
    // Webhooks.
    notBuilt({ name: 'webhooks.create', method: 'post', pattern: '/v1/webhooks', ...WEBHOOKS, ...BODY }),
    notBuilt({ name: 'webhooks.trackTx', method: 'post', pattern: '/v1/webhooks/:id/track-tx', ...WEBHOOKS, ...BODY }),
    notBuilt({ name: 'webhooks.trackAddress', method: 'post', pattern: '/v1/webhooks/:id/track-address', ...WEBHOOKS, ...BODY }),
    notBuilt({ name: 'webhooks.addresses', method: 'get', pattern: '/v1/webhooks/:id/addresses', ...WEBHOOKS }),
    notBuilt({ name: 'webhooks.removeAddress', method: 'del', pattern: '/v1/webhooks/:id/addresses/:addressId', ...WEBHOOKS }),
    notBuilt({ name: 'webhooks.update', method: 'patch', pattern: '/v1/webhooks/:id', ...WEBHOOKS, ...BODY }),
    // Supply figures and the attestation key (no key).
    ...['circulating-supply', 'total-supply', 'max-supply', 'market-cap', 'fdv'].map((f) =>
      notBuilt({ name: `venum.${f}`, method: 'get', pattern: `/v1/venum/${f}`, auth: 'none', meter: 'supply' }),
    ),
    notBuilt({ name: 'attestation.pubkey', method: 'get', pattern: '/v1/attestation/pubkey', auth: 'none', meter: 'attestation' }),
  ];
}
