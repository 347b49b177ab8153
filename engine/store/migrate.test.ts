import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isEngineError } from '../errors.js';
import { checkMigrationList, migrate } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';
import { projectRoot } from './open.js';
import { openPgliteDriver } from './pglite-driver.js';

test('every migrations/NNN-name.ts file is listed, in order, with its id and name', () => {
  const dir = join(projectRoot(), 'engine', 'store', 'migrations');
  const files = readdirSync(dir).filter((f) => /^\d{3}-.+\.ts$/.test(f)).sort();
  assert.deepEqual(files, MIGRATIONS.map((m) => `${String(m.id).padStart(3, '0')}-${m.name}.ts`));
  assert.doesNotThrow(() => checkMigrationList(MIGRATIONS));
  assert.throws(() => checkMigrationList([{ id: 2, name: 'x', sql: '' }]), (e) => isEngineError(e, 'STORE_BAD_MIGRATIONS'));
});

test('a later migration is applied on its own; a renamed one is refused', async () => {
  const db = await openPgliteDriver('memory://');
  try {
    assert.deepEqual(await migrate(db), MIGRATIONS.map((m) => m.id));
    assert.deepEqual(await migrate(db), []);
    const next = [...MIGRATIONS, { id: MIGRATIONS.length + 1, name: 'later', sql: 'CREATE TABLE later (x int); CREATE INDEX later_x ON later (x);' }];
    assert.deepEqual(await migrate(db, next), [next.length]);
    assert.deepEqual(await migrate(db, next), []);
    // An older build (without the later migration) still starts.
    assert.deepEqual(await migrate(db), []);
    const renamed = next.map((m) => (m.id === 1 ? { ...m, name: 'renamed' } : m));
    await assert.rejects(migrate(db, renamed), (e) => isEngineError(e, 'STORE_MIGRATION_MISMATCH'));
  } finally {
    await db.close();
  }
});

test('a failing migration leaves nothing behind and is retried on the next start', async () => {
  const db = await openPgliteDriver('memory://');
  try {
    await migrate(db);
    const bad = [...MIGRATIONS, { id: MIGRATIONS.length + 1, name: 'bad', sql: 'CREATE TABLE half (x int); SELECT no_such_function();' }];
    await assert.rejects(migrate(db, bad));
    const half = await db.query<{ t: string | null }>("SELECT to_regclass('half')::text AS t");
    assert.equal(half[0]!.t, null);
    const fixed = [...MIGRATIONS, { id: MIGRATIONS.length + 1, name: 'bad', sql: 'CREATE TABLE half (x int);' }];
    assert.deepEqual(await migrate(db, fixed), [fixed.length]);
  } finally {
    await db.close();
  }
});
