/** PumpSwap AMM adapter: layouts, fee schedule, exact math, state/record mapping and the DexAdapter implementation. */
export * from './layout.js';
export * from './pdas.js';
export * from './fee-schedule.js';
export * from './math.js';
export * from './state.js';
export * from './record.js';
export * from './estimate.js';
export * from './quote.js';
export * from './accounts.js';
export * from './instruction.js';
export * from './execute.js';
export * from './adapter.js';
