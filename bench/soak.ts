/**
 * `make soak`: the fault soak (http/testing/soak-run.ts) for SOAK_MINUTES (default 10), printing each fault as it
 * goes and the report as JSON at the end; exits non-zero when an answer's age was too small, a fault was never
 * recovered from, or a pool's record differs from the chain.
 */
import { runSoak } from '../http/testing/soak-run.js';

const minutes = Number(process.env.SOAK_MINUTES ?? '10');
const seed = Number(process.env.SOAK_SEED ?? '1');
const report = await runSoak({ durationMs: Math.round(minutes * 60_000), seed, log: (l) => console.error(l) });
const { faults, ...summary } = report;
console.log(JSON.stringify({ ...summary, faultsInjected: faults.length }, null, 2));
const failed = report.answers.stale > 0 || report.sse.stale > 0 || report.recovery.unrecovered > 0 || report.chain.mismatches > 0 || report.chain.compared === 0;
process.exit(failed ? 1 : 0);
