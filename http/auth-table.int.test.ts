/**
 * The authentication table: every route of the interface (held against the spec's text both ways), called with
 * no key, a bad key, and a key of each tier in the header and in `?apiKey=`, on the real service over the
 * localnet. Unbuilt routes answer 501 after auth, tier and quota stages; built ones their real status.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { USDC_MINT } from '../engine/catalog/tokens.js';
import type { Tier } from '../engine/tiers/tier.js';
import { projectRoot } from './project-root.js';
import { startServiceUnderTest, type ServiceUnderTest } from './testing/service-under-test.js';

type Auth = 'none' | 'key' | 'forensics';
interface Row {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly pattern: string;
  readonly auth: Auth;
  /** `?apiKey=` accepted. */
  readonly query: boolean;
  /** Status of an authorised call; 501 while not built. */
  readonly ok: (tier: Tier) => number;
  readonly stream?: boolean;
}

const NB = (): number => 501;
const R = (method: Row['method'], pattern: string, auth: Auth, query: boolean, ok: Row['ok'] = NB, stream = false): Row => ({
  method,
  pattern,
  auth,
  query,
  ok,
  stream,
});

/** The interface: auth per the spec's Authentication section (portfolio accepts ?apiKey= per its Caching rule). */
const TABLE: readonly Row[] = [
  R('GET', '/health', 'none', false, () => 200),
  R('GET', '/v1/price/:token', 'none', false, () => 200),
  R('GET', '/v1/prices', 'none', false, () => 200),
  // Built: listings of every pool, SOL's, and SOL/USDC's.
  R('GET', '/v1/pools', 'none', false, () => 200),
  R('GET', '/v1/pools/:token', 'none', false, () => 200),
  R('GET', '/v1/pools/:tokenA/:tokenB', 'none', false, () => 200),
  R('GET', '/v1/pools/new', 'none', false, () => 200),
  R('GET', '/v1/pools/seed', 'none', false, () => 200),
  R('GET', '/v1/pools/dead', 'none', false, () => 200),
  // Built: the sample address is a wallet, not an indexed pool.
  R('GET', '/v1/pool/:address', 'none', false, () => 404),
  R('GET', '/v1/search', 'none', false, () => 200),
  R('GET', '/v1/tokens', 'none', false, () => 200),
  R('GET', '/v1/token/:mint', 'none', false, () => 200),
  R('GET', '/v1/tokens/:mint', 'key', false),
  R('GET', '/v1/tokens/:mint/logo', 'none', false),
  R('GET', '/v1/forensics/token/:mint/asset', 'forensics', true),
  R('GET', '/v1/forensics/token/:mint/holders', 'forensics', true),
  R('GET', '/v1/forensics/token/:mint/scan', 'forensics', true),
  R('GET', '/v1/forensics/address/:address/transactions', 'forensics', true),
  R('GET', '/v1/forensics/address/:address/first-funder', 'forensics', true),
  R('GET', '/v1/history/balance', 'key', false),
  R('GET', '/v1/stream/balance-history', 'key', true, NB, true),
  R('GET', '/v1/portfolio/pnl/:walletAddress', 'key', true),
  R('GET', '/v1/portfolio/pnl', 'key', true),
  R('GET', '/v1/stream/portfolio/pnl', 'key', true, NB, true),
  R('GET', '/v1/portfolio/value/:walletAddress', 'key', true),
  R('GET', '/v1/balances', 'key', false),
  // Built: the sample signature is well-formed and unknown to the localnet: 200 not_found.
  R('GET', '/v1/tx/:signature', 'key', false, () => 200),
  // Built: an authorised connect with a valid pair opens the stream (its first frame is the quote).
  R('GET', '/v1/quote/stream', 'key', true, () => 200, true),
  R('GET', '/v1/stream/prices', 'key', true, () => 200, true),
  R('GET', '/v1/stream/pools', 'key', true, () => 200, true),
  R('GET', '/v1/stream/accounts', 'key', true, () => 200, true),
  // Built: the key's own submissions (no signatures= needed).
  R('GET', '/v1/stream/tx', 'key', true, () => 200, true),
  R('POST', '/v1/webhooks', 'key', false),
  R('POST', '/v1/webhooks/:id/track-tx', 'key', false),
  R('POST', '/v1/webhooks/:id/track-address', 'key', false),
  R('GET', '/v1/webhooks/:id/addresses', 'key', false),
  R('DELETE', '/v1/webhooks/:id/addresses/:addressId', 'key', false),
  R('PATCH', '/v1/webhooks/:id', 'key', false),
  R('GET', '/v1/points/me', 'key', false, (t) => (t === 'internal' ? 404 : 200)),
  R('GET', '/v1/venum/circulating-supply', 'none', false),
  R('GET', '/v1/venum/total-supply', 'none', false),
  R('GET', '/v1/venum/max-supply', 'none', false),
  R('GET', '/v1/venum/market-cap', 'none', false),
  R('GET', '/v1/venum/fdv', 'none', false),
  R('GET', '/v1/attestation/pubkey', 'none', false, () => 200),
  // Built: an authorised call with the table's `{}` body is refused as a malformed quote request.
  R('POST', '/v1/quote', 'key', false, () => 400),
  // Built: an authorised call with the table's `{}` body is refused (no quoteId).
  R('POST', '/v1/swap/build', 'key', false, () => 400),
  // Built: an authorised call with the table's `{}` body is refused (no transaction), bundles configured or not.
  R('POST', '/v1/swap', 'key', false, () => 400),
  // Built: an authorised call with the table's `{}` body is refused (no transaction).
  R('POST', '/v1/send', 'key', false, () => 400),
];

const WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const SAMPLE: Readonly<Record<string, string>> = {
  token: 'SOL',
  tokenA: 'SOL',
  tokenB: 'USDC',
  mint: USDC_MINT,
  address: WALLET,
  walletAddress: WALLET,
  signature: '5'.repeat(87),
  id: '1',
  addressId: '1',
};
const QUERY: Readonly<Record<string, string>> = {
  '/v1/prices': 'tokens=SOL',
  '/v1/search': 'q=SOL',
  '/v1/stream/prices': 'tokens=SOL',
  '/v1/quote/stream': 'inputMint=SOL&outputMint=USDC&amount=1000000',
  '/v1/portfolio/pnl': `wallets=${WALLET}`,
  '/v1/stream/portfolio/pnl': `wallets=${WALLET}`,
  '/v1/stream/accounts': `accounts=${WALLET}`,
};

test('the table holds every route the spec names, and only those', () => {
  const spec = readFileSync(join(projectRoot(import.meta.url), '../shared/spec/service-interface.md'), 'utf8');
  const named = new Set<string>();
  for (const m of spec.matchAll(/\b(GET|POST|PATCH|DELETE) (\/[^\s*`|,;)?]+)/g)) named.add(`${m[1]} ${m[2]!.replace(/\.$/, '')}`);
  // The supply routes are listed after one GET: "**GET /v1/venum/circulating-supply**, **/v1/venum/total-supply**, ...".
  for (const m of spec.matchAll(/\*\*(\/v1\/venum\/[a-z-]+)\*\*/g)) named.add(`GET ${m[1]}`);
  const ours = new Set(TABLE.map((r) => `${r.method} ${r.pattern}`));
  assert.deepEqual([...named].filter((n) => !ours.has(n)), [], 'spec routes missing from the table');
  assert.deepEqual([...ours].filter((n) => !named.has(n)), [], 'table routes the spec does not name');
});

let sut: ServiceUnderTest;
const TIERS: readonly Tier[] = ['free', 'starter', 'growth', 'pro', 'internal'];
/** One fresh key per (tier, form), so stream slots and quotas of one caller never affect another. */
const keys = new Map<string, string>();

before(async () => {
  sut = await startServiceUnderTest();
  for (const t of TIERS) for (const via of ['header', 'query']) keys.set(`${t}/${via}`, (await sut.svc.keys.create({ tier: t })).key);
});
after(async () => sut?.stop());

function pathOf(r: Row): string {
  return r.pattern.replace(/:([A-Za-z]+)/g, (_, p: string) => encodeURIComponent(SAMPLE[p]!));
}

async function call(r: Row, via: 'none' | 'header' | 'query', key = ''): Promise<{ status: number; body: string }> {
  const q = new URLSearchParams(QUERY[r.pattern] ?? '');
  const headers: Record<string, string> = {};
  if (via === 'header') headers['x-api-key'] = key;
  if (via === 'query') q.set('apiKey', key);
  const qs = q.toString();
  const ac = new AbortController();
  const body = r.method === 'POST' || r.method === 'PATCH' ? '{}' : undefined;
  if (body) headers['content-type'] = 'application/json';
  const res = await fetch(`${sut.base}${pathOf(r)}${qs ? `?${qs}` : ''}`, { method: r.method, headers, body, signal: ac.signal });
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    ac.abort();
    return { status: res.status, body: '' };
  }
  return { status: res.status, body: await res.text() };
}

/** What the spec says the caller gets. */
function expected(r: Row, via: 'none' | 'header' | 'query', tier: Tier | 'bad'): number {
  const presented = via === 'header' || (via === 'query' && r.query);
  if (!presented) return r.auth === 'forensics' ? 403 : r.auth === 'key' ? 401 : r.ok('anonymous');
  if (tier === 'bad') return 401;
  if (r.auth === 'forensics' && (tier === 'free' || tier === 'anonymous')) return 403;
  return r.ok(tier);
}

test('every route, every caller: status as the spec says', async () => {
  const failures: string[] = [];
  const check = async (r: Row, via: 'none' | 'header' | 'query', tier: Tier | 'bad', key: string): Promise<void> => {
    const want = expected(r, via, tier);
    const got = await call(r, via, key);
    if (got.status !== want) failures.push(`${r.method} ${r.pattern} via ${via} as ${tier}: ${got.status} (want ${want}) ${got.body.slice(0, 120)}`);
    if (got.status === 403 && JSON.stringify(Object.keys(JSON.parse(got.body) as object)) !== '["error"]') failures.push(`${r.pattern}: 403 body is not { error }`);
    if (got.status === 401 && (JSON.parse(got.body) as { code?: string }).code !== 'UNAUTHORIZED') failures.push(`${r.pattern}: 401 without code`);
  };
  for (const r of TABLE) {
    await check(r, 'none', 'anonymous', '');
    await check(r, 'header', 'bad', 'svc_not_a_key');
    await check(r, 'query', 'bad', 'svc_not_a_key');
    for (const t of TIERS) {
      await check(r, 'header', t, keys.get(`${t}/header`)!);
      await check(r, 'query', t, keys.get(`${t}/query`)!);
    }
  }
  assert.deepEqual(failures, []);
});

test('an unknown route is 404 ROUTE_NOT_FOUND, and the spec routes are all mounted', async () => {
  const res = await fetch(`${sut.base}/v1/nope`);
  assert.equal(res.status, 404);
  assert.equal(((await res.json()) as { code: string }).code, 'ROUTE_NOT_FOUND');
});
