/**
 * Rate limits: the quota table, fixed-window counters and stream slot counters (memory and Redis), and the
 * factory that picks the backend. Test support (`testing/window-suite.ts`, `testing/slots-suite.ts`) is deliberately not
 * re-exported.
 */
export * from './types.js';
export * from './table.js';
export * from './window.js';
export * from './chunk-size.js';
export * from './reserved-units.js';
export * from './memory-window.js';
export * from './memory-slots.js';
export * from './redis-connection.js';
export * from './redis-window.js';
export * from './redis-chunked-window.js';
export * from './redis-slots.js';
export * from './factory.js';
