import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openStore } from './open.js';
import { hasCluster, installedPgliteVersion, seedDataDir, templateFile } from './pglite-template.js';
import { tempDir } from './testing/temp-dir.js';

test('the template of the installed PGlite is shipped', () => {
  const file = templateFile();
  assert.ok(
    existsSync(file),
    `no PGlite template for @electric-sql/pglite ${installedPgliteVersion()} (${file}): new data directories would run ` +
      'initdb (5 s, 800 MB). Make it: npx tsc -p tsconfig.json && node dist/scripts/make-pglite-template.js',
  );
});

test('seeding: a missing or empty directory gets the cluster, renamed into place whole', async () => {
  const t = tempDir('seed');
  try {
    const missing = join(t.path, 'a', 'pglite');
    mkdirSync(join(t.path, 'a'));
    mkdirSync(join(t.path, 'a', 'pglite.seed-999999')); // left by a process killed while unpacking
    assert.equal(await seedDataDir(missing), 'seeded');
    assert.ok(hasCluster(missing));
    assert.deepEqual(readdirSync(join(t.path, 'a')), ['pglite'], 'no staging directory left behind');
    assert.equal(await seedDataDir(missing), 'exists');

    const empty = join(t.path, 'b');
    mkdirSync(empty);
    assert.equal(await seedDataDir(empty), 'seeded');
    assert.ok(hasCluster(empty));
  } finally {
    t.remove();
  }
});

test('seeding: a non-empty directory without a cluster, or no template, is left alone', async () => {
  const t = tempDir('seed-not');
  try {
    const full = join(t.path, 'full');
    mkdirSync(full);
    writeFileSync(join(full, 'something'), 'x');
    assert.equal(await seedDataDir(full), 'not-empty');
    assert.deepEqual(readdirSync(full), ['something']);

    const dir = join(t.path, 'none');
    assert.equal(await seedDataDir(dir, join(t.path, 'no-such-template.tar.br')), 'no-template');
    assert.equal(existsSync(dir), false);
  } finally {
    t.remove();
  }
});

test('seeding: a damaged template fails without leaving a directory behind', async () => {
  const t = tempDir('seed-bad');
  try {
    const bad = join(t.path, 'bad.tar.br');
    writeFileSync(bad, 'not brotli at all');
    const dir = join(t.path, 'pglite');
    await assert.rejects(seedDataDir(dir, bad));
    assert.deepEqual(readdirSync(t.path), ['bad.tar.br']);
  } finally {
    t.remove();
  }
});

test('new stores (directory and memory://) start from the template, not initdb', async () => {
  // initdb draws a random system identifier; every copy of the template has the template's.
  const id = async (dataDir: string): Promise<string> => {
    const s = await openStore({ dataDir });
    try {
      return (await s.sql.query<{ id: string }>('SELECT system_identifier::text AS id FROM pg_control_system()'))[0]!.id;
    } finally {
      await s.close();
    }
  };
  const t = tempDir('seed-open');
  try {
    const first = await id(join(t.path, 'one'));
    assert.equal(await id(join(t.path, 'two')), first);
    assert.equal(await id('memory://'), first);
  } finally {
    t.remove();
  }
});
