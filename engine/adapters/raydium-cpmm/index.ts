/** Raydium CPMM adapter: layouts, exact math and the DexAdapter implementation. */
export * from './layout.js';
