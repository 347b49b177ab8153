import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEX_IDS } from '../../engine/dex-ids.js';
import { ApiError } from '../errors.js';
import { FAKE_MINTS, FakePriceService } from '../testing/fake-price-service.js';
import { parseQuoteRequest, rawFromBody, rawFromQuery, STREAM_DEFAULT_SLIPPAGE_BPS, type RawQuoteRequest } from './quote-request.js';

const svc = new FakePriceService();
const ctx = { resolve: (s: string) => svc.resolve(s), dexIds: DEX_IDS };

function rejects(raw: RawQuoteRequest, field: string, detail: RegExp): void {
  assert.throws(
    () => parseQuoteRequest(raw, ctx),
    (e: unknown) => e instanceof ApiError && e.code === 'INVALID_REQUEST' && e.message === `Invalid ${field}` && detail.test(e.details ?? ''),
    `${JSON.stringify(raw)} -> ${field}`,
  );
}

const BASE = { inputMint: 'SOL', outputMint: FAKE_MINTS.USDC, amount: '1000000000' };

test('defaults: ExactIn, 50 bps, 3 hops, every DEX, liquid intermediates, no account bound', () => {
  const q = parseQuoteRequest(BASE, ctx);
  assert.equal(q.input.mint, FAKE_MINTS.SOL);
  assert.equal(q.output.token, 'USDC');
  assert.equal(q.amount, 1_000_000_000n);
  assert.deepEqual(
    { s: q.slippageBps, m: q.swapMode, h: q.maxHops, d: q.dexes, x: q.excludeDexes, r: q.restrictIntermediateTokens, a: q.maxAccounts, o: q.onlyDirectRoutes },
    { s: 50, m: 'ExactIn', h: 3, d: [], x: [], r: true, a: null, o: false },
  );
  assert.equal(parseQuoteRequest(BASE, { ...ctx, defaultSlippageBps: STREAM_DEFAULT_SLIPPAGE_BPS }).slippageBps, 100);
});

test('every field, from a JSON body and from a query string alike', () => {
  const fields = { ...BASE, inputMint: 'btc', amount: '18446744073709551615', slippageBps: 5000, swapMode: 'ExactOut', maxHops: 2, dexes: ['raydium-cpmm', 'pumpswap'], excludeDexes: ['pumpswap'], restrictIntermediateTokens: false, maxAccounts: 40 };
  const fromBody = parseQuoteRequest(rawFromBody(Buffer.from(JSON.stringify(fields))), ctx);
  const query = new URLSearchParams({ ...fields, slippageBps: '5000', maxHops: '2', dexes: 'raydium-cpmm, pumpswap', excludeDexes: 'pumpswap', restrictIntermediateTokens: 'false', maxAccounts: '40' });
  const fromQuery = parseQuoteRequest(rawFromQuery(query), ctx);
  for (const q of [fromBody, fromQuery]) {
    assert.equal(q.input.mint, FAKE_MINTS.WBTC, 'the BTC alias');
    assert.equal(q.amount, 2n ** 64n - 1n);
    assert.deepEqual([q.slippageBps, q.swapMode, q.maxHops, q.dexes, q.excludeDexes, q.restrictIntermediateTokens, q.maxAccounts], [5000, 'ExactOut', 2, ['raydium-cpmm', 'pumpswap'], ['pumpswap'], false, 40]);
  }
  assert.equal(parseQuoteRequest({ ...BASE, onlyDirectRoutes: true, maxHops: 3 }, ctx).maxHops, 1, 'direct routes only');
  assert.equal(parseQuoteRequest({ ...BASE, amount: 5 }, ctx).amount, 5n, 'a small JSON number is exact');
});

test('each malformed field is a 400 naming it', () => {
  rejects({ outputMint: 'USDC', amount: '1' }, 'inputMint', /required/);
  rejects({ ...BASE, outputMint: 'NOPE' }, 'outputMint', /neither a known symbol nor a base58 mint/);
  rejects({ ...BASE, outputMint: 42 }, 'outputMint', /mint address or a symbol/);
  rejects({ ...BASE, outputMint: 'sol' }, 'outputMint', /same token/);
  rejects({ ...BASE, amount: undefined }, 'amount', /required/);
  for (const a of ['0', '-1', '1.5', '1e9', ' 12', '0x10', 'abc']) rejects({ ...BASE, amount: a }, 'amount', /positive/);
  rejects({ ...BASE, amount: 2 ** 60 }, 'amount', /integer string/);
  rejects({ ...BASE, amount: '18446744073709551616' }, 'amount', /exceeds u64/);
  for (const s of [0, 5001, 1.5, '10bps', -3]) rejects({ ...BASE, slippageBps: s }, 'slippageBps', /\[1, 5000\]/);
  rejects({ ...BASE, swapMode: 'exactIn' }, 'swapMode', /ExactIn or ExactOut/);
  for (const h of [0, 4, '2.0']) rejects({ ...BASE, maxHops: h }, 'maxHops', /\[1, 3\]/);
  rejects({ ...BASE, onlyDirectRoutes: 'yes' }, 'onlyDirectRoutes', /true or false/);
  rejects({ ...BASE, dexes: ['raydium-cpmm', 'uniswap'] }, 'dexes', /unknown DEX id\(s\) uniswap/);
  rejects({ ...BASE, dexes: [1] }, 'dexes', /list of DEX ids/);
  rejects({ ...BASE, dexes: ['pumpswap'], excludeDexes: 'pumpswap' }, 'excludeDexes', /removes every DEX/);
  for (const a of [0, 7, 257, -8, 64.5, '1e2', 'many', true]) rejects({ ...BASE, maxAccounts: a }, 'maxAccounts', /\[8, 256\]/);
});

test('maxAccounts: 8 and 256 are the bounds, from a JSON body and a query string alike; past them a 400', () => {
  for (const a of [8, 64, 256]) {
    assert.equal(parseQuoteRequest({ ...BASE, maxAccounts: a }, ctx).maxAccounts, a);
    assert.equal(parseQuoteRequest(rawFromQuery(new URLSearchParams({ ...BASE, maxAccounts: String(a) })), ctx).maxAccounts, a);
  }
  for (const a of ['7', '257', '0', ' ', '16.0']) rejects(rawFromQuery(new URLSearchParams({ ...BASE, maxAccounts: a })), 'maxAccounts', /\[8, 256\]/);
  assert.equal(parseQuoteRequest(rawFromQuery(new URLSearchParams({ ...BASE, maxAccounts: '' })), ctx).maxAccounts, null, 'an empty parameter is no bound');
  rejects(rawFromBody(Buffer.from(JSON.stringify({ ...BASE, maxAccounts: '300' }))), 'maxAccounts', /\[8, 256\]/);
});

test('bodies that are not one JSON object, and repeated query parameters, are 400s', () => {
  for (const b of [null, Buffer.alloc(0), Buffer.from('{'), Buffer.from('[1]'), Buffer.from('"x"'), Buffer.from('null')]) {
    assert.throws(() => rawFromBody(b), (e: unknown) => e instanceof ApiError && e.code === 'INVALID_REQUEST' && e.message === 'Invalid body');
  }
  assert.throws(() => rawFromQuery(new URLSearchParams('amount=1&amount=2')), (e: unknown) => e instanceof ApiError && /more than once/.test(e.details ?? ''));
});
