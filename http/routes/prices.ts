/**
 * GET /v1/price/:token and GET /v1/prices?tokens=...: confirmed prices (optimistic=false), anonymous answers
 * cached briefly by the pipeline.
 */
import { agedPriceEntry } from '../../engine/router/price-age.js';
import { isPrice, type PriceEntry } from '../../engine/router/price-types.js';
import type { PriceService, ResolvedToken } from '../../engine/services/price-service-types.js';
import { ApiError } from '../errors.js';
import { listParam } from '../query.js';
import type { Reply } from '../request-context.js';
import type { RouteDef } from '../route.js';
import { requireReady } from './warm-gate.js';

/** Most entries of `tokens` in one batch request (spec Limits). */
export const MAX_BATCH_TOKENS = 50;
/** Anonymous cache TTL of the price routes (spec: "Anonymous responses are cached 2 s"). */
export const PRICE_ANON_CACHE_MS = 2000;

/** Options shared by the price routes. */
export interface PriceRouteOptions {
  readonly anonCacheTtlMs?: number;
  /** Clock of the single-price route (tests); default `Date.now`. */
  readonly now?: () => number;
}

/**
 * Answers of one ms, by token as given in the path: a price is a function of the slabs and of the ms it is taken
 * at (its ages and `timestamp` are whole ms), so within one ms, while the price service reports no change to its
 * inputs, the same token gets the same answer. Why: under load a token is asked many times a ms; resolving,
 * pricing and serializing once per ms instead of once per request is most of the route's own cost
 * (bench/README.md). Held for one ms and one inputs version only: bounded by the requests of one ms.
 */
class PriceMemo {
  private atMs = -1;
  private version = -1;
  private readonly byInput = new Map<string, Reply>();

  /** The memo valid at `nowMs` and `version` (emptied when either moved). */
  at(nowMs: number, version: number): Map<string, Reply> {
    if (nowMs !== this.atMs || version !== this.version) {
      this.byInput.clear();
      this.atMs = nowMs;
      this.version = version;
    }
    return this.byInput;
  }
}

/** GET /v1/price/:token: a price object, 404 with the unavailable body, or 400 for an unresolvable token. */
export function priceRoute(svc: PriceService, opts: PriceRouteOptions = {}): RouteDef {
  const memo = new PriceMemo();
  const now = opts.now ?? Date.now;
  return {
    name: 'price',
    method: 'get',
    pattern: '/v1/price/:token',
    auth: 'none',
    apiKeyQuery: false,
    meter: 'prices',
    anonCacheTtlMs: opts.anonCacheTtlMs ?? PRICE_ANON_CACHE_MS,
    ageCached: (body, elapsedMs) => agedPriceEntry(body as PriceEntry, elapsedMs),
    handler: (ctx) => {
      requireReady(svc);
      const input = ctx.params.token ?? '';
      const nowMs = now();
      const version = svc.inputsVersion?.() ?? null;
      const known = version === null ? null : memo.at(nowMs, version);
      const hit = known?.get(input);
      if (hit !== undefined) return hit;
      const resolved = svc.resolve(input);
      if (!resolved) {
        throw new ApiError('INVALID_REQUEST', 'Unknown token', {
          details: `"${input}" is neither a tracked symbol nor a valid mint`,
        });
      }
      const entry = svc.price(resolved, false, nowMs);
      const status = isPrice(entry) ? 200 : 404;
      if (known === null) return { status, body: entry };
      // Why bytes: uWS copies a buffer as it is, a string is converted to UTF-8 again on every write.
      const reply: Reply = { status, body: entry, json: Buffer.from(JSON.stringify(entry)) };
      known.set(input, reply);
      return reply;
    },
  };
}

/**
 * The key of a batch entry: the mint verbatim when a mint was passed, else the upper-cased symbol.
 */
export function batchKey(input: string, resolved: ResolvedToken): string {
  return resolved.mint === input ? input : input.toUpperCase();
}

/** GET /v1/prices?tokens=a,b: `{ prices: { <key>: entry }, timestamp }`, computed with one prices() call. */
export function pricesRoute(svc: PriceService, opts: PriceRouteOptions = {}): RouteDef {
  return {
    name: 'prices',
    method: 'get',
    pattern: '/v1/prices',
    auth: 'none',
    apiKeyQuery: false,
    meter: 'prices',
    anonCacheTtlMs: opts.anonCacheTtlMs ?? PRICE_ANON_CACHE_MS,
    ageCached: (body, elapsedMs) => {
      const b = body as { prices: Record<string, PriceEntry>; timestamp: number };
      const prices: Record<string, PriceEntry> = Object.create(null) as Record<string, PriceEntry>;
      for (const k of Object.keys(b.prices)) prices[k] = agedPriceEntry(b.prices[k]!, elapsedMs);
      return { prices, timestamp: b.timestamp };
    },
    handler: async (ctx) => {
      requireReady(svc);
      const raw = ctx.query.get('tokens');
      const inputs = raw === null ? [] : listParam(raw);
      if (inputs.length === 0) {
        throw new ApiError('INVALID_REQUEST', 'Missing tokens', { details: 'tokens is a comma-separated list of symbols and/or mints' });
      }
      if (inputs.length > MAX_BATCH_TOKENS) {
        throw new ApiError('INVALID_REQUEST', 'Too many tokens', {
          details: `${inputs.length} tokens given; at most ${MAX_BATCH_TOKENS}`,
        });
      }
      const keys: string[] = [];
      const slotOfKey: number[] = [];
      const unique: ResolvedToken[] = [];
      const slotOfMint = new Map<string, number>();
      const seenKeys = new Set<string>();
      for (const input of inputs) {
        const r = svc.resolve(input);
        if (!r) continue; // unknown symbols (and strings that are not mints) are ignored (spec rule 2)
        const key = batchKey(input, r);
        if (seenKeys.has(key)) continue;
        seenKeys.add(key);
        let slot = slotOfMint.get(r.mint);
        if (slot === undefined) {
          slot = unique.length;
          unique.push(r);
          slotOfMint.set(r.mint, slot);
        }
        keys.push(key);
        slotOfKey.push(slot);
      }
      const entries: PriceEntry[] = unique.length > 0 ? await svc.prices(unique, false) : [];
      if (entries.length !== unique.length) throw new Error(`prices() returned ${entries.length} entries for ${unique.length} tokens`);
      // Null prototype: keys come from the caller.
      const prices: Record<string, PriceEntry> = Object.create(null) as Record<string, PriceEntry>;
      for (let i = 0; i < keys.length; i++) prices[keys[i]!] = entries[slotOfKey[i]!]!;
      return { status: 200, body: { prices, timestamp: Date.now() } };
    },
  };
}
