import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { isEngineError } from '../errors.js';
import { runStoreContract } from './testing/contract-suite.js';
import { openStore } from './open.js';
import { wasmKeptOnBaselineCompiler } from './pglite-settings.js';
import { tempDir } from './testing/temp-dir.js';

const dir = tempDir('store-pglite');
after(() => dir.remove());

runStoreContract('pglite', () => openStore({ dataDir: dir.path }));

test('pglite: a data directory is open in one place at a time', async () => {
  const d = tempDir('store-lock');
  try {
    const a = await openStore({ dataDir: d.path });
    await assert.rejects(openStore({ dataDir: d.path }), (e) => isEngineError(e, 'STORE_LOCKED'));
    await a.close();
    const b = await openStore({ dataDir: d.path });
    assert.equal(b.driver, 'pglite');
    await b.close();
  } finally {
    d.remove();
  }
});

test('pglite: memory:// works and is not shared', async () => {
  const a = await openStore({ dataDir: 'memory://' });
  const b = await openStore({ dataDir: 'memory://' });
  await a.keys.create({ keyHash: 'h', prefix: 'p', tier: 'free', referralCode: 'C' });
  assert.equal((await b.keys.list()).length, 0);
  await Promise.all([a.close(), b.close()]);
});

test('pglite: PostgreSQL runs with the small buffer pool, V8 on its baseline compiler (pglite-settings.ts)', async () => {
  const s = await openStore({ dataDir: 'memory://' });
  try {
    assert.deepEqual(await s.sql.query('SHOW shared_buffers'), [{ shared_buffers: '4MB' }]);
    assert.equal(wasmKeptOnBaselineCompiler(), true);
  } finally {
    await s.close();
  }
});
