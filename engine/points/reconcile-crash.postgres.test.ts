import { before, test } from 'node:test';
import { pgUnavailable } from '../store/testing/pg-schema.js';
import { postgresTestDatabase } from '../store/testing/test-database.js';
import { killDuringReconciliation } from './testing/crash-scenario.js';

before(async () => {
  const why = await pgUnavailable();
  if (why) throw new Error(why);
});

test('postgres: kill -9 during reconciliation, restart: each window in the ledger exactly once', { timeout: 60_000 }, async (t) => {
  const db = postgresTestDatabase('reconcile_crash');
  try {
    t.diagnostic(JSON.stringify(await killDuringReconciliation(db)));
  } finally {
    await db.drop();
  }
});
