/** Shared-memory slabs: layouts, seqlock, pool records, mint table and per-thread topology. */
export * from './layout.js';
export * from './seqlock.js';
export * from './pool-snapshot.js';
export * from './pool-slab.js';
export * from './mint-table.js';
export * from './topology.js';
