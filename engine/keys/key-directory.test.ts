import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiKeyRecord } from '../store/types.js';
import { KeyDirectory } from './key-directory.js';
import { generateApiKey, hashApiKey } from './key-material.js';

function row(id: number, key: string, over: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  const now = new Date();
  return { id, keyHash: hashApiKey(key), prefix: key.slice(0, 8), tier: 'free', label: null, referralCode: `C${id}`, referrerId: null, createdAt: now, updatedAt: now, revokedAt: null, ...over };
}

test('lookup: valid, unknown, tier change and revocation seen at once (also after the key was remembered)', () => {
  const d = new KeyDirectory({ changedSince: async () => ({ rows: [], now: new Date() }) });
  const k = generateApiKey();
  d.apply(row(1, k));
  assert.deepEqual(d.lookup(k), { id: 1, tier: 'free' });
  assert.deepEqual(d.lookup(k), { id: 1, tier: 'free' }, 'remembered');
  assert.equal(d.lookup(generateApiKey()), null);
  d.apply(row(1, k, { tier: 'pro' }));
  assert.deepEqual(d.lookup(k), { id: 1, tier: 'pro' });
  d.apply(row(1, k, { revokedAt: new Date() }));
  assert.equal(d.lookup(k), null);
  assert.equal(d.size, 0);
});

test('polling applies changed rows with an overlap and keeps serving on errors', async () => {
  const k = generateApiKey();
  const sinceSeen: (Date | null)[] = [];
  let rows: ApiKeyRecord[] = [row(7, k)];
  let fail = false;
  const d = new KeyDirectory(
    {
      changedSince: async (since) => {
        sinceSeen.push(since);
        if (fail) throw new Error('db down');
        return { rows, now: new Date(1_000_000) };
      },
    },
    { overlapMs: 5000 },
  );
  await d.poll();
  assert.equal(sinceSeen[0], null, 'first poll reads everything');
  assert.deepEqual(d.lookup(k), { id: 7, tier: 'free' });
  rows = [row(7, k, { revokedAt: new Date() })];
  await d.poll();
  assert.equal(sinceSeen[1]!.getTime(), 1_000_000 - 5000, 'later polls re-read an overlap before the last clock');
  assert.equal(d.lookup(k), null);
  fail = true;
  await assert.rejects(d.poll());
});
