/** Meteora DBC adapter: layouts, exact math, state/record mapping and the DexAdapter implementation. */
export * from './layout.js';
export * from './curve-math.js';
export * from './fee-math.js';
export * from './swap-math.js';
export * from './state.js';
export * from './record.js';
export * from './estimate.js';
export * from './quote.js';
export * from './instruction.js';
export * from './execute.js';
export * from './descriptor.js';
export * from './adapter.js';
