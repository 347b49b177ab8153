import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { openStore } from './open.js';
import { runChild } from './testing/child.js';
import { tempDir } from './testing/temp-dir.js';

const WRITER = new URL('./testing/durable-writer.js', import.meta.url);

test('pglite: every commit acknowledged before kill -9 is there after a restart', { timeout: 60_000 }, async () => {
  const dir = tempDir('store-durable');
  try {
    const child = runChild(WRITER, [dir.path]);
    await child.waitForLines(25);
    child.proc.kill('SIGKILL');
    assert.equal(await child.exited, 'SIGKILL');
    const acked = child.lines.filter((l) => l.startsWith('ACK ')).map((l) => l.slice(4));
    assert.ok(acked.length >= 25);
    assert.ok(existsSync(`${dir.path}.lock`), 'the killed process left its lock behind');

    // The stale lock (dead pid) is taken over; PostgreSQL recovers from its WAL.
    const store = await openStore({ dataDir: dir.path });
    try {
      for (const h of acked) {
        const k = await store.keys.findByHash(h);
        assert.ok(k, `acknowledged key ${h} lost`);
        assert.deepEqual(await store.points.breakdown(k.id), { apiUsage: 0, signup: 100, referral: 0, wallet: 0 });
        assert.ok(await store.usage.get(k.id, new Date(Date.UTC(2024, 0, 1))));
      }
      // A commit may have landed between the last line and the kill; nothing half-written may.
      const n = await store.sql.query<{ keys: number; events: number; windows: number }>(
        `SELECT (SELECT count(*)::int FROM api_keys) AS keys, (SELECT count(*)::int FROM points_events) AS events,
                (SELECT count(*)::int FROM usage_windows) AS windows`,
      );
      assert.ok(n[0]!.keys >= acked.length && n[0]!.keys <= acked.length + 1);
      assert.equal(n[0]!.events, n[0]!.keys);
      assert.equal(n[0]!.windows, n[0]!.keys);
    } finally {
      await store.close();
    }
  } finally {
    dir.remove();
  }
});
