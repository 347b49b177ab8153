import { test } from 'node:test';
import { pgliteTestDatabase } from '../store/testing/test-database.js';
import { killDuringReconciliation } from './testing/crash-scenario.js';

test('pglite: kill -9 during reconciliation, restart: each window in the ledger exactly once', { timeout: 60_000 }, async (t) => {
  const db = pgliteTestDatabase('reconcile-crash');
  try {
    t.diagnostic(JSON.stringify(await killDuringReconciliation(db)));
  } finally {
    await db.drop();
  }
});
