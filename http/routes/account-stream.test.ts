/**
 * The account stream's request parsing (lists deduplicated, caps, pubkeys, commitment, the data slice) and its
 * event payload (the data cut as Solana's dataSlice: past the end is empty, `dataSize` the full length).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Keypair } from '@solana/web3.js';
import { ApiError } from '../errors.js';
import { createRequestContext } from '../request-context.js';
import { accountEvent, MAX_STREAM_DATA_BYTES, parseAccountStreamRequest } from './account-stream.js';

const K = (): string => Keypair.generate().publicKey.toBase58();
const parse = (q: string): ReturnType<typeof parseAccountStreamRequest> => parseAccountStreamRequest(createRequestContext({ path: '/v1/stream/accounts', rawQuery: q }));
const refused = (q: string): void => {
  assert.throws(() => parse(q), (e: unknown) => e instanceof ApiError && e.code === 'INVALID_REQUEST', q.slice(0, 60));
};

test('parsing: lists, caps, pubkeys, commitment, slice', () => {
  const a = K();
  const o = K();
  assert.deepEqual(parse(`accounts=${a},${a}, ${a}&owners=${o}`), { accounts: [a], owners: [o], commitment: 'processed', dataOffset: 0, dataLength: MAX_STREAM_DATA_BYTES });
  assert.equal(parse(`owners=${o}&commitment=confirmed&dataOffset=8&dataLength=0`).commitment, 'confirmed');
  assert.equal(parse(`owners=${o}&dataOffset=8&dataLength=0`).dataLength, 0);
  assert.equal(parse(`accounts=${Array.from({ length: 100 }, K).join(',')}`).accounts.length, 100);
  assert.equal(parse(`owners=${Array.from({ length: 10 }, K).join(',')}`).owners.length, 10);
  refused('');
  refused('accounts=');
  refused(`accounts=${Array.from({ length: 101 }, K).join(',')}`);
  refused(`owners=${Array.from({ length: 11 }, K).join(',')}`);
  refused(`accounts=${a}0`);
  refused('owners=11111111111111111111111111111111O');
  refused(`owners=${o}&commitment=finalized`);
  refused(`owners=${o}&dataLength=65537`);
  refused(`owners=${o}&dataOffset=1.5`);
  refused(`owners=${o}&dataOffset=-1`);
  refused(`owners=${o}&dataOffset=${10 * 1024 * 1024 + 1}`);
});

test('the event: data sliced, sizes and u64s as strings', () => {
  const bytes = Uint8Array.from({ length: 10 }, (_, i) => i);
  const u = { pubkey: 'P', owner: 'O', data: bytes.subarray(0, 10), lamports: '18446744073709551615', slot: 5, writeVersion: '9', executable: false, rentEpoch: '0', txnSignature: undefined };
  const full = accountEvent(u, 0, MAX_STREAM_DATA_BYTES);
  assert.deepEqual(full, { pubkey: 'P', owner: 'O', data: Buffer.from(bytes).toString('base64'), dataSize: 10, lamports: '18446744073709551615', slot: 5, writeVersion: '9', executable: false, rentEpoch: '0', txnSignature: null });
  assert.equal(accountEvent(u, 2, 3).data, Buffer.from([2, 3, 4]).toString('base64'));
  assert.equal(accountEvent(u, 8, 100).data, Buffer.from([8, 9]).toString('base64'));
  assert.equal(accountEvent(u, 50, 4).data, '', 'past the end: empty');
  // A view into a larger buffer is cut from its own start.
  const big = new Uint8Array(32).fill(7);
  big.set([1, 2, 3], 16);
  assert.equal(accountEvent({ ...u, data: big.subarray(16, 19) }, 1, 5).data, Buffer.from([2, 3]).toString('base64'));
});
