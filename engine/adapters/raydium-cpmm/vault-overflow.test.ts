/**
 * What the user sends must fit the input vault: the program's math runs on reserves net of accrued fees, then its
 * transfer into the vault fails in the token program (Overflow) when the vault's own amount plus what it is
 * credited passes u64. The quote refuses those (INSUFFICIENT_LIQUIDITY, failure `TokenOverflow`) in both modes,
 * and the float estimate does not rank them. On the mainnet WSOL/CLNS pool (FmNz8z2o..., its real PoolState and
 * AmmConfig) the accrued CLNS fees (728,371,706,964,789 atoms) make the vault far larger than the reserve.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import bs58 from 'bs58';
import { encodeTokenAccount } from '../common/spl-layouts.js';
import { floatRecordOf } from '../testing/record-helpers.js';
import { PARAM_F64_WORDS, PARAM_U64_WORDS, type RecordFields } from '../types.js';
import { raydiumCpmmAdapter as adapter } from './adapter.js';
import { decodePoolState, poolAuthority } from './layout.js';
import { FMNZ_CONFIG_BASE64, FMNZ_POOL_ADDRESS, FMNZ_POOL_BASE64 } from './testing/mainnet-fixture.js';
import { U64_MAX } from './math.js';
import type { CpmmQuote } from './quote.js';
import type { CpmmState } from './state.js';
import { cpmmFixture, testClock } from './testing/test-fixture.js';

/** The mainnet pool with vaults holding its recorded accrued fees plus `reserves` (no vault bytes were captured). */
function mainnetPool(reserves: readonly [bigint, bigint]): { state: CpmmState; vaults: [bigint, bigint] } {
  const poolData = Buffer.from(FMNZ_POOL_BASE64, 'base64');
  const p = decodePoolState(poolData);
  const fees0 = p.protocolFeesToken0 + p.fundFeesToken0 + p.creatorFeesToken0;
  const fees1 = p.protocolFeesToken1 + p.fundFeesToken1 + p.creatorFeesToken1;
  const vaults: [bigint, bigint] = [fees0 + reserves[0], fees1 + reserves[1]];
  const vault = (mint: string, amount: bigint): Uint8Array => encodeTokenAccount({
    mint: bs58.decode(mint), owner: bs58.decode(poolAuthority()), amount, delegate: null, state: 1, isNative: null, delegatedAmount: 0n, closeAuthority: null,
  });
  const accounts = new Map<string, Uint8Array>([
    [FMNZ_POOL_ADDRESS, poolData],
    [p.ammConfig, Buffer.from(FMNZ_CONFIG_BASE64, 'base64')],
    [p.token0Vault, vault(p.token0Mint, vaults[0])],
    [p.token1Vault, vault(p.token1Mint, vaults[1])],
  ]);
  const desc = adapter.decodePool(FMNZ_POOL_ADDRESS, poolData)!;
  const state = adapter.buildState(desc, poolData, accounts, testClock());
  assert.ok(state);
  return { state, vaults };
}

test('mainnet FmNz8z2o (WSOL/CLNS): an exact-in that takes the input vault past u64 is refused, one that fills it is quoted', () => {
  const { state, vaults } = mainnetPool([40_000_000_000n, 2_000_000_000_000n]);
  assert.equal(state.status, 0);
  assert.equal(state.vault1 - state.reserve1, 728_371_706_964_789n, 'the accrued CLNS fees recorded in the real pool');
  for (const aToB of [true, false]) {
    const vault = aToB ? vaults[0] : vaults[1];
    const reserve = aToB ? state.reserve0 : state.reserve1;
    const over = adapter.quote(state, aToB, U64_MAX - vault + 1n, 'ExactIn') as CpmmQuote;
    assert.equal(over.status, 'INSUFFICIENT_LIQUIDITY', `aToB=${aToB}`);
    assert.equal(over.failure, 'TokenOverflow');
    // A check on the reserve (what the curve sees) would have let it through.
    assert.ok(reserve + (U64_MAX - vault + 1n) <= U64_MAX);
    const fits = adapter.quote(state, aToB, U64_MAX - vault, 'ExactIn') as CpmmQuote;
    assert.equal(fits.status, 'OK', 'filling the vault to exactly u64 is allowed');
    assert.equal(fits.failure, null);
    assert.ok(fits.outAmount > 0n && fits.outAmount < (aToB ? state.reserve1 : state.reserve0));
  }
});

test('exact-out: an output whose required input overflows the input vault is refused', () => {
  // Vault 0 at u64 - 1e6 of which 1e12 is reserve (the rest accrued protocol fees).
  const vault0 = U64_MAX - 1_000_000n;
  const fx = cpmmFixture({ vault0, protocolFees: [vault0 - 10n ** 12n - 350n, 2_000n] });
  const desc = adapter.decodePool(fx.poolAddress, fx.accounts.get(fx.poolAddress)!)!;
  const state = adapter.buildState(desc, fx.accounts.get(fx.poolAddress)!, fx.accounts, testClock())!;
  assert.equal(state.reserve0, 10n ** 12n);
  assert.equal(adapter.quote(state, true, 1_000_000n, 'ExactIn').status, 'OK');
  assert.equal((adapter.quote(state, true, 1_000_001n, 'ExactIn') as CpmmQuote).failure, 'TokenOverflow');
  const big = adapter.quote(state, true, state.reserve1 / 2n, 'ExactOut') as CpmmQuote;
  assert.equal(big.status, 'INSUFFICIENT_LIQUIDITY');
  assert.equal(big.failure, 'TokenOverflow');
  assert.ok(big.inAmount > 1_000_000n, 'the amounts the program computed before the transfer');
  assert.equal(adapter.quote(state, true, 1_000n, 'ExactOut').status, 'OK', 'a small output fits');
  // The other direction pays into vault 1, far from u64.
  assert.equal(adapter.quote(state, false, 10n ** 15n, 'ExactIn').status, 'OK');
});

test('Token-2022: the vault is credited the amount less the input transfer fee', () => {
  const { state } = mainnetPool([40_000_000_000n, 2_000_000_000_000n]);
  const s: CpmmState = { ...state, vault0: U64_MAX - 10_000n, transferFee0: { epoch: 0n, basisPoints: 100, maximumFee: U64_MAX } };
  // 10,102 - ceil(1%) = 10,000 fits exactly; 10,200 - 102 = 10,098 does not.
  assert.equal(adapter.quote(s, true, 10_102n, 'ExactIn').status, 'OK');
  assert.equal((adapter.quote(s, true, 10_200n, 'ExactIn') as CpmmQuote).failure, 'TokenOverflow');
});

test('the vault amounts survive the slab record round trip; float readers are unchanged by the new words', () => {
  const { state } = mainnetPool([40_000_000_000n, 2_000_000_000_000n]);
  const rec: RecordFields = { status: 0, reserveA: 0n, reserveB: 0n, u64: new Array<bigint>(PARAM_U64_WORDS).fill(0n), f64: new Array<number>(PARAM_F64_WORDS).fill(0) };
  adapter.toRecord(state, rec);
  assert.deepEqual(adapter.fromRecord(rec), { ...state, transferFeeChanges: false });
  const f = floatRecordOf(adapter, state);
  assert.equal(adapter.feeBps(f), 200, 'the 2% AmmConfig (creator fee disabled on this pool)');
  const expected = (Number(state.reserve1) / Number(state.reserve0)) * ((1e6 - 20_000) / 1e6);
  assert.equal(adapter.marginalRate(f, true), expected);
});

test('estimateOut does not rank an input that overflows the input vault', () => {
  const { state, vaults } = mainnetPool([40_000_000_000n, 2_000_000_000_000n]);
  const f = floatRecordOf(adapter, state);
  assert.ok(adapter.estimateOut(f, false, 1e18) > 0);
  assert.equal(adapter.estimateOut(f, false, Number(U64_MAX - vaults[1] + 1n)), 0);
  assert.equal(adapter.estimateOut(f, true, Number(U64_MAX)), 0);
  assert.ok(adapter.estimateOut(f, true, Number(U64_MAX - vaults[0]) - 1e5) > 0, 'an input that fits is ranked');
});
