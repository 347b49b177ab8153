/**
 * The acceptance scenario, for any test database: seed ~300 pending windows, run the reconciler in a child
 * process, SIGKILL it while its 50th window's transaction holds an appended event (uncommitted), run it again
 * to the end, and compare the ledger with what the scoring rules give for the seeded data.
 */
import assert from 'node:assert/strict';
import { openStore } from '../../store/open.js';
import { runChild } from '../../store/testing/child.js';
import type { TestDatabase } from '../../store/testing/test-database.js';
import { expectedLedger, pendingCount, seedPlan, seedStore, storedLedger } from './seed.js';

const CHILD = new URL('./reconcile-child.js', import.meta.url);

/** Facts of one run, for the test's diagnostics. */
export interface CrashReport {
  readonly windows: number;
  readonly committedBeforeKill: number;
  /** The killed child's last line: `HOLD ...` means it had appended an event it had not committed. */
  readonly lastLineBeforeKill: string;
  readonly secondRun: Record<string, number>;
  readonly events: number;
  readonly total: number;
}

/** Runs the scenario on `db` and asserts the outcome. */
export async function killDuringReconciliation(db: TestDatabase, killAfter = 50, holdMs = 20): Promise<CrashReport> {
  const plan = seedPlan(300);
  const seeding = await openStore(db.options);
  const ids = await seedStore(seeding, plan, 'crash');
  await seeding.close();

  const first = runChild(CHILD, [JSON.stringify(db.options), String(holdMs)]);
  // The child prints HOLD once a window's event is appended and its transaction is still open for `holdMs`.
  await first.waitForLines(killAfter, 'HOLD ');
  first.proc.kill('SIGKILL');
  assert.equal(await first.exited, 'SIGKILL');
  const lastLineBeforeKill = first.lines.at(-1) ?? '';
  const printedBeforeKill = first.lines.filter((l) => l.startsWith('WINDOW ')).length;
  assert.ok(!first.lines.some((l) => l.startsWith('FINISHED')), 'the first run was killed before the end');

  // What the killed run left: whole windows only (an event exactly for each reconciled window that scores).
  const afterKill = await openStore(db.options);
  let committedBeforeKill: number;
  try {
    committedBeforeKill = plan.windows.length - (await pendingCount(afterKill));
    // The kill may land after a commit and before its line: at most one window more than printed.
    assert.ok(committedBeforeKill >= printedBeforeKill && committedBeforeKill <= printedBeforeKill + 1);
    const rows = await afterKill.sql.query<{ orphans: number; matched: number }>(
      `SELECT count(*) FILTER (WHERE w.reconciled_at IS NULL)::int AS orphans, count(w.api_key_id)::int AS matched
       FROM points_events e LEFT JOIN usage_windows w
         ON w.api_key_id = e.api_key_id
        AND e.source_id = 'usage:' || to_char(w.window_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
       WHERE e.kind = 'api_usage'`,
    );
    const partial = await storedLedger(afterKill);
    assert.equal(rows[0]!.matched, partial.count, 'every event names a window');
    assert.equal(rows[0]!.orphans, 0, 'no event of an unreconciled window survived the kill');
    const expected = expectedLedger(plan, ids);
    for (const [w, p] of partial.byWindow) assert.equal(p, expected.byWindow.get(w), `window ${w} scored before the kill`);
  } finally {
    await afterKill.close();
  }

  const second = runChild(CHILD, [JSON.stringify(db.options)]);
  const code = await second.exited;
  assert.equal(code, 0, `second run failed: ${second.stderr.join('')}`);
  const finished = second.lines.find((l) => l.startsWith('FINISHED '));
  assert.ok(finished, 'the second run finished');
  const secondRun = JSON.parse(finished.slice('FINISHED '.length)) as Record<string, number>;

  const store = await openStore(db.options);
  try {
    assert.equal(await pendingCount(store), 0, 'every window is reconciled');
    const expected = expectedLedger(plan, ids);
    const stored = await storedLedger(store);
    assert.equal(stored.count, expected.byWindow.size, 'one event per window with rawDelta != 0 (eligible keys)');
    assert.deepEqual(stored.byWindow, expected.byWindow, 'each window scored as the rules say');
    assert.equal(stored.total, expected.total);
    assert.equal(committedBeforeKill + secondRun['reconciled']!, plan.windows.length, 'no window reconciled twice or lost');
    return { windows: plan.windows.length, committedBeforeKill, lastLineBeforeKill, secondRun, events: stored.count, total: stored.total };
  } finally {
    await store.close();
  }
}
