/**
 * Test support: a pool's slab index by address.
 */
import bs58 from 'bs58';
import type { PoolSlab } from '../../slab/pool-slab.js';

/** The slab index of the pool at `address`, or -1. */
export function poolIndexOf(slab: PoolSlab, address: string): number {
  for (let i = 0; i < slab.count(); i++) if (bs58.encode(slab.address(i)) === address) return i;
  return -1;
}
