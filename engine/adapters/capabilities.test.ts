import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_ACCOUNTS_PER_SWAP, accountsPerSwapOf, capabilitiesOf, quotesExactOut } from './capabilities.js';
import { ADAPTERS } from './registry.js';
import type { DexAdapter } from './types.js';

const FLAGS = ['exactOut', 'exactOutBToA', 'accountsPerSwap', 'dynamicAccounts', 'unidirectional'] as const;

test('every registered adapter states each capability flag itself (no adapter runs on a default)', () => {
  assert.equal(ADAPTERS.length, 6);
  for (const a of ADAPTERS) {
    for (const f of FLAGS) assert.ok(Object.hasOwn(a, f), `${a.dex} does not state ${f}`);
    assert.ok(Number.isInteger(a.accountsPerSwap) && a.accountsPerSwap! > 0 && a.accountsPerSwap! < DEFAULT_ACCOUNTS_PER_SWAP, a.dex);
  }
});

test('an adapter that leaves the flags out gets the safe defaults: no exact-out, 64 accounts, static, both ways', () => {
  const { exactOut: _a, exactOutBToA: _b, accountsPerSwap: _c, dynamicAccounts: _d, unidirectional: _e, ...bare } = ADAPTERS[0]!;
  const a = bare as DexAdapter;
  assert.deepEqual(capabilitiesOf(a), { exactOut: false, exactOutBToA: false, accountsPerSwap: 64, dynamicAccounts: false, unidirectional: false });
  assert.equal(accountsPerSwapOf(a), DEFAULT_ACCOUNTS_PER_SWAP);
  assert.deepEqual([quotesExactOut(a, true), quotesExactOut(a, false)], [false, false]);
  const buyOnly = { ...a, exactOutBToA: true } as DexAdapter;
  assert.deepEqual([quotesExactOut(buyOnly, true), quotesExactOut(buyOnly, false)], [false, true]);
  assert.deepEqual([quotesExactOut({ ...a, exactOut: true } as DexAdapter, true), quotesExactOut({ ...a, exactOut: true } as DexAdapter, false)], [true, true]);
});
