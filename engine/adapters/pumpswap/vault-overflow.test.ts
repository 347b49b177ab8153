/**
 * What a swap pays into a vault must fit u64 (the token program's transfer fails above it): the exact quote
 * refuses such swaps in both modes (INSUFFICIENT_LIQUIDITY), and the float estimate does not rank them. States
 * with the reserves of the mainnet ANSEM/WSOL pool (FnzKY6x7..., base 3,892,192,026,206, quote 15,062,049,237,081,
 * fees 0 / 95 / 30 bps) and with vaults near u64.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { floatRecordOf } from '../testing/record-helpers.js';
import { pumpswapAdapter as adapter } from './adapter.js';
import { U64_MAX } from './math.js';
import { PUMPSWAP_STATUS_OK, type PumpswapState } from './state.js';

function state(base: bigint, quoteVault: bigint): PumpswapState {
  return {
    status: PUMPSWAP_STATUS_OK, baseReserve: base, quoteReserve: quoteVault, quoteVault,
    fees: { lpFeeBps: 20n, protocolFeeBps: 95n, creatorFeeBps: 30n }, disableFlags: 0, schedule: 1, tierIndex: 0,
  };
}

test('sell: a base input that takes the base vault above u64 is refused, exact and estimate', () => {
  const s = state(U64_MAX - 10n ** 12n, 10n ** 18n);
  assert.equal(adapter.quote(s, true, 10n ** 12n, 'ExactIn').status, 'OK');
  assert.equal(adapter.quote(s, true, 10n ** 12n + 1n, 'ExactIn').status, 'INSUFFICIENT_LIQUIDITY');
  const ansem = state(3_892_192_026_206n, 15_062_049_237_081n);
  assert.equal(adapter.quote(ansem, true, U64_MAX - 3_892_192_026_206n + 1n, 'ExactIn').status, 'INSUFFICIENT_LIQUIDITY');
  assert.equal(adapter.estimateOut(floatRecordOf(adapter, ansem), true, Number(U64_MAX)), 0, 'the estimate does not rank it');
  assert.ok(adapter.estimateOut(floatRecordOf(adapter, ansem), true, 1e15) > 0);
});

test('buy: a cost that takes the quote vault above u64 is refused in both modes', () => {
  // Quote vault near u64: the curve amount plus the LP fee of a modest buy no longer fits.
  const s = state(10n ** 15n, U64_MAX - 10n ** 9n);
  const inQ = adapter.quote(s, false, 10n ** 10n, 'ExactIn');
  assert.equal(inQ.status, 'INSUFFICIENT_LIQUIDITY', 'exact-in');
  assert.equal(adapter.quote(s, false, 10n ** 9n, 'ExactOut').status, 'INSUFFICIENT_LIQUIDITY', 'exact-out');
  assert.equal(adapter.quote(s, false, 10n ** 8n, 'ExactIn').status, 'OK', 'a buy that fits');
  assert.equal(adapter.estimateOut(floatRecordOf(adapter, s), false, 1e10), 0, 'the estimate does not rank it');
});
