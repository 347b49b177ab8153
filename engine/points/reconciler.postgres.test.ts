import { before } from 'node:test';
import { pgUnavailable } from '../store/testing/pg-schema.js';
import { postgresTestDatabase } from '../store/testing/test-database.js';
import { runReconcilerSuite } from './testing/reconciler-suite.js';

before(async () => {
  const why = await pgUnavailable();
  if (why) throw new Error(why);
});

runReconcilerSuite('postgres', () => postgresTestDatabase('reconciler'));
