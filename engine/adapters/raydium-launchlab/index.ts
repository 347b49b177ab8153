/** Raydium LaunchLab adapter: layouts, PDAs, exact curve math, state/record mapping and the DexAdapter. */
export * from './layout.js';
export * from './pda.js';
export * from './sdk-sqrt.js';
export * from './curves.js';
export * from './math.js';
export * from './transfer-fee.js';
export * from './state.js';
export * from './record.js';
export * from './estimate.js';
export * from './quote.js';
export * from './instruction.js';
export * from './execute.js';
export * from './adapter.js';
