/**
 * The adapter assembled: decode -> buildState -> toRecord -> fromRecord on a real mainnet pool, the quote through
 * the contract, the f64 estimate against the exact quote, the swap_v2 instruction against the SDK's builder
 * (accounts, roles and data) with the PDAs the SDK derives, and `accountsPerSwap` against the built instructions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyRecord, floatRecordOf } from '../testing/record-helpers.js';
import type { DexAdapter } from '../types.js';
import { swapAccountCounts } from '../testing/swap-account-counts.js';
import { orcaWhirlpoolAdapter as adapter } from './adapter.js';
import { encodeOracle, encodeWhirlpool, decodeWhirlpool } from './layout.js';
import { oracleAddress, tickArrayAddress } from './pda.js';
import { swapTickArrayStarts } from './swap.js';
import { TICK_ARRAY_SIZE } from './tick-math.js';
import { encodeTickArrayWithSdk } from './testing/sdk-accounts.js';
import { sdkClient } from './testing/sdk-oracle.js';
import { realWhirlpoolAccounts } from './testing/real-accounts.js';

const CLOCK = { slot: 400_000_000n, unixTimestamp: 1_760_000_000n, epoch: 900n };
const realPool = realWhirlpoolAccounts().find((a) => a.set.endsWith('sol-usdc-Czfq'))!;

function emptyTicks(start: number): { startTickIndex: number; bitmap: Uint32Array; liquidityNet: bigint[] } {
  return { startTickIndex: start, bitmap: new Uint32Array(3), liquidityNet: new Array<bigint>(TICK_ARRAY_SIZE).fill(0n) };
}

/** The real SOL/USDC pool with its (empty) window arrays as accounts, keyed by their PDAs. */
function setup(data = realPool.data, address = realPool.address!) {
  const desc = adapter.decodePool(address, data, () => 9)!;
  const deps = new Map<string, Uint8Array>();
  const w = decodeWhirlpool(data);
  for (const aToB of [true, false]) {
    for (const s of swapTickArrayStarts(w.tickCurrentIndex, w.tickSpacing, aToB)) deps.set(tickArrayAddress(address, s), encodeTickArrayWithSdk(emptyTicks(s), s % 2 === 0, address));
  }
  return { desc, deps, w };
}

test('decodePool names the mints and the window arrays; buildState -> toRecord -> fromRecord keeps every field', () => {
  const { desc, deps, w } = setup();
  assert.equal(desc.mintA, w.tokenMintA);
  assert.equal(desc.mintB, w.tokenMintB);
  assert.equal(desc.dependencies.length, deps.size, 'static-fee pool: no oracle, the window arrays only');
  for (const d of desc.dependencies) assert.ok(deps.has(d));
  const state = adapter.buildState(desc, realPool.data, deps, CLOCK)!;
  assert.equal(state.timestamp, CLOCK.unixTimestamp);
  const rec = emptyRecord();
  adapter.toRecord(state, rec);
  const back = adapter.fromRecord(rec);
  const { ticks: _t1, ...a } = state;
  const { ticks: _t2, ...b } = back;
  assert.deepEqual(b, a);
  assert.ok(rec.reserveA > 0n && rec.reserveB > 0n);
  // An adaptive-fee pool needs its Oracle: null without it, the constants and variables round-trip with it.
  const adaptiveData = encodeWhirlpool({ ...w, feeTierIndexSeed: w.tickSpacing + 1024 });
  const d2 = adapter.decodePool(realPool.address!, adaptiveData)!;
  assert.equal(d2.dependencies[0], oracleAddress(realPool.address!));
  assert.equal(adapter.buildState(d2, adaptiveData, deps, CLOCK), null);
  const oracle = encodeOracle({
    whirlpool: realPool.address!, tradeEnableTimestamp: 5n, filterPeriod: 30, decayPeriod: 600, reductionFactor: 5000,
    adaptiveFeeControlFactor: 4000, maxVolatilityAccumulator: 350_000, tickGroupSize: 4, majorSwapThresholdTicks: 64,
    lastReferenceUpdateTimestamp: CLOCK.unixTimestamp - 100n, lastMajorSwapTimestamp: CLOCK.unixTimestamp - 40n,
    volatilityReference: 20_000, tickGroupIndexReference: Math.floor(w.tickCurrentIndex / 4) - 3, volatilityAccumulator: 60_000,
  });
  const deps2 = new Map(deps).set(oracleAddress(realPool.address!), oracle);
  const s2 = adapter.buildState(d2, adaptiveData, deps2, CLOCK)!;
  assert.notEqual(s2.adaptiveFee, null);
  assert.equal(adapter.clockSensitive!(s2), true);
  const rec2 = emptyRecord();
  adapter.toRecord(s2, rec2);
  const { ticks: _t3, ...c } = s2;
  const { ticks: _t4, ...d } = adapter.fromRecord(rec2);
  assert.deepEqual(d, c);
  assert.ok(adapter.feeBps(floatRecordOf(adapter, s2)) > adapter.feeBps(floatRecordOf(adapter, state)), 'the adaptive part shows in the fee');
});

test('quote through the contract; a record-only state holds no arrays and answers DEPTH_UNKNOWN', () => {
  const { desc, deps } = setup();
  const state = adapter.buildState(desc, realPool.data, deps, CLOCK)!;
  const q = adapter.quote(state, true, 1_000_000_000n, 'ExactIn');
  assert.equal(q.status, 'OK');
  assert.equal(q.feeOnInput, true);
  const back = adapter.quote(state, false, q.outAmount, 'ExactIn');
  assert.equal(back.status, 'OK');
  assert.ok(back.outAmount < 1_000_000_000n, 'a round trip loses the fees');
  const rec = emptyRecord();
  adapter.toRecord(state, rec);
  assert.equal(adapter.quote(adapter.fromRecord(rec), true, 1_000_000_000n, 'ExactIn').status, 'DEPTH_UNKNOWN');
  assert.equal(adapter.quote(state, true, 0n, 'ExactIn').status, 'ZERO_AMOUNT');
});

test('the f64 estimate is within 1e-9 of the exact quote inside one liquidity range; the marginal rate bounds it', () => {
  const { desc, deps } = setup();
  const state = adapter.buildState(desc, realPool.data, deps, CLOCK)!;
  const f = floatRecordOf(adapter, state);
  for (const aToB of [true, false]) {
    for (let x = 1e6; x <= 1e12; x *= 10) {
      const exact = adapter.quote(state, aToB, BigInt(x), 'ExactIn');
      assert.equal(exact.status, 'OK');
      const est = adapter.estimateOut(f, aToB, x);
      const rel = Math.abs(est - Number(exact.outAmount)) / Number(exact.outAmount);
      assert.ok(rel < 1e-9 || Math.abs(est - Number(exact.outAmount)) <= 2, `aToB=${aToB} x=${x} est=${est} exact=${exact.outAmount}`);
      assert.ok(est <= adapter.marginalRate(f, aToB) * x * (1 + 1e-12));
    }
  }
  assert.equal(adapter.estimateOut(f, true, 0), 0);
  assert.equal(adapter.estimateOut({ ...f, status: 1 }, true, 1e6), 0);
  assert.equal(adapter.marginalRate({ ...f, status: 1 }, true), 0);
});

test('swap_v2 equals the SDK builder: accounts, roles and data; PDAs as the SDK derives them', async () => {
  const { desc, deps, w } = setup();
  const c = sdkClient();
  const accounts = new Map(deps).set(desc.address, realPool.data);
  const user = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
  const src = 'Cxzq5y2hYkzQHkUe4nAhdDLXngyWFHrYU3XJ9yStoLZV';
  const dst = '7o36UsWR1JQLpZ9PE2gn9L4SQ69CNNiWAXd4Jt7rqz9Z';
  for (const aToB of [true, false]) {
    for (const mode of ['ExactIn', 'ExactOut'] as const) {
      const ours = adapter.swapInstruction({ pool: desc, accounts, user, userSourceTokenAccount: src, userDestinationTokenAccount: dst, aToB, mode, amount: 123_456n, otherAmountThreshold: 789n });
      const starts = swapTickArrayStarts(w.tickCurrentIndex, w.tickSpacing, aToB);
      const pdas = await Promise.all(starts.map(async (s) => (await c.getTickArrayAddress(desc.address as never, s))[0]));
      const oracle = (await c.getOracleAddress(desc.address as never))[0];
      const sdk = c.getSwapV2Instruction({
        tokenProgramA: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' as never, tokenProgramB: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' as never,
        tokenAuthority: { address: user, signTransactions: () => Promise.resolve([]) } as never, whirlpool: desc.address as never, tokenMintA: w.tokenMintA as never, tokenMintB: w.tokenMintB as never,
        tokenOwnerAccountA: (aToB ? src : dst) as never, tokenVaultA: w.tokenVaultA as never,
        tokenOwnerAccountB: (aToB ? dst : src) as never, tokenVaultB: w.tokenVaultB as never,
        tickArray0: pdas[0]!, tickArray1: pdas[1]!, tickArray2: pdas[2]!, oracle,
        amount: 123_456n, otherAmountThreshold: 789n, sqrtPriceLimit: 0n, amountSpecifiedIsInput: mode === 'ExactIn', aToB, remainingAccountsInfo: null,
      });
      assert.equal(ours.programId, sdk.programAddress);
      assert.deepEqual(ours.keys.map((k) => k.pubkey), sdk.accounts.map((k) => k.address));
      // kit roles: bit 0 writable, bit 1 signer.
      assert.deepEqual(ours.keys.map((k) => (k.isWritable ? 1 : 0) | (k.isSigner ? 2 : 0)), sdk.accounts.map((k) => k.role as number));
      assert.deepEqual([...ours.data], [...sdk.data]);
    }
  }
});

test('accountsPerSwap equals the most accounts the built instructions reference; execute is not built', () => {
  const { desc, deps } = setup();
  const counts = swapAccountCounts(adapter as DexAdapter, [{ desc, accounts: new Map(deps).set(desc.address, realPool.data) }]);
  assert.equal(adapter.accountsPerSwap, Math.max(...counts));
  assert.equal(adapter.dynamicAccounts, true);
  assert.throws(() => adapter.execute(desc, deps, true, 1n, 'ExactIn', CLOCK), (e: Error & { code?: string }) => e.code === 'WHIRLPOOL_EXECUTE_NOT_BUILT');
});
