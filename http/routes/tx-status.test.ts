import assert from 'node:assert/strict';
import { test } from 'node:test';
import bs58 from 'bs58';
import { TxStatusService } from '../../engine/services/tx-status-service.js';
import { ApiError } from '../errors.js';
import { createRequestContext, type Reply } from '../request-context.js';
import { isSignature, txStatusRoute } from './tx-status.js';

const SIG = bs58.encode(new Uint8Array(64).fill(3));

test('signatures: base58 of 64 bytes only', () => {
  assert.equal(isSignature(SIG), true);
  assert.equal(isSignature(bs58.encode(new Uint8Array(32).fill(3))), false);
  assert.equal(isSignature('0'.repeat(88)), false);
  assert.equal(isSignature(''), false);
});

test('GET /v1/tx/:signature: 400 on a malformed signature, 200 not_found, 502 with Retry-After when the node fails', async () => {
  // The node is outside the service: a scripted one answers here (the localnet test covers the real node).
  let answer: () => Promise<unknown> = async () => ({ value: [null] });
  const route = txStatusRoute(new TxStatusService({ call: <T>() => answer() as Promise<T> }));
  const ask = (signature: string): Promise<Reply> => route.handler(createRequestContext({ path: `/v1/tx/${signature}`, params: { signature } })) as Promise<Reply>;
  await assert.rejects(ask('nope'), (e: unknown) => e instanceof ApiError && e.code === 'INVALID_REQUEST');
  const nf = await ask(SIG);
  assert.equal(nf.status, 200);
  assert.equal((nf.body as { status: string }).status, 'not_found');
  answer = async () => { throw new Error('connect ECONNREFUSED'); };
  const err = await ask(SIG);
  assert.equal(err.status, 502);
  assert.equal(err.headers?.['retry-after'], '1');
  assert.deepEqual(err.body, { signature: SIG, status: 'error', reason: 'getSignatureStatuses failed: connect ECONNREFUSED' });
  // Landed at processed only: not_found (it can still be dropped with its fork).
  answer = async () => ({ value: [{ slot: 7, confirmations: 0, err: null, confirmationStatus: 'processed' }] });
  const p = await ask(SIG);
  assert.equal((p.body as { status: string }).status, 'not_found');
  assert.match((p.body as { reason: string }).reason, /processed/);
});
