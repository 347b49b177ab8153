/**
 * Shared-memory slabs: layouts, seqlock, pool records, mint table and per-thread topology.
 * Test support (`testing/torn-fixture.ts`, `testing/torn-worker.ts`) and the unsynchronized negative control
 * (`testing/unsynchronized-reader.ts`) are deliberately not re-exported.
 */
export * from './layout.js';
export * from './seqlock.js';
export * from './pool-snapshot.js';
export * from './pool-slab.js';
export * from './mint-table.js';
export * from './topology.js';
