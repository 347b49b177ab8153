/** Pump.fun bonding-curve adapter: layouts, fee selection, exact math, state/record mapping and the DexAdapter. */
export * from './layout.js';
export * from './fee-config.js';
export * from './fees.js';
export * from './math.js';
export * from './pda.js';
export * from './state.js';
export * from './record.js';
export * from './estimate.js';
export * from './quote.js';
export * from './instruction.js';
export * from './execute.js';
export * from './adapter.js';
