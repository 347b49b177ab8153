import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { tokenAccountAmount } from '../common/spl-layouts.js';
import { PARAM_F64_WORDS, PARAM_U64_WORDS, UNKNOWN_DECIMALS, type RecordF64, type RecordFields, type SwapMode } from '../types.js';
import { meteoraDbcAdapter as adapter } from './adapter.js';
import { describeDbcPool } from './descriptor.js';
import { deltaBinId } from './execute.js';
import { SWAP2_DISCRIMINATOR, SYSVAR_INSTRUCTIONS_ID } from './instruction.js';
import { DBC_PROGRAM_ID, POOL_CONFIG_DISCRIMINATOR, VIRTUAL_POOL_DISCRIMINATOR, decodeVirtualPool } from './layout.js';
import type { DbcSwap } from './quote.js';
import { configToSdk, loadSdkCoder, poolToSdk } from './testing/sdk-coder.js';
import { DBC_STATUS_CURVE_COMPLETE, DBC_STATUS_MIGRATED, DBC_STATUS_NOT_ACTIVATED, DBC_STATUS_OK, type DbcState } from './state.js';
import { type DbcFixtureOptions, dbcFixture, testClock } from './testing/test-fixture.js';
import { labelKey } from './testing/random-states.js';
import { emptyRecord } from '../testing/record-helpers.js';
import { swapAccountCounts } from '../testing/swap-account-counts.js';
import type { DexAdapter } from '../types.js';

const require = createRequire(import.meta.url);
const web3 = require('@solana/web3.js') as typeof import('@solana/web3.js');
const anchor = require('@coral-xyz/anchor') as { BorshInstructionCoder: new (idl: unknown) => { decode(d: Buffer): { name: string; data: Record<string, { toString(): string } | number> } | null } };
const sdk = require('@meteora-ag/dynamic-bonding-curve-sdk') as { DynamicBondingCurveIdl: unknown; PoolService: new (c: unknown, commitment: string) => Record<string, unknown> };

function setup(o: DbcFixtureOptions = {}, clock = testClock()) {
  const fx = dbcFixture(o);
  const poolData = fx.accounts.get(fx.poolAddress)!;
  // As ingest does: the config the pool names is read first and passed as an input.
  const desc = adapter.decodePool(fx.poolAddress, poolData, undefined, configInput(fx));
  assert.ok(desc);
  const state = adapter.buildState(desc, poolData, fx.accounts, clock);
  assert.ok(state);
  return { fx, poolData, desc, state };
}

function configInput(fx: ReturnType<typeof dbcFixture>): Map<string, { owner: string; data: Uint8Array }> {
  return new Map([[fx.pool.config, { owner: DBC_PROGRAM_ID, data: fx.accounts.get(fx.pool.config)! }]]);
}


function floatRecord(rec: RecordFields): RecordF64 {
  return { status: rec.status, reserveA: Number(rec.reserveA), reserveB: Number(rec.reserveB), f64: Float64Array.from(rec.f64), ext: rec.ext ? Float64Array.from(rec.ext.f64) : null };
}

const scheduler = { baseFeeMode: 0, cliffFeeNumerator: 500_000_000n, firstFactor: 100, secondFactor: 10n, thirdFactor: 4_900_000n };
const dynamic = { dynamicFeeInitialized: 1, binStep: 1, binStepU128: (1n << 64n) / 10_000n, variableFeeControl: 1_000_000, maxVolatilityAccumulator: 300_000, filterPeriod: 10, decayPeriod: 120, reductionFactor: 5_000 };

test('filters, isPool and decodePool', () => {
  const { fx, desc } = setup();
  assert.equal(adapter.programId, DBC_PROGRAM_ID);
  assert.equal(adapter.poolFilters[0]!.dataSize, 424);
  assert.deepEqual(adapter.poolFilters[0]!.memcmp![0]!.bytes, VIRTUAL_POOL_DISCRIMINATOR);
  assert.equal(adapter.auxFilters[0]!.dataSize, 1048);
  assert.deepEqual(adapter.auxFilters[0]!.memcmp![0]!.bytes, POOL_CONFIG_DISCRIMINATOR);
  assert.equal(adapter.isPool(fx.accounts.get(fx.poolAddress)!), true);
  assert.equal(adapter.isPool(fx.accounts.get(fx.pool.config)!), false);
  assert.equal(adapter.decodePool('x', fx.accounts.get(fx.pool.config)!), null);
  assert.deepEqual(adapter.descriptorInputs!(fx.accounts.get(fx.poolAddress)!), [fx.pool.config]);
  // Without the config: the quote mint from the vault PDA, base decimals unknown (ingest reads the mint).
  assert.equal(adapter.decodePool(fx.poolAddress, fx.accounts.get(fx.poolAddress)!)!.decimalsA, UNKNOWN_DECIMALS);
  // A config input not owned by the program is ignored.
  const forged = new Map([[fx.pool.config, { owner: '11111111111111111111111111111111', data: fx.accounts.get(fx.pool.config)! }]]);
  assert.equal(adapter.decodePool(fx.poolAddress, fx.accounts.get(fx.poolAddress)!, undefined, forged)!.decimalsA, UNKNOWN_DECIMALS);
  assert.deepEqual(desc, {
    address: fx.poolAddress, dex: 'meteora-dbc', programId: DBC_PROGRAM_ID, mintA: fx.pool.baseMint,
    mintB: 'So11111111111111111111111111111111111111112', decimalsA: 6, decimalsB: 9, dependencies: [fx.pool.config],
  });
  // With the config at hand the descriptor is exact, whatever the quote mint.
  const usdc = dbcFixture({ config: { quoteMint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', tokenDecimal: 9 } }, 'usdc');
  const d2 = describeDbcPool(usdc.poolAddress, usdc.accounts.get(usdc.poolAddress)!, usdc.accounts.get(usdc.pool.config)!);
  assert.equal(d2?.mintB, 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
  assert.equal(d2?.decimalsA, 9);
  assert.equal(adapter.decodePool(usdc.poolAddress, usdc.accounts.get(usdc.poolAddress)!)?.decimalsB, 6);
  const other = dbcFixture({ config: { quoteMint: labelKey('other-quote') } }, 'other');
  assert.equal(adapter.decodePool(other.poolAddress, other.accounts.get(other.poolAddress)!), null);
  assert.equal(adapter.decodePool(other.poolAddress, other.accounts.get(other.poolAddress)!, undefined, configInput(other))?.mintB, labelKey('other-quote'), 'with the config, any quote mint');
});

test('buildState: statuses, fee as of the clock, clock sensitivity', () => {
  const { state, desc, fx, poolData } = setup();
  assert.equal(state.status, DBC_STATUS_OK);
  assert.equal(state.baseFeeNumerator, 10_000_000n);
  assert.equal(adapter.clockSensitive!(state), false);
  assert.equal(setup({ pool: { isMigrated: 1 } }).state.status, DBC_STATUS_MIGRATED);
  assert.equal(setup({ progress: 1 }).state.status, DBC_STATUS_CURVE_COMPLETE);
  const early = setup({ pool: { activationPoint: 300_000_100n } }).state;
  assert.equal(early.status, DBC_STATUS_NOT_ACTIVATED);
  assert.equal(adapter.clockSensitive!(early), true);
  assert.equal(adapter.quote(early, false, 1_000_000n, 'ExactIn').status, 'INACTIVE');
  // Linear scheduler: 50% cliff, -0.49% per 10 slots for 100 periods; 1,000,000 slots after activation = done.
  const moving = setup({ config: scheduler, pool: { activationPoint: 300_000_000n - 205n } }).state;
  assert.equal(moving.baseFeeNumerator, 500_000_000n - 20n * 4_900_000n);
  assert.equal(adapter.clockSensitive!(moving), true);
  const done = setup({ config: scheduler }).state;
  assert.equal(done.baseFeeNumerator, 500_000_000n - 100n * 4_900_000n);
  assert.equal(adapter.clockSensitive!(done), false);
  // Timestamp activation reads the clock's unix time.
  const ts = setup({ config: { ...scheduler, activationType: 1 }, pool: { activationPoint: 1_800_000_000n - 55n } }).state;
  assert.equal(ts.baseFeeNumerator, 500_000_000n - 5n * 4_900_000n);
  // Dynamic fee from the stored accumulator: ceil((acc * bin_step)^2 * control / 1e11).
  const dyn = setup({ config: dynamic, pool: { volatilityAccumulator: 100_000n } }).state;
  assert.equal(dyn.variableFeeNumerator, (100_000n ** 2n * 1_000_000n + 99_999_999_999n) / 100_000_000_000n);
  assert.equal(adapter.clockSensitive!(dyn), false, 'the decay only moves the reference, not the next quote');
  const missing = new Map(fx.accounts);
  missing.delete(fx.pool.config);
  assert.equal(adapter.buildState(desc, poolData, missing, testClock()), null);
});

test('decode -> buildState -> toRecord -> fromRecord round trip (ext included); quotes agree', () => {
  const variants: DbcFixtureOptions[] = [
    {}, { progress: 0 }, { progress: 0.98 }, { config: { ...scheduler, collectFeeMode: 1, creatorTradingFeePercentage: 0 }, pool: { activationPoint: 300_000_000n - 333n } },
    { config: { ...dynamic, baseFeeMode: 1, firstFactor: 50, secondFactor: 5n, thirdFactor: 300n, cliffFeeNumerator: 300_000_000n }, pool: { volatilityAccumulator: 40_000n, activationPoint: 300_000_000n - 77n } },
    { config: { baseFeeMode: 2, cliffFeeNumerator: 10_000_000n, firstFactor: 10, secondFactor: 1_000n, thirdFactor: 1_000_000_000n }, pool: { activationPoint: 300_000_000n - 10n } },
    { pool: { isMigrated: 1 } },
  ];
  let quotes = 0;
  for (const o of variants) {
    const { state } = setup(o);
    const rec = emptyRecord();
    adapter.toRecord(state, rec);
    assert.equal(rec.u64.length, PARAM_U64_WORDS);
    assert.equal(rec.f64.length, PARAM_F64_WORDS);
    assert.ok(rec.ext && rec.ext.u64.length === state.curve.length * 4 && rec.ext.f64.length === state.curve.length * 2);
    const back: DbcState = adapter.fromRecord(rec);
    assert.deepEqual(back, state);
    for (const x of [...rec.f64, ...rec.ext.f64]) assert.ok(Number.isFinite(x) && x >= 0);
    for (const aToB of [true, false]) {
      for (const mode of ['ExactIn', 'ExactOut'] as SwapMode[]) {
        for (const amount of [1n, 1_000n, 1_000_000_000n, 5_000_000_000_000n, 10n ** 17n]) {
          assert.deepEqual(adapter.quote(back, aToB, amount, mode), adapter.quote(state, aToB, amount, mode));
          quotes++;
        }
      }
    }
  }
  assert.equal(quotes, variants.length * 20);
});

test('marginalRate, estimateOut and feeBps read the float record', () => {
  const { state } = setup({ config: dynamic, pool: { volatilityAccumulator: 50_000n } });
  const rec = emptyRecord();
  adapter.toRecord(state, rec);
  const f = floatRecord(rec);
  const fee = Number(state.baseFeeNumerator + state.variableFeeNumerator) / 1e9;
  assert.ok(Math.abs(adapter.feeBps(f) - fee * 1e4) < 1e-9);
  const s = Number(state.sqrtPrice) / 2 ** 64;
  assert.ok(Math.abs(adapter.marginalRate(f, true) / (s * s * (1 - fee)) - 1) < 1e-12);
  assert.ok(Math.abs(adapter.marginalRate(f, false) / ((1 - fee) / (s * s)) - 1) < 1e-12);
  for (const [aToB, x] of [[true, 200_000_000_000n], [false, 2_000_000_000n]] as const) {
    const exact = adapter.quote(state, aToB, x, 'ExactIn');
    assert.equal(exact.status, 'OK');
    const est = adapter.estimateOut(f, aToB, Number(x));
    assert.ok(Math.abs(est / Number(exact.outAmount) - 1) < 1e-9, `${est} vs ${exact.outAmount}`);
  }
  assert.equal(adapter.marginalRate({ ...f, status: DBC_STATUS_MIGRATED }, true), 0);
  assert.equal(adapter.estimateOut({ ...f, status: DBC_STATUS_MIGRATED }, true, 1e9), 0);
});

test('execute moves tokens, reserves, fee accumulators and the volatility tracker as the program does', () => {
  let cases = 0;
  for (const collectFeeMode of [0, 1]) {
    for (const aToB of [true, false]) {
      for (const mode of ['ExactIn', 'ExactOut'] as SwapMode[]) {
        const o: DbcFixtureOptions = { config: { ...dynamic, collectFeeMode }, pool: { volatilityAccumulator: 20_000n, volatilityReference: 10_000n, lastUpdateTimestamp: 1_800_000_000n - 60n, sqrtPriceReference: 1n } };
        const { fx, desc, state } = setup(o);
        const amount = aToB ? (mode === 'ExactIn' ? 200_000_000_000n : 1_000_000_000n) : (mode === 'ExactIn' ? 3_000_000_000n : 100_000_000_000n);
        const res = adapter.execute(desc, fx.accounts, aToB, amount, mode, testClock());
        const q = res.quote as DbcSwap;
        assert.equal(q.status, 'OK');
        assert.equal(mode === 'ExactIn' ? q.inAmount : q.outAmount, amount);
        const w = new Map(res.writes.map((x) => [x.address, x.data]));
        assert.equal(res.writes.length, 3);
        const [inV, outV] = aToB ? [fx.pool.baseVault, fx.pool.quoteVault] : [fx.pool.quoteVault, fx.pool.baseVault];
        // Tokens are conserved: what the user pays lands in the input vault, what the user gets leaves the output vault.
        assert.equal(tokenAccountAmount(w.get(inV)!) - tokenAccountAmount(fx.accounts.get(inV)!), q.inAmount);
        assert.equal(tokenAccountAmount(fx.accounts.get(outV)!) - tokenAccountAmount(w.get(outV)!), q.outAmount);
        const before = decodeVirtualPool(fx.accounts.get(fx.poolAddress)!);
        const after = decodeVirtualPool(w.get(fx.poolAddress)!);
        const [rin0, rout0, rin1, rout1] = aToB
          ? [before.baseReserve, before.quoteReserve, after.baseReserve, after.quoteReserve]
          : [before.quoteReserve, before.baseReserve, after.quoteReserve, after.baseReserve];
        assert.equal(rin1 - rin0, q.excludedFeeInputAmount);
        assert.equal(rout0 - rout1, q.reserveOutAmount);
        // The fee: in the input (quote-in, mode 0) or kept in the output reserve; booked to partner/creator/protocol.
        assert.equal(q.inAmount - q.excludedFeeInputAmount + (q.reserveOutAmount - q.outAmount), q.tradingFee + q.protocolFee);
        const onBase = collectFeeMode === 1 && !aToB;
        const d = (k: keyof typeof before): bigint => (after[k] as bigint) - (before[k] as bigint);
        assert.equal(d(onBase ? 'partnerBaseFee' : 'partnerQuoteFee'), q.partnerFee);
        assert.equal(d(onBase ? 'creatorBaseFee' : 'creatorQuoteFee'), q.creatorFee);
        assert.equal(d(onBase ? 'protocolBaseFee' : 'protocolQuoteFee'), q.protocolFee);
        assert.equal(d(onBase ? 'totalTradingBaseFee' : 'totalTradingQuoteFee'), q.tradingFee);
        assert.equal(q.partnerFee + q.creatorFee, q.tradingFee);
        assert.equal(q.creatorFee, (q.tradingFee * 25n) / 100n);
        assert.ok(q.protocolFee > 0n && q.tradingFee > 0n);
        assert.equal(after.sqrtPrice, q.nextSqrtPrice);
        assert.equal(after.hasSwap, 1);
        // Volatility: 60 s elapsed (>= filter 10, < decay 120): reference = acc * 50%, price reference = old price.
        assert.equal(after.sqrtPriceReference, before.sqrtPrice);
        assert.equal(after.volatilityReference, 10_000n);
        const delta = deltaBinId((1n << 64n) / 10_000n, after.sqrtPrice, before.sqrtPrice) as bigint;
        assert.equal(after.volatilityAccumulator, [10_000n + delta * 10_000n, 300_000n].reduce((a, b) => (a < b ? a : b)));
        assert.equal(after.lastUpdateTimestamp, delta > 0n ? 1_800_000_000n : before.lastUpdateTimestamp);
        // State after = quote of the next swap from the new pool.
        const next = new Map(fx.accounts);
        for (const x of res.writes) next.set(x.address, x.data);
        const s2 = adapter.buildState(desc, next.get(fx.poolAddress)!, next, testClock())!;
        assert.equal(s2.sqrtPrice, q.nextSqrtPrice);
        assert.ok(aToB ? s2.sqrtPrice < state.sqrtPrice : s2.sqrtPrice > state.sqrtPrice);
        cases++;
      }
    }
  }
  assert.equal(cases, 8);
});

test('execute completes the curve and writes nothing unless OK', () => {
  const { fx, desc, state } = setup({ progress: 0.9 });
  const toEnd = state.migrationQuoteThreshold - state.quoteReserve;
  const big = adapter.execute(desc, fx.accounts, false, toEnd * 2n, 'ExactIn', testClock());
  assert.equal(big.quote.status, 'INSUFFICIENT_LIQUIDITY');
  assert.deepEqual(big.writes, []);
  // Buy exactly the base that is left to the migration price: the curve completes.
  const rest = adapter.quote(state, false, toEnd, 'ExactIn');
  const qOut = adapter.quote(state, false, rest.outAmount, 'ExactOut');
  const r = adapter.execute(desc, fx.accounts, false, qOut.inAmount, 'ExactIn', testClock());
  assert.equal(r.quote.status, 'OK');
  const after = decodeVirtualPool(r.writes[0]!.data);
  if (after.quoteReserve >= state.migrationQuoteThreshold) {
    assert.equal(after.migrationProgress, 2);
    assert.equal(after.finishCurveTimestamp, 1_800_000_000n);
    const s2 = adapter.buildState(desc, r.writes[0]!.data, fx.accounts, testClock())!;
    assert.equal(s2.status, DBC_STATUS_CURVE_COMPLETE);
  }
  const migrated = setup({ pool: { isMigrated: 1 } });
  const m = adapter.execute(migrated.desc, migrated.fx.accounts, false, 1_000_000n, 'ExactIn', testClock());
  assert.equal(m.quote.status, 'INACTIVE');
  assert.deepEqual(m.writes, []);
  const noConfig = new Map(fx.accounts);
  noConfig.delete(fx.pool.config);
  assert.throws(() => adapter.execute(desc, noConfig, true, 1n, 'ExactIn', testClock()), { name: 'EngineError', code: 'DBC_MISSING_ACCOUNT' });
});

test('swapInstruction: data decodes with the IDL; accounts equal the SDK swap2 builder', async () => {
  const coder = new anchor.BorshInstructionCoder(sdk.DynamicBondingCurveIdl);
  const { fx, desc } = setup();
  const user = labelKey('user');
  const src = labelKey('src');
  const dst = labelKey('dst');
  const service = new sdk.PoolService(new web3.Connection('http://127.0.0.1:1'), 'confirmed');
  const sdkCoder = loadSdkCoder();
  // Offline: the SDK's account fetch and ATA preparation replaced by what the builder would have read.
  service.getPoolWithConfig = async () => ({
    virtualPool: sdkCoder.decode('virtualPool', encodeFixture(fx, 'pool')),
    poolConfigState: sdkCoder.decode('poolConfig', encodeFixture(fx, 'config')),
  });
  service.prepareTokenAccounts = async () => ({ ataTokenA: new web3.PublicKey(src), ataTokenB: new web3.PublicKey(dst), instructions: [] });
  for (const aToB of [true, false]) {
    for (const mode of ['ExactIn', 'ExactOut'] as SwapMode[]) {
      const ours = adapter.swapInstruction({ pool: desc, accounts: fx.accounts, user, userSourceTokenAccount: src, userDestinationTokenAccount: dst, aToB, mode, amount: 1_000_001n, otherAmountThreshold: 999n });
      assert.deepEqual(Buffer.from(ours.data.subarray(0, 8)), Buffer.from(SWAP2_DISCRIMINATOR));
      const decoded = coder.decode(Buffer.from(ours.data))!;
      assert.equal(decoded.name, 'swap2');
      const params = decoded.data.params as unknown as Record<string, { toString(): string } | number>;
      assert.equal(params.amount_0!.toString(), '1000001');
      assert.equal(params.amount_1!.toString(), '999');
      assert.equal(Number(params.swap_mode), mode === 'ExactIn' ? 0 : 2);
      const build = service.swap2 as (p: unknown) => Promise<{ instructions: { programId: { toBase58(): string }; keys: { pubkey: { toBase58(): string }; isSigner: boolean; isWritable: boolean }[]; data: Buffer }[] }>;
      const tx = await build.call(service, {
        owner: new web3.PublicKey(user), pool: new web3.PublicKey(fx.poolAddress), swapBaseForQuote: aToB, swapMode: mode === 'ExactIn' ? 0 : 2,
        ...(mode === 'ExactIn' ? { amountIn: sdkCoder.BN ? new sdkCoder.BN('1000001') : 0, minimumAmountOut: new sdkCoder.BN('999') } : { amountOut: new sdkCoder.BN('1000001'), maximumAmountIn: new sdkCoder.BN('999') }),
        referralTokenAccount: null,
      });
      const theirs = tx.instructions.find((ix) => ix.programId.toBase58() === DBC_PROGRAM_ID)!;
      assert.equal(ours.programId, theirs.programId.toBase58());
      assert.deepEqual(ours.keys, theirs.keys.map((k) => ({ pubkey: k.pubkey.toBase58(), isSigner: k.isSigner, isWritable: k.isWritable })));
      assert.deepEqual(Buffer.from(ours.data), Buffer.from(theirs.data));
    }
  }
  // A rate-limiter config buying base appends the instructions sysvar (the program's single-swap check).
  const rl = setup({ config: { baseFeeMode: 2, firstFactor: 10, secondFactor: 100n, thirdFactor: 1_000_000n } });
  const ix = adapter.swapInstruction({ pool: rl.desc, accounts: rl.fx.accounts, user, userSourceTokenAccount: src, userDestinationTokenAccount: dst, aToB: false, mode: 'ExactIn', amount: 1n, otherAmountThreshold: 0n });
  assert.equal(ix.keys.at(-1)!.pubkey, SYSVAR_INSTRUCTIONS_ID);
  assert.equal(ix.keys.length, 16);
});

function encodeFixture(fx: ReturnType<typeof dbcFixture>, which: 'pool' | 'config'): Uint8Array {
  // Round trip through the SDK's own objects, so the builder reads exactly what its coder produces.
  const c = loadSdkCoder();
  return which === 'pool' ? c.encode('virtualPool', poolToSdk(fx.pool)) : c.encode('poolConfig', configToSdk(fx.config));
}

test('execute never changes the accounts it is given, also when they are Node Buffers', () => {
  const { fx, desc } = setup();
  const accounts = new Map<string, Uint8Array>([...fx.accounts].map(([k, v]) => [k, Buffer.from(v)]));
  const before = new Map([...accounts].map(([k, v]) => [k, Buffer.from(v)]));
  const r = adapter.execute(desc, accounts, true, 1_000_000_000n, 'ExactIn', testClock());
  assert.ok(r.writes.length > 0);
  for (const [k, v] of accounts) assert.ok(Buffer.from(v).equals(before.get(k)!), `${k} changed in place`);
});

test('capabilities: accountsPerSwap is the most accounts a built swap references (with the instructions sysvar); exact-out both ways', () => {
  const plain = setup();
  const rl = setup({ config: { baseFeeMode: 2, firstFactor: 10, secondFactor: 100n, thirdFactor: 1_000_000n } });
  const counts = swapAccountCounts(adapter as DexAdapter, [plain, rl].map((v) => ({ desc: v.desc, accounts: v.fx.accounts })));
  assert.equal(Math.max(...counts), adapter.accountsPerSwap, counts.join(','));
  assert.equal(Math.min(...counts), 15);
  assert.deepEqual([adapter.exactOut, adapter.exactOutBToA, adapter.dynamicAccounts, adapter.unidirectional], [true, true, false, false]);
});
