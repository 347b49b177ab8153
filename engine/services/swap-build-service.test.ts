import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Keypair } from '@solana/web3.js';
import { USDC_MINT, WSOL_MINT } from '../catalog/tokens.js';
import { MemoryQuoteStore } from '../quotes/memory-quote-store.js';
import { newQuoteId } from '../quotes/quote-store.js';
import { AttestationSigner } from '../tx/attestation-signer.js';
import type { RecentBlockhash } from '../tx/blockhash-cache.js';
import { beyondDrift, driftBps, SwapBuildService, type SwapBuildDeps } from './swap-build-service.js';
import type { SwapBuildRpc } from './swap-leg-state.js';

test('drift: positive when worse for the user (ExactIn less out, ExactOut more in); the bound is exact', () => {
  assert.equal(driftBps('ExactIn', 10_000n, 9_950n), 50);
  assert.equal(driftBps('ExactIn', 10_000n, 10_100n), -100);
  assert.equal(driftBps('ExactOut', 10_000n, 10_050n), 50);
  assert.equal(beyondDrift('ExactIn', 10_000n, 9_950n, 50), false, 'exactly the bound is within it');
  assert.equal(beyondDrift('ExactIn', 10_000n, 9_949n, 50), true);
  assert.equal(beyondDrift('ExactIn', 3n, 2n, 3333), true, '1/3 is 3333.33 bps: over 3333');
  assert.equal(beyondDrift('ExactOut', 10_000n, 10_051n, 50), true);
  assert.equal(beyondDrift('ExactOut', 10_000n, 9_000n, 0), false, 'better is never beyond');
});

const signer = new AttestationSigner({ seed: new Uint8Array(32).fill(1), publicKey: new Uint8Array(32) });
const user = Keypair.generate().publicKey.toBase58();
const pool = Keypair.generate().publicKey.toBase58();

function payload(): string {
  const hop = { dex: 'raydium-cpmm', poolAddress: pool, inputMint: WSOL_MINT, outputMint: USDC_MINT, inAmount: '1000', outAmount: '150' };
  return JSON.stringify({ swapMode: 'ExactIn', slippageBps: 50, otherAmountThreshold: '149', contextSlot: 1, amount: '1000', route: { inAmount: '1000', outputAmount: '150', hops: [hop] } });
}

function service(over: Partial<Omit<SwapBuildDeps, 'blockhash'>> & { blockhash?: RecentBlockhash | null } = {}): { svc: SwapBuildService; store: MemoryQuoteStore } {
  const store = new MemoryQuoteStore();
  const hash = over.blockhash === undefined ? { blockhash: Keypair.generate().publicKey.toBase58(), lastValidBlockHeight: 9 } : over.blockhash;
  const rpc: SwapBuildRpc = over.rpc ?? { call: async () => Promise.reject(new Error('no node')) };
  const svc = new SwapBuildService({ store, rpc, blockhash: { current: () => hash }, signer, ...(over.now ? { now: over.now } : {}) });
  return { svc, store };
}

const request = (quoteId: string) => ({ quoteId, userPublicKey: user, wrapAndUnwrapSol: true, simulate: false });

test('no blockhash yet: 503 BLOCKHASH_UNAVAILABLE before the quote is taken (it stays buildable)', async () => {
  const { svc, store } = service({ blockhash: null });
  const id = newQuoteId();
  await store.put({ quoteId: id, expiresAtMs: Date.now() + 30_000, payload: payload() });
  const r = await svc.build(request(id));
  assert.deepEqual([r.ok, !r.ok && r.code], [false, 'BLOCKHASH_UNAVAILABLE']);
  assert.equal((await store.take(id, Date.now())).status, 'ok', 'the quote was not spent');
});

test('unknown, consumed and expired quote ids', async () => {
  let now = 1000;
  const { svc, store } = service({ now: () => now });
  const unknown = await svc.build(request(newQuoteId()));
  assert.equal(!unknown.ok && unknown.code, 'QUOTE_NOT_FOUND');
  const id = newQuoteId();
  await store.put({ quoteId: id, expiresAtMs: 2000, payload: payload() });
  now = 2001;
  const expired = await svc.build(request(id));
  assert.equal(!expired.ok && expired.code, 'QUOTE_EXPIRED');
});

test('the node failing the pool reads: 503 SERVICE_UNAVAILABLE, and the quote id is spent', async () => {
  const { svc, store } = service();
  const id = newQuoteId();
  await store.put({ quoteId: id, expiresAtMs: Date.now() + 30_000, payload: payload() });
  const r = await svc.build(request(id));
  assert.equal(!r.ok && r.code, 'SERVICE_UNAVAILABLE');
  const again = await svc.build(request(id));
  assert.equal(!again.ok && again.code, 'QUOTE_NOT_FOUND');
});

test('a pool that is no longer the DEX\'s: 409 QUOTE_MOVED with the four fields, current output 0', async () => {
  const foreign = Keypair.generate().publicKey.toBase58();
  const rpc: SwapBuildRpc = {
    call: async <T>(method: string, params: unknown[]): Promise<T> => {
      assert.equal(method, 'getMultipleAccounts');
      const keys = params[0] as string[];
      return { value: keys.map(() => ({ owner: foreign, data: ['', 'base64'] })) } as T;
    },
  };
  const { svc, store } = service({ rpc });
  const id = newQuoteId();
  await store.put({ quoteId: id, expiresAtMs: Date.now() + 30_000, payload: payload() });
  const r = await svc.build({ ...request(id), maxDriftBps: 70 });
  assert.ok(!r.ok);
  assert.equal(r.code, 'QUOTE_MOVED');
  assert.deepEqual(r.extra, { displayedOutput: '150', currentOutput: '0', driftBps: 10_000, maxDriftBps: 70 });
});

test('pool reads are pinned to the quote\'s slot; a node behind it is asked again, then the build is 503', async () => {
  const { EngineError } = await import('../errors.js');
  const asked: { method: string; minContextSlot: unknown }[] = [];
  let behind = 2;
  // A node (outside the service) that is behind the quote's slot for the first reads, then answers no pool.
  const rpc: SwapBuildRpc = {
    call: async <T>(method: string, params: unknown[]): Promise<T> => {
      asked.push({ method, minContextSlot: (params.at(-1) as { minContextSlot?: unknown }).minContextSlot });
      if (behind-- > 0) throw new EngineError('RPC_ERROR', 'RPC getMultipleAccounts: Minimum context slot has not been reached', { code: -32016 });
      return { value: [null, null, null, null] } as T;
    },
  };
  const { svc, store } = service({ rpc });
  const id = newQuoteId();
  await store.put({ quoteId: id, expiresAtMs: Date.now() + 30_000, payload: payload() });
  const r = await svc.build(request(id));
  assert.deepEqual(asked.map((a) => [a.method, a.minContextSlot]), [['getMultipleAccounts', 1], ['getMultipleAccounts', 1], ['getMultipleAccounts', 1]], 'two waits for the node, then its answer');
  assert.equal(!r.ok && r.code, 'QUOTE_MOVED', 'the pool no longer reads: the route moved');
  // A node that stays behind: the build gives up with 503 (retryable), not a wrong re-quote.
  behind = 100;
  asked.length = 0;
  const id2 = newQuoteId();
  await store.put({ quoteId: id2, expiresAtMs: Date.now() + 30_000, payload: payload() });
  const r2 = await svc.build(request(id2));
  assert.equal(!r2.ok && r2.code, 'SERVICE_UNAVAILABLE');
  assert.equal(asked.length, 5, 'five tries');
});
