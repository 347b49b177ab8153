/**
 * The build's two time-bound refusals through HTTP on the localnet: 503 BLOCKHASH_UNAVAILABLE (with Retry-After)
 * while the node gives no blockhash, the quote id still buildable once it does; and 410 QUOTE_EXPIRED for a quote
 * built after its 30 s.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Keypair } from '@solana/web3.js';
import { QUOTE_TTL_MS } from '../engine/quotes/quote-store.js';
import { startLocalnet, type Localnet } from '../fixtures/localnet/start-localnet.js';
import { startServiceUnderTest, TEST_DEMO_KEY, type ServiceUnderTest } from './testing/service-under-test.js';
import { eventually } from './testing/wait.js';

let net: Localnet;
let sut: ServiceUnderTest;
const user = Keypair.generate().publicKey.toBase58();

before(async () => {
  net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 100 });
  // The node refuses every getLatestBlockhash until the test clears it: the build never holds a blockhash.
  net.rpc.failNext(1_000_000, 503, ['getLatestBlockhash']);
  sut = await startServiceUnderTest({ RATE_QUOTA_SCALE: '100' }, net);
});
after(async () => {
  await sut?.stop();
  await net?.stop();
});

async function post(path: string, body: unknown): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const res = await fetch(`${sut.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': TEST_DEMO_KEY }, body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

async function quoteId(): Promise<string> {
  const q = await post('/v1/quote', { inputMint: 'SOL', outputMint: 'USDC', amount: '100000000', onlyDirectRoutes: true });
  assert.equal(q.status, 200, JSON.stringify(q.body));
  return q.body.quoteId as string;
}

test('no blockhash from the node: 503 BLOCKHASH_UNAVAILABLE with Retry-After; the same quote id builds once the node answers', async () => {
  const id = await quoteId();
  const r = await post('/v1/swap/build', { quoteId: id, userPublicKey: user });
  assert.deepEqual([r.status, r.body.code], [503, 'BLOCKHASH_UNAVAILABLE'], JSON.stringify(r.body));
  assert.ok(Number(r.headers.get('retry-after')) >= 1);
  net.rpc.failNext(0, 503, ['getLatestBlockhash']);
  await eventually(async () => {
    const ok = await post('/v1/swap/build', { quoteId: id, userPublicKey: user });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.quoteId, id);
  }, 10_000, 200);
});

test('a quote built after its 30 s: 410 QUOTE_EXPIRED', { timeout: 60_000 }, async () => {
  const id = await quoteId();
  await new Promise((r) => setTimeout(r, QUOTE_TTL_MS + 500));
  const r = await post('/v1/swap/build', { quoteId: id, userPublicKey: user });
  assert.deepEqual([r.status, r.body.code], [410, 'QUOTE_EXPIRED'], JSON.stringify(r.body));
});
