/**
 * A buy's whole input goes into vault B, which holds `real_b` plus the accrued protocol (and legacy platform) fee:
 * the token program refuses the transfer when that passes u64, so the quote refuses the buy in both modes
 * (INSUFFICIENT_LIQUIDITY, failure `TokenOverflow`) even where `real_b + curve input` (the program's own checked
 * add) fits, and the float estimate does not rank it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PARAM_F64_WORDS, PARAM_U64_WORDS, type RecordFields } from '../types.js';
import { floatRecordOf } from '../testing/record-helpers.js';
import { raydiumLaunchlabAdapter as adapter } from './adapter.js';
import { type LaunchlabSwap, U64_MAX } from './math.js';
import type { LaunchlabState } from './state.js';
import { type LaunchlabFixtureOptions, launchlabFixture, testClock } from './testing/test-fixture.js';

function stateOf(o: LaunchlabFixtureOptions): LaunchlabState {
  const fx = launchlabFixture(o);
  const poolData = fx.accounts.get(fx.poolAddress)!;
  const s = adapter.buildState(adapter.decodePool(fx.poolAddress, poolData)!, poolData, fx.accounts, testClock());
  assert.ok(s);
  return s;
}

const REAL_B = 20_000_000_000n;
/** Vault B at u64 - 1e6: real_b plus a protocol fee that fills the rest. */
const near = (): LaunchlabState => stateOf({ realB: REAL_B, protocolFee: U64_MAX - 1_000_000n - REAL_B });

test('a buy whose input takes vault B past u64 is refused; one that fills it is quoted', () => {
  const s = near();
  assert.equal(s.vaultB, U64_MAX - 1_000_000n);
  assert.equal(adapter.quote(s, false, 1_000_000n, 'ExactIn').status, 'OK');
  const over = adapter.quote(s, false, 1_000_001n, 'ExactIn') as LaunchlabSwap;
  assert.equal(over.status, 'INSUFFICIENT_LIQUIDITY');
  assert.equal(over.failure, 'TokenOverflow');
  assert.ok(s.realB + over.curveB <= U64_MAX, 'the program\'s real_b check alone would pass');
  const out = adapter.quote(s, false, 10n ** 12n, 'ExactOut') as LaunchlabSwap;
  assert.equal(out.failure, 'TokenOverflow', 'exact-out: the required input overflows vault B');
  assert.equal(adapter.quote(s, false, 1_000n, 'ExactOut').status, 'OK');
  assert.equal(adapter.quote(s, true, 1_000_000n, 'ExactIn').status, 'OK', 'sells pay out of vault B');
});

test('vault B survives the record; estimateOut does not rank the buy; feeBps is unchanged', () => {
  const s = near();
  const rec: RecordFields = { status: 0, reserveA: 0n, reserveB: 0n, u64: new Array<bigint>(PARAM_U64_WORDS).fill(0n), f64: new Array<number>(PARAM_F64_WORDS).fill(0) };
  adapter.toRecord(s, rec);
  assert.deepEqual(adapter.fromRecord(rec), s);
  const f = floatRecordOf(adapter, s);
  assert.ok(adapter.estimateOut(f, false, 1e5) > 0);
  assert.equal(adapter.estimateOut(f, false, 1e7), 0);
  const r = s.rates;
  assert.equal(adapter.feeBps(f), Number(r.tradeFeeRate + r.platformFeeRate + r.creatorFeeRate) / 100);
  const bad = floatRecordOf(adapter, { ...s, rates: { ...r, platformFeeRate: 2_000_000n } });
  assert.equal(adapter.feeBps(bad), Number(r.tradeFeeRate + 2_000_000n + r.creatorFeeRate) / 100, 'a rate above 100% still shows');
});
