import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runStoreContract } from './testing/contract-suite.js';
import { MIGRATIONS } from './migrations/index.js';
import { openStore } from './open.js';
import { dropSchemas, pgUnavailable, randomSchema, testDatabaseUrl } from './testing/pg-schema.js';

const url = testDatabaseUrl();
const schema = randomSchema('store_contract');
const raceSchema = randomSchema('store_race');

before(async () => {
  const why = await pgUnavailable(url);
  if (why) throw new Error(why);
});
after(() => dropSchemas([schema, raceSchema], url));

runStoreContract('postgres', () => openStore({ databaseUrl: url, schema }));

test('postgres: two instances opening a fresh schema at once both succeed; each migration is applied once', async () => {
  const [a, b, c] = await Promise.all([1, 2, 3].map(() => openStore({ databaseUrl: url, schema: raceSchema })));
  try {
    const rows = await a!.sql.query<{ id: number; name: string }>('SELECT id, name FROM schema_migrations ORDER BY id');
    assert.deepEqual(rows, MIGRATIONS.map((m) => ({ id: m.id, name: m.name })));
    assert.equal(b!.driver, 'postgres');
    const k = await b!.keys.create({ keyHash: 'race', prefix: 'p', tier: 'pro', referralCode: 'RACE' });
    assert.equal((await c!.keys.findById(k.id))?.keyHash, 'race');
  } finally {
    await Promise.all([a!.close(), b!.close(), c!.close()]);
  }
});

test('postgres: the schema option isolates tables', async () => {
  const rows = await (async () => {
    const s = await openStore({ databaseUrl: url, schema });
    try {
      return await s.sql.query<{ schema: string }>('SELECT current_schema() AS schema');
    } finally {
      await s.close();
    }
  })();
  assert.equal(rows[0]!.schema, schema);
});
