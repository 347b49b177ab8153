/**
 * Test support: the account counts of an adapter's real swap instructions over pool variants, both directions and
 * both modes: what each adapter's `accountsPerSwap` capability must equal (its maximum), so the flag cannot drift
 * from the instruction builder.
 */
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import type { DexAdapter, PoolDescriptor, SwapMode } from '../types.js';

/** One pool to build swaps on: its descriptor and the accounts `swapInstruction` reads. */
export interface SwapVariant {
  readonly desc: PoolDescriptor;
  readonly accounts: ReadonlyMap<string, Uint8Array>;
}

const MODES: readonly SwapMode[] = ['ExactIn', 'ExactOut'];

function key(label: string): string {
  return bs58.encode(createHash('sha256').update(`swap-account-counts:${label}`).digest());
}

/**
 * `swapInstruction(...).keys.length` of every variant x direction x mode, with `amount` (small enough for every
 * fixture to quote) and a generous threshold for ExactOut (the maximum input).
 */
export function swapAccountCounts(adapter: DexAdapter, variants: readonly SwapVariant[], amount = 1_000_000n): number[] {
  const out: number[] = [];
  for (const v of variants) {
    for (const aToB of [true, false]) {
      for (const mode of MODES) {
        const ix = adapter.swapInstruction({
          pool: v.desc, accounts: v.accounts, user: key('user'),
          userSourceTokenAccount: key('source'), userDestinationTokenAccount: key('destination'),
          aToB, mode, amount, otherAmountThreshold: mode === 'ExactOut' ? 10n ** 15n : 1n,
        });
        out.push(ix.keys.length);
      }
    }
  }
  return out;
}
