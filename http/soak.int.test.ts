/**
 * A short run of the fault soak (`make soak` runs it for 10 minutes): random faults from every localnet knob while
 * REST and SSE clients read; no answer may claim data younger than it is, every fault must be recovered from, and
 * at the end every pool's record must equal the chain's accounts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSoak } from './testing/soak-run.js';

test('soak: 45 s of random faults, truthful ages, full recovery, records equal the chain', async () => {
  const seed = Number(process.env.SOAK_SEED ?? Date.now() % 1_000_000);
  const r = await runSoak({ durationMs: 45_000, seed });
  const summary = `seed ${seed} (SOAK_SEED reruns it): ${JSON.stringify({ ...r, faults: r.chain.mismatches > 0 ? r.faults : r.faults.filter((f) => f.recoveryMs === null || f.recoveryMs > 10_000) }, null, 1)}`;
  assert.ok(r.faults.length >= 5, `faults injected: ${r.faults.length}; ${summary}`);
  assert.equal(r.answers.stale, 0, `answers younger than their data: ${summary}`);
  assert.ok(r.answers.ageChecked > 100, `answers whose age was checked: ${r.answers.ageChecked}; ${summary}`);
  assert.equal(r.recovery.unrecovered, 0, `faults not recovered from: ${summary}`);
  assert.ok(r.chain.compared > 50, `pools compared with the chain: ${r.chain.compared}; ${summary}`);
  assert.equal(r.chain.mismatches, 0, `records differing from the chain: ${summary}`);
  assert.ok(r.sse.frames > 0, `SSE clients received price frames; ${summary}`);
  assert.equal(r.sse.stale, 0, `SSE frames younger than their data: ${summary}`);
  assert.equal(r.answers.failedRequests, 0, `every request was answered; ${summary}`);
});
