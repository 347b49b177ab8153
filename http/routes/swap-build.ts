/**
 * POST /v1/swap/build (key, meter `swap`): `{ quoteId, userPublicKey, maxDriftBps?, wrapAndUnwrapSol=true,
 * computeUnitPriceMicroLamports?, simulate=false }` -> `{ transaction, quoteId, lastValidBlockHeight,
 * computeUnitLimit, inAmount, outAmount, minOutAmount, attestation }` (ARCHITECTURE.md), built by
 * `engine/services/swap-build-service.ts`. The body is checked strictly first (400 INVALID_REQUEST naming the
 * field), so a malformed request never spends its quote id. A quote id of the wrong form is 404 QUOTE_NOT_FOUND
 * without asking the store. Refusals are the spec's: 404 QUOTE_NOT_FOUND, 410 QUOTE_EXPIRED, 409 QUOTE_MOVED
 * (with `displayedOutput`, `currentOutput`, `driftBps`, `maxDriftBps`), 400 TX_TOO_LARGE, 400 SIMULATION_FAILED
 * (details: the program's error and logs), 503 BLOCKHASH_UNAVAILABLE / SERVICE_UNAVAILABLE.
 */
import { PublicKey } from '@solana/web3.js';
import type { SwapBuildRequest, SwapBuildService } from '../../engine/services/swap-build-service.js';
import { ApiError } from '../errors.js';
import { jsonObjectBody } from '../json-body.js';
import type { Reply, RequestContext } from '../request-context.js';
import type { RouteDef } from '../route.js';

/** Largest build request body (a few short fields). */
export const SWAP_BUILD_BODY_LIMIT = 8 * 1024;
/** Largest priority fee accepted (micro-lamports per unit): a u64. */
const MAX_U64 = 2n ** 64n - 1n;
const QUOTE_ID = /^q_[0-9a-f]{32}$/;

function invalid(field: string, details: string): ApiError {
  return new ApiError('INVALID_REQUEST', `Invalid ${field}`, { details });
}

function optionalBool(v: unknown, field: string, dflt: boolean): boolean {
  if (v === undefined || v === null) return dflt;
  if (typeof v !== 'boolean') throw invalid(field, `${field} must be true or false`);
  return v;
}

/** The parsed request, and whether its quote id has the issued form. 400 on any malformed field. */
export function parseSwapBuildRequest(body: Buffer | null): { request: SwapBuildRequest; wellFormedId: boolean } {
  const b = jsonObjectBody(body, '{ quoteId, userPublicKey }');
  if (!b.ok) throw invalid('body', b.details);
  const o = b.value;
  if (typeof o.quoteId !== 'string' || o.quoteId === '') throw invalid('quoteId', 'quoteId is required (the quote answer\'s quoteId)');
  if (typeof o.userPublicKey !== 'string' || o.userPublicKey === '') throw invalid('userPublicKey', 'userPublicKey is required');
  let user: string;
  try {
    user = new PublicKey(o.userPublicKey).toBase58();
  } catch {
    throw invalid('userPublicKey', 'userPublicKey must be a base58 public key (32 bytes)');
  }
  let maxDriftBps: number | undefined;
  if (o.maxDriftBps !== undefined && o.maxDriftBps !== null) {
    if (typeof o.maxDriftBps !== 'number' || !Number.isInteger(o.maxDriftBps) || o.maxDriftBps < 0 || o.maxDriftBps > 10_000) {
      throw invalid('maxDriftBps', 'maxDriftBps must be an integer from 0 to 10000');
    }
    maxDriftBps = o.maxDriftBps;
  }
  let price: bigint | undefined;
  const p = o.computeUnitPriceMicroLamports;
  if (p !== undefined && p !== null) {
    const ok = (typeof p === 'number' && Number.isSafeInteger(p) && p >= 0) || (typeof p === 'string' && /^[0-9]{1,20}$/.test(p));
    if (!ok || BigInt(p as number | string) > MAX_U64) throw invalid('computeUnitPriceMicroLamports', 'computeUnitPriceMicroLamports must be a non-negative integer (u64)');
    price = BigInt(p as number | string);
  }
  const request: SwapBuildRequest = {
    quoteId: o.quoteId,
    userPublicKey: user,
    ...(maxDriftBps === undefined ? {} : { maxDriftBps }),
    wrapAndUnwrapSol: optionalBool(o.wrapAndUnwrapSol, 'wrapAndUnwrapSol', true),
    ...(price === undefined ? {} : { computeUnitPriceMicroLamports: price }),
    simulate: optionalBool(o.simulate, 'simulate', false),
  };
  return { request, wellFormedId: QUOTE_ID.test(o.quoteId) };
}

/** The build route. */
export function swapBuildRoute(builder: SwapBuildService): RouteDef {
  return {
    name: 'swap.build',
    method: 'post',
    pattern: '/v1/swap/build',
    auth: 'key',
    apiKeyQuery: false,
    meter: 'swap',
    maxBodyBytes: SWAP_BUILD_BODY_LIMIT,
    anonCacheTtlMs: 0,
    handler: async (ctx: RequestContext): Promise<Reply> => {
      const { request, wellFormedId } = parseSwapBuildRequest(ctx.body);
      if (!wellFormedId) throw new ApiError('QUOTE_NOT_FOUND', 'Quote not found', { details: 'quoteId is not an issued quote id (q_ and 32 hex digits)' });
      const out = await builder.build(request);
      if (out.ok) return { status: 200, body: out.body };
      throw new ApiError(out.code, out.message, {
        ...(out.details === undefined ? {} : { details: typeof out.details === 'string' ? out.details : JSON.stringify(out.details) }),
        ...(out.extra ? { extra: out.extra } : {}),
      });
    },
  };
}
