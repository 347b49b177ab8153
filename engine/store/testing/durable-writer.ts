/**
 * Child process of `durability.pglite.test.ts`: opens the PGlite store in `argv[2]` and commits one key (with a
 * points event and a usage row, in one transaction) after another, printing `ACK <keyHash>` after each commit, until
 * it is killed. The test kills it with SIGKILL and checks that every acknowledged commit survived.
 */
import { openStore } from '../open.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: durable-writer <dataDir>');
const store = await openStore({ dataDir });
for (let i = 0; ; i++) {
  const keyHash = `durable-${i}`;
  await store.transaction(async (tx) => {
    const k = await tx.keys.create({ keyHash, prefix: 'svc_dur', tier: 'free', referralCode: `DUR${i}` });
    await tx.points.append({ apiKeyId: k.id, kind: 'signup', points: 100, sourceId: 'signup', meta: { i } });
    await tx.usage.addBatch([
      { apiKeyId: k.id, windowStart: new Date(Date.UTC(2024, 0, 1)), apiSuccessful: i, rpcSuccessful: 0, rateLimited: 0, requests: i },
    ]);
  });
  process.stdout.write(`ACK ${keyHash}\n`);
}
