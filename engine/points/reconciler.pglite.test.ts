import { pgliteTestDatabase } from '../store/testing/test-database.js';
import { runReconcilerSuite } from './testing/reconciler-suite.js';

runReconcilerSuite('pglite', () => pgliteTestDatabase('reconciler'));
