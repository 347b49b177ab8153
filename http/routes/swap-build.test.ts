import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../errors.js';
import { parseSwapBuildRequest } from './swap-build.js';

const USER = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const ID = `q_${'a1'.repeat(16)}`;
const parse = (v: unknown) => parseSwapBuildRequest(Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)));

test('defaults: wrapAndUnwrapSol true, simulate false, no drift bound, no priority fee', () => {
  assert.deepEqual(parse({ quoteId: ID, userPublicKey: USER }), {
    request: { quoteId: ID, userPublicKey: USER, wrapAndUnwrapSol: true, simulate: false },
    wellFormedId: true,
  });
});

test('every field given', () => {
  const r = parse({ quoteId: ID, userPublicKey: USER, maxDriftBps: 0, wrapAndUnwrapSol: false, computeUnitPriceMicroLamports: '18446744073709551615', simulate: true });
  assert.deepEqual(r.request, { quoteId: ID, userPublicKey: USER, maxDriftBps: 0, wrapAndUnwrapSol: false, computeUnitPriceMicroLamports: 2n ** 64n - 1n, simulate: true });
  assert.equal(parse({ quoteId: ID, userPublicKey: USER, computeUnitPriceMicroLamports: 1000 }).request.computeUnitPriceMicroLamports, 1000n);
});

test('a quote id of another form parses (the route answers 404 without asking the store)', () => {
  assert.equal(parse({ quoteId: 'q_XYZ', userPublicKey: USER }).wellFormedId, false);
});

test('malformed requests are 400 INVALID_REQUEST naming the field', () => {
  const cases: [unknown, string][] = [
    ['', 'body'],
    ['{', 'body'],
    [[1], 'body'],
    [{}, 'quoteId'],
    [{ quoteId: 5, userPublicKey: USER }, 'quoteId'],
    [{ quoteId: ID }, 'userPublicKey'],
    [{ quoteId: ID, userPublicKey: 'not-base58!' }, 'userPublicKey'],
    [{ quoteId: ID, userPublicKey: '1111' }, 'userPublicKey'],
    [{ quoteId: ID, userPublicKey: USER, maxDriftBps: 10_001 }, 'maxDriftBps'],
    [{ quoteId: ID, userPublicKey: USER, maxDriftBps: 1.5 }, 'maxDriftBps'],
    [{ quoteId: ID, userPublicKey: USER, maxDriftBps: '50' }, 'maxDriftBps'],
    [{ quoteId: ID, userPublicKey: USER, computeUnitPriceMicroLamports: -1 }, 'computeUnitPriceMicroLamports'],
    [{ quoteId: ID, userPublicKey: USER, computeUnitPriceMicroLamports: '18446744073709551616' }, 'computeUnitPriceMicroLamports'],
    [{ quoteId: ID, userPublicKey: USER, wrapAndUnwrapSol: 'no' }, 'wrapAndUnwrapSol'],
    [{ quoteId: ID, userPublicKey: USER, simulate: 1 }, 'simulate'],
  ];
  for (const [body, field] of cases) {
    assert.throws(
      () => (body === '' ? parseSwapBuildRequest(null) : parse(body)),
      (e: unknown) => e instanceof ApiError && e.code === 'INVALID_REQUEST' && e.message === `Invalid ${field}`,
      JSON.stringify(body),
    );
  }
});
