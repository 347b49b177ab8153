/**
 * Child process of the kill -9 acceptance test: `node reconcile-child.js '<StoreOptions JSON>' [holdMs]`.
 * Opens the store (PGlite data dir, or PostgreSQL url + schema), reconciles every pending window and prints
 * `WINDOW <status> <apiKeyId> <windowStart>` after each committed window, then `FINISHED <result JSON>`.
 *
 * With `holdMs`, each window's transaction waits that long after appending its event and before marking the
 * window (printing `HOLD ...` when it starts waiting), so a kill most likely lands inside a transaction that has
 * written its event but not committed.
 */
import { openStore } from '../../store/open.js';
import type { Repos, Store, StoreOptions } from '../../store/types.js';
import { reconcileOnce } from '../reconciler.js';

const options = JSON.parse(process.argv[2] ?? '{}') as StoreOptions;
const holdMs = Number(process.argv[3] ?? 0);
const store = await openStore(options);

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const holding = (tx: Repos): Repos => ({
  ...tx,
  usage: {
    ...tx.usage,
    markReconciled: async (apiKeyId, windowStart) => {
      process.stdout.write(`HOLD ${apiKeyId} ${windowStart.toISOString()}\n`);
      await sleep(holdMs);
      await tx.usage.markReconciled(apiKeyId, windowStart);
    },
  },
});
const target: Store = holdMs > 0 ? { ...store, transaction: (fn) => store.transaction((tx) => fn(holding(tx))) } : store;

const result = await reconcileOnce(target, Date.now(), {
  batchSize: 40,
  onWindowDone: (o) => process.stdout.write(`WINDOW ${o.status} ${o.apiKeyId} ${o.windowStart.toISOString()}\n`),
});
process.stdout.write(`FINISHED ${JSON.stringify(result)}\n`);
await store.close();
