/**
 * Edge inputs of the shell (issue 10, defect 6), on a real uWS server over the fake price service: a blank or
 * non-ASCII `x-api-key` is 401 (never anonymous); the portfolio's 20-wallet cap is request validation for every
 * tier, internal included; a huge path (100 KB in the report) is neither echoed whole in the answer nor logged whole; and the admin API
 * answers 404 for a key id no key can have (2^31 and above) instead of a 500 from the store.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyService } from '../engine/keys/key-service.js';
import { createLimiters } from '../engine/limits/factory.js';
import { openStore } from '../engine/store/open.js';
import type { Store } from '../engine/store/types.js';
import { startAdminServer, type AdminServer } from './admin/admin-server.js';
import { keyAuth } from './auth.js';
import { reloadLogLevel } from './log.js';
import { quotaRateLimit } from './rate-limit.js';
import { createServer, type RunningServer } from './server.js';
import { FakePriceService } from './testing/fake-price-service.js';

process.env.LOG_LEVEL = 'warn';
reloadLogLevel();

const KEYS = new Map([
  ['free-key', { id: 1, tier: 'free' as const }],
  ['internal-key', { id: 2, tier: 'internal' as const }],
  ['starter-key', { id: 3, tier: 'starter' as const }],
]);
const WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

let server: RunningServer;
let base: string;
const limiters = createLimiters({});

/** Every line written to stderr while the test runs (the shell's JSON log). */
const logLines: string[] = [];
const realWrite = process.stderr.write.bind(process.stderr);

before(async () => {
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    logLines.push(String(chunk));
    return (realWrite as (c: string | Uint8Array, ...r: unknown[]) => boolean)(typeof chunk === 'string' && chunk.length > 2000 ? `${chunk.slice(0, 200)}...\n` : chunk, ...rest);
  }) as typeof process.stderr.write;
  server = await createServer({
    priceService: new FakePriceService(),
    port: 0,
    host: '127.0.0.1',
    auth: keyAuth((k) => KEYS.get(k) ?? null),
    rateLimit: quotaRateLimit({ limiter: limiters.window }),
    points: async () => null,
  });
  base = `http://127.0.0.1:${server.port}`;
});

after(async () => {
  await server.close();
  await limiters.close();
  process.stderr.write = realWrite;
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies are probed field by field
type Json = any;

async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; body: Json }> {
  const res = await fetch(base + path, { headers });
  const text = await res.text();
  let body: Json = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, text, body };
}

test('a blank or non-ASCII x-api-key is 401 on public and forensics routes, never anonymous', async () => {
  // Whitespace only; non-ASCII bytes only (uWS strips them as blanks); both mixed.
  for (const key of ['   ', '\t', '\u00e9\u00e9', ' \u00e9 ']) {
    for (const path of ['/v1/price/SOL', '/health', `/v1/forensics/token/${WALLET}/asset`]) {
      if (path === '/health') continue; // unmetered, no auth stage
      const r = await get(path, { 'x-api-key': key });
      assert.equal(r.status, 401, `${JSON.stringify(key)} on ${path}`);
      assert.equal(r.body.code, 'UNAUTHORIZED');
    }
  }
  // Blank ?apiKey= on a route that reads it is an invalid key too (403 would say "tier too low").
  const q = await get(`/v1/forensics/token/${WALLET}/asset?apiKey=%20`);
  assert.equal(q.status, 401);
  // No header at all stays anonymous on a public route; a non-ASCII key that keeps ASCII letters is unknown: 401.
  assert.equal((await get('/v1/price/SOL')).status, 200);
  assert.equal((await get('/v1/price/SOL', { 'x-api-key': 'k\u00e9y' })).status, 401);
});

test('the portfolio 20-wallet cap is a 400 for every tier, internal included, before the 501', async () => {
  const wallets = (n: number): string => Array.from({ length: n }, () => WALLET).join(',');
  for (const key of ['free-key', 'starter-key', 'internal-key']) {
    for (const path of ['/v1/portfolio/pnl', '/v1/stream/portfolio/pnl', `/v1/portfolio/pnl/${WALLET}`, `/v1/portfolio/value/${WALLET}`]) {
      const over = await get(`${path}?wallets=${wallets(21)}`, { 'x-api-key': key });
      assert.equal(over.status, 400, `${key} ${path}`);
      assert.equal(over.body.code, 'INVALID_REQUEST');
    }
  }
  const twenty = await get(`/v1/portfolio/pnl?wallets=${wallets(20)}`, { 'x-api-key': 'internal-key' });
  assert.equal(twenty.status, 501, '20 wallets pass validation (the route is not built yet)');
});

test('a huge path is neither echoed whole in the answer nor written whole to a log line', async () => {
  // 4,000 chars: far above the caps (256 in bodies, 512 per log field), below any request-line limit.
  const huge = 'A'.repeat(4000);
  logLines.length = 0;
  for (const [path, status] of [[`/v1/price/${huge}`, 400], [`/v1/pool/${huge}`, 501], [`/nope/${huge}`, 404]] as const) {
    const r = await get(path);
    assert.equal(r.status, status, path.slice(0, 12));
    assert.ok(r.text.length < 1024, `${path.slice(0, 12)}: body of ${r.text.length} chars`);
    assert.ok(r.body.error.length + (r.body.details?.length ?? 0) > 0);
  }
  assert.ok(logLines.some((l) => l.includes('"route":"pool.one"')), 'the 501 is logged as a warning');
  for (const l of logLines) assert.ok(l.length < 1500, `a log line of ${l.length} chars`);
});

let store: Store;
let admin: AdminServer;
let dataDir: string;

test('admin API: a key id of 2^31 or more is 404 UNKNOWN_KEY, a malformed id 400, never 500', async (t) => {
  dataDir = mkdtempSync(join(tmpdir(), 'edge-admin-'));
  store = await openStore({ dataDir: join(dataDir, 'pglite') });
  admin = await startAdminServer({ keys: new KeyService(store), token: 'admin-token-for-tests', host: '127.0.0.1', port: 0 });
  t.after(async () => {
    admin.close();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const post = async (path: string, body: unknown = {}): Promise<{ status: number; body: Json }> => {
    const res = await fetch(admin.url + path, { method: 'POST', headers: { authorization: 'Bearer admin-token-for-tests' }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };
  for (const id of ['2147483648', '4294967296', '99999999999999999999']) {
    const r = await post(`/admin/keys/${id}/revoke`);
    assert.equal(r.status, 404, id);
    assert.equal(r.body.code, 'UNKNOWN_KEY');
    assert.equal((await post(`/admin/keys/${id}/tier`, { tier: 'pro' })).status, 404, id);
  }
  assert.equal((await post('/admin/keys/2147483647/revoke')).status, 404, 'the largest id is a plain unknown key');
  for (const id of ['1e3', '0x10', '-1', '0']) assert.equal((await post(`/admin/keys/${id}/revoke`)).status, 400, id);
  const created = await post('/admin/keys', { tier: 'free' });
  assert.equal(created.status, 201);
  assert.equal((await post(`/admin/keys/${created.body.id}/revoke`)).status, 200);
});
