/**
 * A swap's whole input goes into its input vault (base for sells, quote for buys), which holds the reserve plus the
 * unclaimed protocol, partner and creator fees of that token: after its slippage check and apply_swap_result the
 * program's transfer from the user fails in the token program (Overflow) when the vault would pass u64, even where
 * the program's own checked `reserve + input excluding fees` fits. The quote refuses such a swap in both modes and
 * directions (INSUFFICIENT_LIQUIDITY, failure `TokenOverflow`, the amounts computed), and the float estimate does
 * not rank it.
 *
 * On real mainnet pools (their VirtualPool and PoolConfig bytes, mainnet-fixture.ts): the vaults are read from the
 * pool's recorded reserves and fees; to bring a vault near u64 (no real vault is) one unclaimed protocol fee field
 * of the real pool is raised, everything else (curve, fees, price, reserves) is the pool's own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { floatRecordOf } from '../testing/record-helpers.js';
import { PARAM_F64_WORDS, PARAM_U64_WORDS, type RecordFields } from '../types.js';
import { meteoraDbcAdapter as adapter } from './adapter.js';
import { U64_MAX } from './curve-math.js';
import { describeDbcPool } from './descriptor.js';
import { type VirtualPoolFields, decodePoolConfig, decodeVirtualPool, encodeVirtualPool } from './layout.js';
import { DBC_MAINNET_FEE_IN_BOTH, DBC_MAINNET_FEE_IN_QUOTE, type DbcMainnetSet } from './testing/mainnet-fixture.js';
import type { DbcSwap } from './quote.js';
import { f64CollectFeeMode, f64RateLimiterIncrement, f64VariableFee } from './record.js';
import { DBC_STATUS_OK, type DbcState } from './state.js';

/** The real pool's state, with `patch` applied to its VirtualPool fields. */
function mainnetState(set: DbcMainnetSet, patch: (p: VirtualPoolFields) => Partial<VirtualPoolFields> = () => ({})): { state: DbcState; pool: VirtualPoolFields } {
  const real = decodeVirtualPool(Buffer.from(set.poolBase64, 'base64'));
  const pool: VirtualPoolFields = { ...real, ...patch(real) };
  const poolData = encodeVirtualPool(pool);
  const configData = Buffer.from(set.configBase64, 'base64');
  const desc = describeDbcPool(set.poolAddress, poolData, configData);
  assert.ok(desc);
  const state = adapter.buildState(desc, poolData, new Map([[set.configAddress, configData]]), set.clock);
  assert.ok(state);
  assert.equal(state.status, DBC_STATUS_OK);
  return { state, pool };
}

const quoteFees = (p: VirtualPoolFields): bigint => p.protocolQuoteFee + p.partnerQuoteFee + p.creatorQuoteFee;
const baseFees = (p: VirtualPoolFields): bigint => p.protocolBaseFee + p.partnerBaseFee + p.creatorBaseFee;
/** Raises the unclaimed protocol fee of one token so that its vault holds u64 - `room`. */
const quoteVaultAt = (room: bigint) => (p: VirtualPoolFields) => ({ protocolQuoteFee: p.protocolQuoteFee + U64_MAX - room - p.quoteReserve - quoteFees(p) });
const baseVaultAt = (room: bigint) => (p: VirtualPoolFields) => ({ protocolBaseFee: p.protocolBaseFee + U64_MAX - room - p.baseReserve - baseFees(p) });

test('the vaults are the reserves plus the unclaimed fees the real pools record', () => {
  const both = mainnetState(DBC_MAINNET_FEE_IN_BOTH);
  assert.equal(both.state.baseVault, 722_427_194_010_288n + 11_533_551_915_842n + 46_134_207_664_366n);
  assert.equal(both.state.quoteVault, 11_725_382_491n + 1_367_436_862n + 6_506_421_206n);
  const quote = mainnetState(DBC_MAINNET_FEE_IN_QUOTE);
  assert.equal(quote.state.baseVault, quote.pool.baseReserve);
  assert.equal(quote.state.quoteVault, 7_018_473_489n + 1_555_532_073n + 204_761_889n + 381_745_273n);
});

test('mainnet 7eLuxTUg (fees in quote): a buy that takes the quote vault past u64 is refused, one that fills it is quoted', () => {
  const { state } = mainnetState(DBC_MAINNET_FEE_IN_QUOTE, quoteVaultAt(1_000_000n));
  assert.equal(state.quoteVault, U64_MAX - 1_000_000n);
  const fits = adapter.quote(state, false, 1_000_000n, 'ExactIn') as DbcSwap;
  assert.equal(fits.status, 'OK', 'filling the vault to exactly u64 is allowed');
  assert.equal(fits.failure, null);
  assert.ok(fits.outAmount > 0n);
  const over = adapter.quote(state, false, 1_000_001n, 'ExactIn') as DbcSwap;
  assert.equal(over.status, 'INSUFFICIENT_LIQUIDITY');
  assert.equal(over.failure, 'TokenOverflow');
  assert.equal(over.inAmount, 1_000_001n);
  assert.ok(over.outAmount > 0n && over.excludedFeeInputAmount < over.inAmount, 'the amounts the program computed (fee on the input)');
  // The program's own check (quote reserve + input excluding the fee) passes: only the transfer fails.
  assert.ok(state.quoteReserve + over.excludedFeeInputAmount <= U64_MAX);
  // Exact-out: an output whose input passes the room is refused; a small one is quoted.
  const big = adapter.quote(state, false, fits.outAmount * 2n, 'ExactOut') as DbcSwap;
  assert.equal(big.status, 'INSUFFICIENT_LIQUIDITY');
  assert.equal(big.failure, 'TokenOverflow');
  assert.ok(big.inAmount > 1_000_000n);
  const small = adapter.quote(state, false, fits.outAmount / 2n, 'ExactOut') as DbcSwap;
  assert.equal(small.status, 'OK');
  assert.ok(small.inAmount <= 1_000_000n);
  // Sells pay into the base vault, far from u64.
  assert.equal(adapter.quote(state, true, 1_000_000_000n, 'ExactIn').status, 'OK');
});

test('mainnet EWJ2mDW9 (fees in both tokens): a sell that takes the base vault past u64 is refused, one that fills it is quoted', () => {
  const room = 1_000_000_000n;
  const { state } = mainnetState(DBC_MAINNET_FEE_IN_BOTH, baseVaultAt(room));
  assert.equal(state.baseVault, U64_MAX - room);
  const fits = adapter.quote(state, true, room, 'ExactIn') as DbcSwap;
  assert.equal(fits.status, 'OK');
  assert.equal(fits.failure, null);
  const over = adapter.quote(state, true, room + 1n, 'ExactIn') as DbcSwap;
  assert.equal(over.status, 'INSUFFICIENT_LIQUIDITY');
  assert.equal(over.failure, 'TokenOverflow');
  assert.ok(over.outAmount > 0n);
  assert.ok(state.baseReserve + over.excludedFeeInputAmount <= U64_MAX, 'the program\'s reserve check alone would pass');
  const big = adapter.quote(state, true, fits.outAmount * 2n, 'ExactOut') as DbcSwap;
  assert.equal(big.failure, 'TokenOverflow');
  assert.equal(adapter.quote(state, true, fits.outAmount / 2n, 'ExactOut').status, 'OK');
  // Buys pay into the quote vault.
  assert.equal(adapter.quote(state, false, 1_000_000n, 'ExactIn').status, 'OK');
  // The quote vault near u64 on the same pool refuses buys instead.
  const q = mainnetState(DBC_MAINNET_FEE_IN_BOTH, quoteVaultAt(1_000n)).state;
  assert.equal(adapter.quote(q, false, 1_000n, 'ExactIn').status, 'OK');
  assert.equal((adapter.quote(q, false, 1_001n, 'ExactIn') as DbcSwap).failure, 'TokenOverflow');
  assert.equal(adapter.quote(q, true, room, 'ExactIn').status, 'OK');
});

test('the vaults survive the slab record; estimateOut does not rank an input that overflows its vault', () => {
  for (const [set, aToB, patch] of [[DBC_MAINNET_FEE_IN_QUOTE, false, quoteVaultAt(10_000_000n)], [DBC_MAINNET_FEE_IN_BOTH, true, baseVaultAt(10_000_000n)]] as const) {
    const { state } = mainnetState(set, patch);
    const rec: RecordFields = { status: 0, reserveA: 0n, reserveB: 0n, u64: new Array<bigint>(PARAM_U64_WORDS).fill(0n), f64: new Array<number>(PARAM_F64_WORDS).fill(0) };
    adapter.toRecord(state, rec);
    assert.deepEqual(adapter.fromRecord(rec), state);
    const f = floatRecordOf(adapter, state);
    // Float precision at 2^64 is 4,096 atoms: well inside and well past the 1e7 room.
    assert.ok(adapter.estimateOut(f, aToB, 9_000_000) > 0, `aToB=${aToB}: an input that fits is ranked`);
    assert.equal(adapter.estimateOut(f, aToB, 11_000_000), 0, `aToB=${aToB}`);
    assert.ok(adapter.estimateOut(f, !aToB, 11_000_000) > 0, 'the other vault is far from u64');
    // And the real pool (vaults far from u64) ranks the same input.
    assert.ok(adapter.estimateOut(floatRecordOf(adapter, mainnetState(set).state), aToB, 11_000_000) > 0);
  }
});

test('the packed fee word reads back the variable fee, the limiter increment and the collect fee mode', () => {
  const cfg = decodePoolConfig(Buffer.from(DBC_MAINNET_FEE_IN_BOTH.configBase64, 'base64'));
  assert.equal(cfg.collectFeeMode, 1);
  const { state } = mainnetState(DBC_MAINNET_FEE_IN_BOTH);
  const s: DbcState = { ...state, variableFeeNumerator: 989_999_999n, rateLimiter: { cliffFeeNumerator: state.baseFeeNumerator, feeIncrementBps: 65_535, referenceAmount: 10n ** 9n } };
  const rec: RecordFields = { status: 0, reserveA: 0n, reserveB: 0n, u64: new Array<bigint>(PARAM_U64_WORDS).fill(0n), f64: new Array<number>(PARAM_F64_WORDS).fill(0) };
  adapter.toRecord(s, rec);
  assert.deepEqual(adapter.fromRecord(rec), s);
  const f = floatRecordOf(adapter, s);
  assert.equal(f64VariableFee(f.f64), 989_999_999);
  assert.equal(f64RateLimiterIncrement(f.f64), 65_535 * 100_000, 'bps * 1e9 / 1e4');
  assert.equal(f64CollectFeeMode(f.f64), 1);
  assert.equal(adapter.feeBps(f), Math.min(Number(s.baseFeeNumerator) + 989_999_999, 990e6) / 1e5);
  const mode0 = floatRecordOf(adapter, { ...s, collectFeeMode: 0, rateLimiter: null, variableFeeNumerator: 0n });
  assert.deepEqual([f64VariableFee(mode0.f64), f64RateLimiterIncrement(mode0.f64), f64CollectFeeMode(mode0.f64)], [0, 0, 0]);
});
