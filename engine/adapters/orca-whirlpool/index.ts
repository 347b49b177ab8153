/** The Orca Whirlpool adapter (not registered yet: see README). */
export { orcaWhirlpoolAdapter } from './adapter.js';
