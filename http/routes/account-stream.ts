/**
 * GET /v1/stream/accounts (key; `?apiKey=` allowed): SSE of real-time account updates from Geyser, of the accounts
 * listed (`accounts=<pubkey>,...`, at most 100) and of the accounts owned by the programs listed
 * (`owners=<program>,...`, at most 10); at least one of the two. `commitment=processed` (default) or `confirmed`.
 * `dataOffset` / `dataLength` cut each account's data as Solana's `dataSlice` does (`dataLength` at most 65536,
 * the default: larger data is cut there; `dataSize` always gives the full length).
 * `ready` `{ ts, accounts, owners, commitment }` first, `subscribed` `{ ts }` once the service's Geyser filter holds
 * this interest, then one `account` event per update:
 * `{ pubkey, owner, data (base64), dataSize, lamports, slot, writeVersion, executable, rentEpoch, txnSignature }`
 * (`lamports`, `writeVersion`, `rentEpoch` decimal strings; `txnSignature` null when Geyser names none).
 * A backpressured client keeps only the latest update per account. 503 `SERVICE_UNAVAILABLE` when the service's
 * filter at that commitment is full (`MAX_WATCHED_ACCOUNTS`, `MAX_WATCHED_OWNERS`).
 */
import { MAX_STREAM_ACCOUNTS, MAX_STREAM_OWNERS, type AccountCommitment, type AccountStreams, type AccountUpdate } from '../../engine/services/account-streams.js';
import { isMint } from '../../engine/services/price-service.js';
import { ApiError } from '../errors.js';
import { listParam } from '../query.js';
import type { RequestContext } from '../request-context.js';
import type { RouteDef } from '../route.js';
import { sseFrame, type SseHub } from '../sse.js';

/** Most data bytes per event (and the largest `dataLength`). */
export const MAX_STREAM_DATA_BYTES = 65_536;
/** Largest `dataOffset` (Solana's largest account, 10 MiB). */
const MAX_DATA_OFFSET = 10 * 1024 * 1024;

/** A parsed request. */
export interface AccountStreamRequest {
  readonly accounts: readonly string[];
  readonly owners: readonly string[];
  readonly commitment: AccountCommitment;
  readonly dataOffset: number;
  readonly dataLength: number;
}

function pubkeys(ctx: RequestContext, name: string, max: number): string[] {
  const raw = ctx.query.get(name);
  if (raw === null) return [];
  const list = [...new Set(listParam(raw))];
  if (list.length > max) throw new ApiError('INVALID_REQUEST', `Too many ${name}`, { details: `${list.length} ${name}; at most ${max} per connection` });
  const bad = list.find((k) => !isMint(k));
  if (bad !== undefined) throw new ApiError('INVALID_REQUEST', `Invalid ${name}`, { details: `"${bad.slice(0, 100)}" is not a base58 public key` });
  return list;
}

function intParam(ctx: RequestContext, name: string, max: number, dflt: number): number {
  const raw = ctx.query.get(name);
  if (raw === null || raw === '') return dflt;
  const n = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(n <= max)) throw new ApiError('INVALID_REQUEST', `Invalid ${name}`, { details: `${name} must be an integer from 0 to ${max}` });
  return n;
}

/** Parses and checks the query (400 INVALID_REQUEST for anything malformed or over the caps). */
export function parseAccountStreamRequest(ctx: RequestContext): AccountStreamRequest {
  const accounts = pubkeys(ctx, 'accounts', MAX_STREAM_ACCOUNTS);
  const owners = pubkeys(ctx, 'owners', MAX_STREAM_OWNERS);
  if (accounts.length + owners.length === 0) throw new ApiError('INVALID_REQUEST', 'Nothing to stream', { details: 'give accounts=<pubkey>,... or owners=<program>,...' });
  const c = ctx.query.get('commitment') ?? 'processed';
  if (c !== 'processed' && c !== 'confirmed') throw new ApiError('INVALID_REQUEST', 'Invalid commitment', { details: 'commitment is processed or confirmed' });
  return {
    accounts,
    owners,
    commitment: c,
    dataOffset: intParam(ctx, 'dataOffset', MAX_DATA_OFFSET, 0),
    dataLength: intParam(ctx, 'dataLength', MAX_STREAM_DATA_BYTES, MAX_STREAM_DATA_BYTES),
  };
}

/** The `account` event's data of an update, its data cut to the request's slice. */
export function accountEvent(u: AccountUpdate, dataOffset: number, dataLength: number): Record<string, unknown> {
  const d = u.data;
  const start = Math.min(dataOffset, d.length);
  const slice = Buffer.from(d.buffer, d.byteOffset + start, Math.min(dataLength, d.length - start));
  return {
    pubkey: u.pubkey,
    owner: u.owner,
    data: slice.toString('base64'),
    dataSize: d.length,
    lamports: u.lamports,
    slot: u.slot,
    writeVersion: u.writeVersion,
    executable: u.executable,
    rentEpoch: u.rentEpoch,
    txnSignature: u.txnSignature ?? null,
  };
}

/**
 * Serialized `account` frames per update and slice: an update going to many clients (the same owner, the same
 * account) is encoded once per distinct slice, not once per client. Weak: gone with the update.
 */
const frames = new WeakMap<AccountUpdate, Map<string, string>>();

/** The `account` frame of an update for a slice (memoized, see {@link frames}). */
export function accountFrame(u: AccountUpdate, dataOffset: number, dataLength: number): string {
  let m = frames.get(u);
  if (!m) frames.set(u, (m = new Map()));
  const key = `${dataOffset}:${dataLength}`;
  let f = m.get(key);
  if (f === undefined) m.set(key, (f = sseFrame('account', accountEvent(u, dataOffset, dataLength))));
  return f;
}

/** The account stream route. */
export function accountStreamRoute(streams: AccountStreams, hub: SseHub): RouteDef {
  return {
    name: 'stream.accounts',
    method: 'get',
    pattern: '/v1/stream/accounts',
    auth: 'key',
    apiKeyQuery: true,
    meter: 'stream',
    stream: true,
    anonCacheTtlMs: 0,
    handler: (ctx) => {
      const q = parseAccountStreamRequest(ctx);
      if (!streams.admits(q)) throw new ApiError('SERVICE_UNAVAILABLE', 'Account stream capacity reached', { details: 'the service watches as many accounts and owners as it allows; retry later' });
      return {
        stream: {
          firstFrame: sseFrame('ready', { ts: Date.now(), accounts: q.accounts, owners: q.owners, commitment: q.commitment }),
          open: (client) => {
            // Key per account: a backpressured client keeps the latest state of each account.
            const sub = streams.subscribe(q, (u) => hub.send(client, `a:${u.pubkey}`, accountFrame(u, q.dataOffset, q.dataLength)));
            hub.onClose(client, () => sub.stop());
            void sub.applied.then(() => hub.send(client, 'subscribed', sseFrame('subscribed', { ts: Date.now() })));
          },
        },
      };
    },
  };
}
