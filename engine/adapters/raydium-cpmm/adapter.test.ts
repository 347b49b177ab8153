import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { tokenAccountAmount } from '../common/spl-layouts.js';
import { ADAPTERS, adapterByDex, adapterByProgramId, validateAdapters } from '../registry.js';
import { PARAM_F64_WORDS, PARAM_U64_WORDS, type PoolDescriptor, type SwapMode } from '../types.js';
import { raydiumCpmmAdapter as adapter } from './adapter.js';
import { CPMM_PROGRAM_ID, POOL_STATE_DISCRIMINATOR, decodePoolState, poolAuthority } from './layout.js';
import type { CpmmSwap } from './math.js';
import { bn, loadSdk, sdkSwap } from './testing/sdk-oracle.js';
import { CPMM_STATUS_NOT_OPEN, CPMM_STATUS_OK, CPMM_STATUS_SWAP_DISABLED } from './state.js';
import { SWAP_BASE_INPUT_DISCRIMINATOR, SWAP_BASE_OUTPUT_DISCRIMINATOR } from './instruction.js';
import { type CpmmFixtureOptions, cpmmFixture, testClock, testKey } from './testing/test-fixture.js';
import { emptyRecord } from '../testing/record-helpers.js';
import { swapAccountCounts } from '../testing/swap-account-counts.js';
import type { DexAdapter } from '../types.js';

// The SDK builds instructions from web3.js (CommonJS) PublicKey instances; load the same copy it uses.
const { PublicKey } = createRequire(import.meta.url)('@solana/web3.js') as typeof import('@solana/web3.js');

function setup(o: CpmmFixtureOptions = {}, clock = testClock()) {
  const fx = cpmmFixture(o);
  const poolData = fx.accounts.get(fx.poolAddress)!;
  const desc = adapter.decodePool(fx.poolAddress, poolData);
  assert.ok(desc);
  const state = adapter.buildState(desc, poolData, fx.accounts, clock);
  assert.ok(state);
  return { fx, poolData, desc, state };
}


test('filters, isPool and decodePool', () => {
  const { fx, desc } = setup();
  assert.equal(adapter.programId, CPMM_PROGRAM_ID);
  assert.equal(adapter.poolFilters[0]!.dataSize, 637);
  assert.deepEqual(adapter.poolFilters[0]!.memcmp![0]!.bytes, POOL_STATE_DISCRIMINATOR);
  assert.equal(adapter.auxFilters[0]!.dataSize, 236);
  assert.equal(adapter.isPool(fx.accounts.get(fx.poolAddress)!), true);
  assert.equal(adapter.isPool(fx.accounts.get(fx.poolFields.ammConfig)!), false);
  assert.equal(adapter.decodePool('x', fx.accounts.get(fx.poolFields.token0Vault)!), null);
  const expected: PoolDescriptor = {
    address: fx.poolAddress, dex: 'raydium-cpmm', programId: CPMM_PROGRAM_ID,
    mintA: fx.poolFields.token0Mint, mintB: fx.poolFields.token1Mint, decimalsA: 9, decimalsB: 6,
    dependencies: [fx.poolFields.ammConfig, fx.poolFields.token0Vault, fx.poolFields.token1Vault],
  };
  assert.deepEqual(desc, expected);
});

test('buildState: reserves net of fees, effective creator rate, status', () => {
  const { state } = setup();
  assert.equal(state.reserve0, 2_000_000_000_000n - 1_000n - 300n - 50n);
  assert.equal(state.reserve1, 300_000_000_000n - 2_000n - 400n - 60n);
  assert.equal(state.rates.creatorFeeRate, 500n);
  assert.equal(state.status, CPMM_STATUS_OK);

  assert.equal(setup({ enableCreatorFee: false }).state.rates.creatorFeeRate, 0n);
  assert.equal(setup({ status: 4 }).state.status, CPMM_STATUS_SWAP_DISABLED);
  assert.equal(setup({ status: 3 }).state.status, CPMM_STATUS_OK, 'deposit/withdraw bits do not stop swaps');
  assert.equal(setup({ openTime: 2_000_000_000n }).state.status, CPMM_STATUS_NOT_OPEN);
  assert.equal(setup({ openTime: 1_800_000_000n }).state.status, CPMM_STATUS_OK, 'open at exactly open_time');
  const drained = setup({ vault0: 100n, protocolFees: [90n, 0n], fundFees: [20n, 0n] }).state;
  assert.equal(drained.reserve0, 0n);
  assert.equal(adapter.quote(drained, true, 1000n, 'ExactIn').status, 'INSUFFICIENT_LIQUIDITY');

  const { fx, desc, poolData } = setup();
  const missing = new Map(fx.accounts);
  missing.delete(fx.poolFields.token1Vault);
  assert.equal(adapter.buildState(desc, poolData, missing, testClock()), null);
});

test('decode -> buildState -> toRecord -> fromRecord round trip', () => {
  for (const o of [{}, { creatorFeeOn: 1 }, { creatorFeeOn: 2, enableCreatorFee: false }, { status: 4 }, { tradeFeeRate: 0n, creatorFeeRate: 0n }]) {
    const { state } = setup(o);
    const rec = emptyRecord();
    adapter.toRecord(state, rec);
    assert.equal(rec.u64.length, PARAM_U64_WORDS);
    assert.equal(rec.f64.length, PARAM_F64_WORDS);
    assert.deepEqual(adapter.fromRecord(rec), state);
    for (const x of rec.f64) assert.ok(Number.isFinite(x) && x >= 0);
  }
});

test('marginalRate, estimateOut and feeBps read the float record', () => {
  const { state } = setup();
  const rec = emptyRecord();
  adapter.toRecord(state, rec);
  const f = { status: rec.status, reserveA: Number(rec.reserveA), reserveB: Number(rec.reserveB), f64: rec.f64 };
  const expected = (Number(state.reserve1) / Number(state.reserve0)) * (1 - 3000 / 1e6);
  assert.ok(Math.abs(adapter.marginalRate(f, true) / expected - 1) < 1e-12);
  assert.equal(adapter.feeBps(f), 30);
  const exact = adapter.quote(state, true, 1_000_000_000n, 'ExactIn');
  assert.equal(adapter.estimateOut(f, true, 1e9), Number(exact.outAmount));
  assert.equal(adapter.marginalRate({ ...f, status: CPMM_STATUS_SWAP_DISABLED }, true), 0);
  // creator fee on token 0 only: 1->0 takes it from the output.
  const s2 = setup({ creatorFeeOn: 1 }).state;
  const r2 = emptyRecord();
  adapter.toRecord(s2, r2);
  const f2 = { status: r2.status, reserveA: Number(r2.reserveA), reserveB: Number(r2.reserveB), f64: r2.f64 };
  const e2 = (Number(s2.reserve0) / Number(s2.reserve1)) * (1 - 2500 / 1e6) * (1 - 500 / 1e6);
  assert.ok(Math.abs(adapter.marginalRate(f2, false) / e2 - 1) < 1e-12);
  // A direction the program rejects (creator fee on input, trade + creator == 0) has a zero rate.
  const s3 = setup({ tradeFeeRate: 0n, creatorFeeRate: 0n }).state;
  const r3 = emptyRecord();
  adapter.toRecord(s3, r3);
  const f3 = { status: r3.status, reserveA: Number(r3.reserveA), reserveB: Number(r3.reserveB), f64: r3.f64 };
  assert.equal(adapter.marginalRate(f3, true), 0);
  assert.equal(adapter.quote(s3, true, 1000n, 'ExactIn').status, 'INACTIVE');
});

test('quote statuses and agreement with the SDK on a fixture pool', () => {
  const { state } = setup({ creatorFeeOn: 2 });
  assert.equal(adapter.quote(state, true, 0n, 'ExactIn').status, 'ZERO_AMOUNT');
  assert.equal(adapter.quote(state, true, 0n, 'ExactOut').status, 'ZERO_AMOUNT');
  assert.equal(adapter.quote(state, true, state.reserve1, 'ExactOut').status, 'INSUFFICIENT_LIQUIDITY');
  assert.equal(adapter.quote(state, true, 1n << 64n, 'ExactIn').status, 'INSUFFICIENT_LIQUIDITY');
  assert.equal(adapter.quote(setup({ status: 4 }).state, true, 10n, 'ExactIn').status, 'INACTIVE');
  assert.equal(adapter.quote(state, true, 1n, 'ExactIn').status, 'ZERO_AMOUNT', 'one atom in rounds to nothing');
  // creatorFeeOn 2 with 0->1: creator fee on the output, where the program and the SDK agree exactly.
  const q = adapter.quote(state, true, 5_000_000_000n, 'ExactIn') as CpmmSwap;
  const sdk = sdkSwap('in', 5_000_000_000n, state.reserve0, state.reserve1, state.rates, false)!;
  assert.equal(q.outAmount, sdk.outputAmount);
  assert.equal(q.creatorFee, sdk.creatorFee);
  assert.equal(q.feeAmount, sdk.tradeFee);
  const qo = adapter.quote(state, false, 5_000_000_000n, 'ExactOut');
  const sdkO = sdkSwap('out', 5_000_000_000n, state.reserve1, state.reserve0, state.rates, true)!;
  assert.equal(qo.inAmount, sdkO.inputAmount);
});

test('execute moves tokens and grows fee accumulators as the program does', () => {
  let cases = 0;
  for (const creatorFeeOn of [0, 1, 2]) {
    for (const aToB of [true, false]) {
      for (const mode of ['ExactIn', 'ExactOut'] as SwapMode[]) {
        const { fx, desc, state } = setup({ creatorFeeOn, creatorFeeRate: 7_000n });
        const before = decodePoolState(fx.accounts.get(fx.poolAddress)!);
        const amount = mode === 'ExactIn' ? 12_345_678_901n : 1_234_567_890n;
        const res = adapter.execute(desc, fx.accounts, aToB, amount, mode, testClock());
        const q = res.quote as CpmmSwap;
        assert.equal(q.status, 'OK');
        assert.equal(res.writes.length, 3);
        const w = new Map(res.writes.map((x) => [x.address, x.data]));
        const [inV, outV] = aToB ? [before.token0Vault, before.token1Vault] : [before.token1Vault, before.token0Vault];
        assert.equal(tokenAccountAmount(w.get(inV)!) - tokenAccountAmount(fx.accounts.get(inV)!), q.inAmount);
        assert.equal(tokenAccountAmount(fx.accounts.get(outV)!) - tokenAccountAmount(w.get(outV)!), q.outAmount);
        assert.equal(mode === 'ExactIn' ? q.inAmount : q.outAmount, amount);

        const after = decodePoolState(w.get(fx.poolAddress)!);
        const inIs0 = aToB;
        const creatorOn0 = q.creatorFeeOnInput ? inIs0 : !inIs0;
        assert.equal(q.creatorFeeOnInput, creatorFeeOn === 0 || (creatorFeeOn === 1 && aToB) || (creatorFeeOn === 2 && !aToB));
        assert.ok(q.creatorFee > 0n && q.protocolFee > 0n && q.fundFee > 0n);
        const d = (k: keyof typeof before): bigint => (after[k] as bigint) - (before[k] as bigint);
        assert.equal(d('protocolFeesToken0'), inIs0 ? q.protocolFee : 0n);
        assert.equal(d('protocolFeesToken1'), inIs0 ? 0n : q.protocolFee);
        assert.equal(d('fundFeesToken0'), inIs0 ? q.fundFee : 0n);
        assert.equal(d('fundFeesToken1'), inIs0 ? 0n : q.fundFee);
        assert.equal(d('creatorFeesToken0'), creatorOn0 ? q.creatorFee : 0n);
        assert.equal(d('creatorFeesToken1'), creatorOn0 ? 0n : q.creatorFee);
        assert.equal(after.recentEpoch, 700n);
        assert.deepEqual({ ...after, recentEpoch: 0n, protocolFeesToken0: 0n, protocolFeesToken1: 0n, fundFeesToken0: 0n, fundFeesToken1: 0n, creatorFeesToken0: 0n, creatorFeesToken1: 0n },
          { ...before, recentEpoch: 0n, protocolFeesToken0: 0n, protocolFeesToken1: 0n, fundFeesToken0: 0n, fundFeesToken1: 0n, creatorFeesToken0: 0n, creatorFeesToken1: 0n });

        // The reserves after the swap: the input reserve keeps the LP share of the trade fee.
        const next = new Map(fx.accounts);
        for (const x of res.writes) next.set(x.address, x.data);
        const s2 = adapter.buildState(desc, next.get(fx.poolAddress)!, next, testClock())!;
        const [rin0, rout0] = aToB ? [state.reserve0, state.reserve1] : [state.reserve1, state.reserve0];
        const [rin1, rout1] = aToB ? [s2.reserve0, s2.reserve1] : [s2.reserve1, s2.reserve0];
        assert.equal(rin1, rin0 + q.swappedIn + q.tradeFee - q.protocolFee - q.fundFee);
        assert.equal(rout1, rout0 - q.swappedOut);
        assert.ok(rin1 * rout1 >= rin0 * rout0);
        cases++;
      }
    }
  }
  assert.equal(cases, 12);
});

test('execute writes nothing unless the quote is OK', () => {
  const { fx, desc } = setup({ status: 4 });
  const r = adapter.execute(desc, fx.accounts, true, 1_000_000n, 'ExactIn', testClock());
  assert.equal(r.quote.status, 'INACTIVE');
  assert.deepEqual(r.writes, []);
  const open = setup();
  const r2 = adapter.execute(open.desc, open.fx.accounts, true, open.state.reserve1 + 1n, 'ExactOut', testClock());
  assert.equal(r2.quote.status, 'INSUFFICIENT_LIQUIDITY');
  assert.deepEqual(r2.writes, []);
  const early = adapter.execute(open.desc, open.fx.accounts, true, 1_000_000n, 'ExactIn', testClock(1_600_000_000n));
  assert.equal(early.quote.status, 'INACTIVE');
  const noVault = new Map(open.fx.accounts);
  noVault.delete(open.fx.poolFields.token0Vault);
  assert.throws(() => adapter.execute(open.desc, noVault, true, 1n, 'ExactIn', testClock()), { name: 'EngineError', code: 'CPMM_MISSING_ACCOUNT' });
});

test('swapInstruction matches the SDK builders (keys, flags, data)', () => {
  const { fx, desc } = setup();
  const sdk = loadSdk();
  const user = testKey('user');
  const src = testKey('src');
  const dst = testKey('dst');
  const disc = (n: string): Buffer => createHash('sha256').update(`global:${n}`).digest().subarray(0, 8);
  assert.deepEqual(Buffer.from(SWAP_BASE_INPUT_DISCRIMINATOR), disc('swap_base_input'));
  assert.deepEqual(Buffer.from(SWAP_BASE_OUTPUT_DISCRIMINATOR), disc('swap_base_output'));
  for (const aToB of [true, false]) {
    for (const mode of ['ExactIn', 'ExactOut'] as SwapMode[]) {
      const ours = adapter.swapInstruction({
        pool: desc, accounts: fx.accounts, user, userSourceTokenAccount: src, userDestinationTokenAccount: dst,
        aToB, mode, amount: 1_000_001n, otherAmountThreshold: 999n,
      });
      const p = fx.poolFields;
      const pk = (s: string) => new PublicKey(s);
      const [inV, outV, inP, outP, inM, outM] = aToB
        ? [p.token0Vault, p.token1Vault, p.token0Program, p.token1Program, p.token0Mint, p.token1Mint]
        : [p.token1Vault, p.token0Vault, p.token1Program, p.token0Program, p.token1Mint, p.token0Mint];
      const build = mode === 'ExactIn' ? sdk.makeSwapCpmmBaseInInstruction : sdk.makeSwapCpmmBaseOutInstruction;
      const [arg1, arg2] = mode === 'ExactIn' ? [1_000_001n, 999n] : [999n, 1_000_001n];
      const theirs = build(pk(CPMM_PROGRAM_ID), pk(user), pk(poolAuthority()), pk(p.ammConfig), pk(fx.poolAddress),
        pk(src), pk(dst), pk(inV), pk(outV), pk(inP), pk(outP), pk(inM), pk(outM), pk(p.observationKey), bn(arg1), bn(arg2));
      assert.equal(ours.programId, theirs.programId.toBase58());
      assert.deepEqual(ours.keys, theirs.keys.map((k) => ({ pubkey: k.pubkey.toBase58(), isSigner: k.isSigner, isWritable: k.isWritable })));
      assert.deepEqual(Buffer.from(ours.data), Buffer.from(theirs.data));
    }
  }
});

test('the registry serves this adapter and rejects duplicates', () => {
  assert.ok(ADAPTERS.includes(adapter as never));
  assert.equal(adapterByDex('raydium-cpmm'), adapter);
  assert.equal(adapterByProgramId(CPMM_PROGRAM_ID), adapter);
  assert.equal(adapterByProgramId('11111111111111111111111111111111'), undefined);
  assert.throws(() => validateAdapters([adapter as never, adapter as never]), { name: 'EngineError', code: 'ADAPTER_REGISTRY_INVALID' });
  assert.throws(() => validateAdapters([adapter as never, { ...adapter, dex: 'pumpswap' } as never]), { code: 'ADAPTER_REGISTRY_INVALID' });
  assert.throws(() => validateAdapters([{ ...adapter, dex: 'nope' } as never]), { code: 'ADAPTER_REGISTRY_INVALID' });
});


test('execute never changes the accounts it is given, also when they are Node Buffers', () => {
  const { fx, desc } = setup();
  const accounts = new Map<string, Uint8Array>([...fx.accounts].map(([k, v]) => [k, Buffer.from(v)]));
  const before = new Map([...accounts].map(([k, v]) => [k, Buffer.from(v)]));
  const r = adapter.execute(desc, accounts, true, 1_000_000n, 'ExactIn', testClock());
  assert.ok(r.writes.length > 0);
  for (const [k, v] of accounts) assert.ok(Buffer.from(v).equals(before.get(k)!), `${k} changed in place`);
});

test('capabilities: accountsPerSwap is the account count of the built swap instructions; exact-out both ways', () => {
  const counts = swapAccountCounts(adapter as DexAdapter, [setup()].map((s) => ({ desc: s.desc, accounts: s.fx.accounts })));
  assert.equal(Math.max(...counts), adapter.accountsPerSwap);
  assert.ok(counts.every((n) => n === adapter.accountsPerSwap), 'fixed account list');
  assert.deepEqual([adapter.exactOut, adapter.exactOutBToA, adapter.dynamicAccounts, adapter.unidirectional], [true, true, false, false]);
});
