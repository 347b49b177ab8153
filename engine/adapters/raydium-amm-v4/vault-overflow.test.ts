/**
 * An input that would take the input vault above u64 fails the program's token transfer (spl-token Overflow), so
 * the quote refuses it (INSUFFICIENT_LIQUIDITY, failure `TokenOverflow`) in both modes, and the float estimate
 * does not rank it. Pools built in real account layouts: the mainnet SOL/USDC pool's vault amounts
 * (58oQChx4..., coin 67,661,004,799,950, pc 4,936,181,262,839) and a vault near u64 with need_take_pnl.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { floatRecordOf } from '../testing/record-helpers.js';
import { raydiumAmmV4Adapter as adapter } from './adapter.js';
import { type AmmV4Swap, U64_MAX } from './math.js';
import type { AmmV4State } from './state.js';
import { ammV4Fixture, testClock } from './testing/test-fixture.js';

function stateOf(coinVault: bigint, pcVault: bigint, needTakePnl: readonly [bigint, bigint] = [0n, 0n]): AmmV4State {
  const fx = ammV4Fixture({ coinVault, pcVault, needTakePnl });
  const desc = adapter.decodePool(fx.poolAddress, fx.accounts.get(fx.poolAddress)!)!;
  const state = adapter.buildState(desc, fx.accounts.get(fx.poolAddress)!, fx.accounts, testClock());
  assert.ok(state);
  return state;
}

const SOL_USDC = [67_661_004_799_950n, 4_936_181_262_839n] as const;

test('mainnet SOL/USDC vaults: an exact-in amount that overflows the input vault is refused, one atom less is OK', () => {
  const s = stateOf(...SOL_USDC);
  for (const aToB of [true, false]) {
    const vault = aToB ? SOL_USDC[0] : SOL_USDC[1];
    const over = adapter.quote(s, aToB, U64_MAX - vault + 1n, 'ExactIn') as AmmV4Swap;
    assert.equal(over.status, 'INSUFFICIENT_LIQUIDITY', `aToB=${aToB}`);
    assert.equal(over.failure, 'TokenOverflow');
    assert.equal(adapter.quote(s, aToB, U64_MAX - 1_000_000_000_000n, 'ExactIn').status, 'INSUFFICIENT_LIQUIDITY');
    assert.equal(adapter.quote(s, aToB, U64_MAX - vault, 'ExactIn').status, 'OK', 'filling the vault to exactly u64 is allowed');
  }
});

test('need_take_pnl counts: the vault, not the quotable reserve, is what overflows', () => {
  // Quotable reserve 1e12 on a vault of u64 - 1e6: an exact-in of 1e6 fits, 1e6 + 1 does not.
  const vault = U64_MAX - 1_000_000n;
  const s = stateOf(vault, 10n ** 12n, [vault - 10n ** 12n, 0n]);
  assert.equal(s.reserveCoin, 10n ** 12n);
  assert.equal(adapter.quote(s, true, 1_000_000n, 'ExactIn').status, 'OK');
  assert.equal(adapter.quote(s, true, 1_000_001n, 'ExactIn').status, 'INSUFFICIENT_LIQUIDITY');
  // Exact-out: the input the output requires would overflow the coin vault.
  const outNeedingBigIn = 10n ** 12n / 2n;
  const q = adapter.quote(s, true, outNeedingBigIn, 'ExactOut') as AmmV4Swap;
  assert.equal(q.status, 'INSUFFICIENT_LIQUIDITY');
  assert.equal(q.failure, 'TokenOverflow');
  // The other direction pays into the pc vault, far from u64.
  assert.equal(adapter.quote(s, false, 1_000_000_000n, 'ExactIn').status, 'OK');
});

test('the vault amounts survive the slab record round trip', () => {
  const s = stateOf(...SOL_USDC);
  const rec = { status: 0, reserveA: 0n, reserveB: 0n, u64: new Array<bigint>(16).fill(0n), f64: new Array<number>(8).fill(0), ext: null };
  adapter.toRecord(s, rec);
  assert.deepEqual(adapter.fromRecord(rec), s);
});

test('estimateOut does not rank an input that overflows the input vault', () => {
  const s = stateOf(...SOL_USDC);
  const rec = floatRecordOf(adapter, s);
  assert.ok(adapter.estimateOut(rec, true, 1e18) > 0);
  assert.equal(adapter.estimateOut(rec, true, Number(U64_MAX)), 0);
  assert.equal(adapter.estimateOut(rec, false, 1.8446743e19), 0);
});
