import assert from 'node:assert/strict';
import { test } from 'node:test';
import bs58 from 'bs58';
import { Keypair } from '@solana/web3.js';
import { pubkeyAt } from './pubkey-text.js';

test('memoized base58 equals bs58 at any offset, for repeated and fresh keys, and for short input', () => {
  const keys = Array.from({ length: 50 }, () => Keypair.generate().publicKey.toBytes());
  for (let round = 0; round < 3; round++) {
    for (const k of keys) {
      const padded = new Uint8Array(40);
      padded.set(k, 5);
      assert.equal(pubkeyAt(k, 0), bs58.encode(k));
      assert.equal(pubkeyAt(padded, 5), bs58.encode(k));
      // The memo is keyed by content: a buffer reused with other bytes is not answered from the memo.
      padded.fill(7, 5, 37);
      assert.equal(pubkeyAt(padded, 5), bs58.encode(padded.subarray(5, 37)));
    }
  }
  assert.equal(pubkeyAt(new Uint8Array([1, 2, 3]), 0), bs58.encode(new Uint8Array([1, 2, 3])));
});
