import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import bs58 from 'bs58';
import { encodeKey32 } from './base58-key.js';

test('encodeKey32 spells every key as bs58 does: random keys, leading zero bytes, all zeros, all ones', () => {
  const keys: Uint8Array[] = [new Uint8Array(32), new Uint8Array(32).fill(0xff)];
  for (let i = 0; i < 5000; i++) {
    const k = new Uint8Array(createHash('sha256').update(`key:${i}`).digest());
    // Some keys start with zero bytes (1..31 of them): the leading '1's.
    if (i % 50 === 0) k.fill(0, 0, 1 + (i % 31));
    keys.push(k);
  }
  for (const k of keys) assert.equal(encodeKey32(k), bs58.encode(k));
});

test('encodeKey32 reads at an offset and refuses fewer than 32 bytes', () => {
  const buf = new Uint8Array(80);
  buf.set(createHash('sha256').update('x').digest(), 40);
  assert.equal(encodeKey32(buf, 40), bs58.encode(buf.subarray(40, 72)));
  assert.throws(() => encodeKey32(buf, 49), RangeError);
  assert.throws(() => encodeKey32(new Uint8Array(31)), RangeError);
});
