import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { tokenAccountAmount } from '../common/spl-layouts.js';
import { type SwapMode } from '../types.js';
import { raydiumLaunchlabAdapter as adapter } from './adapter.js';
import { BUY_EXACT_IN_DISCRIMINATOR, BUY_EXACT_OUT_DISCRIMINATOR, SELL_EXACT_IN_DISCRIMINATOR, SELL_EXACT_OUT_DISCRIMINATOR } from './instruction.js';
import { LAUNCHLAB_PROGRAM_ID, PLATFORM_CONFIG_CREATOR_FEE_END, POOL_STATUS_MIGRATE, decodeLaunchlabPool } from './layout.js';
import type { LaunchlabSwap } from './math.js';
import { launchlabAuthority } from './pda.js';
import { bn, loadSdk, sdkArgs, sdkLaunch } from './testing/sdk-oracle.js';
import { LAUNCHLAB_STATUS_BAD_FEE, LAUNCHLAB_STATUS_MIGRATE, LAUNCHLAB_STATUS_MIGRATED, LAUNCHLAB_STATUS_OK } from './state.js';
import { type LaunchlabFixtureOptions, launchlabFixture, testClock, testKey } from './testing/test-fixture.js';
import { emptyRecord } from '../testing/record-helpers.js';
import { swapAccountCounts } from '../testing/swap-account-counts.js';
import type { DexAdapter } from '../types.js';

const { PublicKey } = createRequire(import.meta.url)('@solana/web3.js') as typeof import('@solana/web3.js');

function setup(o: LaunchlabFixtureOptions = {}) {
  const fx = launchlabFixture(o);
  const poolData = fx.accounts.get(fx.poolAddress)!;
  const desc = adapter.decodePool(fx.poolAddress, poolData);
  assert.ok(desc);
  const state = adapter.buildState(desc, poolData, fx.accounts, testClock());
  assert.ok(state);
  return { fx, poolData, desc, state };
}


test('filters, isPool and decodePool', () => {
  const { fx, desc } = setup();
  assert.equal(adapter.programId, LAUNCHLAB_PROGRAM_ID);
  assert.equal(adapter.poolFilters[0]!.dataSize, 429);
  assert.equal(adapter.auxFilters[0]!.dataSize, 371);
  assert.equal(adapter.auxFilters[1]!.dataSize, undefined);
  assert.equal(adapter.isPool(fx.accounts.get(fx.poolFields.globalConfig)!), false);
  assert.deepEqual(desc, {
    address: fx.poolAddress, dex: 'raydium-launchlab', programId: LAUNCHLAB_PROGRAM_ID, mintA: fx.poolFields.mintA,
    mintB: fx.poolFields.mintB, decimalsA: 6, decimalsB: 9, dependencies: [fx.poolFields.globalConfig, fx.poolFields.platformConfig],
  });
  const t22 = launchlabFixture({ mintProgramFlag: 1 });
  assert.deepEqual(adapter.decodePool('x', t22.accounts.get(t22.poolAddress)!)!.dependencies.length, 3);
});

test('buildState: rates, statuses, size-gated PlatformConfig, missing dependencies', () => {
  const { state, fx, desc, poolData } = setup();
  assert.deepEqual(state.rates, { tradeFeeRate: 2500n, platformFeeRate: 10_000n, creatorFeeRate: 500n });
  assert.equal(state.status, LAUNCHLAB_STATUS_OK);
  assert.equal(setup({ status: 1 }).state.status, LAUNCHLAB_STATUS_MIGRATE);
  assert.equal(setup({ status: 2 }).state.status, LAUNCHLAB_STATUS_MIGRATED);
  assert.equal(setup({ tradeFeeRate: 990_001n }).state.status, LAUNCHLAB_STATUS_BAD_FEE);
  const short = new Map(fx.accounts);
  short.set(fx.poolFields.platformConfig, fx.accounts.get(fx.poolFields.platformConfig)!.subarray(0, PLATFORM_CONFIG_CREATOR_FEE_END - 1));
  assert.equal(adapter.buildState(desc, poolData, short, testClock())!.rates.creatorFeeRate, 0n);
  const missing = new Map(fx.accounts);
  missing.delete(fx.poolFields.platformConfig);
  assert.equal(adapter.buildState(desc, poolData, missing, testClock()), null);
});

test('decode -> buildState -> toRecord -> fromRecord round trip; quotes from the record equal quotes from the state', () => {
  for (const o of [{}, { curveType: 1, virtualA: 793_100_000_000_000n, virtualB: 85_000_000_000n, realB: 20_000_000_000n }, { status: 1 }, { tradeFeeRate: 0n, platformFeeRate: 0n, creatorFeeRate: 0n }] as LaunchlabFixtureOptions[]) {
    const { state } = setup(o);
    const rec = emptyRecord();
    adapter.toRecord(state, rec);
    const back = adapter.fromRecord(rec);
    assert.deepEqual(back, state);
    for (const aToB of [true, false]) {
      for (const mode of ['ExactIn', 'ExactOut'] as SwapMode[]) {
        for (const amount of [1n, 1_000_000n, 10n ** 12n, 10n ** 17n]) assert.deepEqual(adapter.quote(back, aToB, amount, mode), adapter.quote(state, aToB, amount, mode));
      }
    }
  }
});

test('marginalRate, estimateOut and feeBps read the float record', () => {
  const { state } = setup();
  const rec = emptyRecord();
  adapter.toRecord(state, rec);
  const f = { status: rec.status, reserveA: Number(rec.reserveA), reserveB: Number(rec.reserveB), f64: rec.f64 };
  const price = Number(state.virtualB + state.realB) / Number(state.virtualA - state.realA);
  assert.ok(Math.abs(adapter.marginalRate(f, true) / (price * (1 - 0.013)) - 1) < 1e-12);
  assert.ok(Math.abs(adapter.marginalRate(f, false) / ((1 - 0.013) / price) - 1) < 1e-12);
  assert.equal(adapter.feeBps(f), 130);
  assert.equal(adapter.estimateOut(f, false, 1e9), Number(adapter.quote(state, false, 1_000_000_000n, 'ExactIn').outAmount));
  assert.equal(adapter.estimateOut(f, true, 1e12), Number(adapter.quote(state, true, 1_000_000_000_000n, 'ExactIn').outAmount));
  assert.equal(adapter.marginalRate({ ...f, status: LAUNCHLAB_STATUS_MIGRATE }, true), 0);
});

test('quote statuses; a buy that would pass the cap gets the remainder at its re-priced input (= SDK)', () => {
  const { state } = setup({ realA: 793_099_999_000_000n, realB: 84_000_000_000n });
  assert.equal(adapter.quote(state, false, 0n, 'ExactIn').status, 'ZERO_AMOUNT');
  assert.equal(adapter.quote(state, true, 1n << 64n, 'ExactIn').status, 'INSUFFICIENT_LIQUIDITY');
  assert.equal(adapter.quote(state, true, state.realA + 1n, 'ExactIn').status, 'INSUFFICIENT_LIQUIDITY');
  assert.equal(adapter.quote(setup({ status: 1 }).state, false, 10n, 'ExactIn').status, 'INACTIVE');
  const q = adapter.quote(state, false, 10_000_000_000n, 'ExactIn') as LaunchlabSwap;
  assert.equal(q.status, 'OK');
  assert.equal(q.outAmount, 1_000_000n);
  assert.ok(q.inAmount < 10_000_000_000n);
  const sdk = sdkLaunch('buyExactIn', sdkArgs(state, state.rates, 0), 10_000_000_000n)!;
  assert.equal(q.inAmount, sdk.amountB);
  assert.equal(q.outAmount, sdk.amountA);
  const qo = adapter.quote(state, false, 5_000_000n, 'ExactOut');
  assert.equal(qo.outAmount, 1_000_000n);
  assert.equal(qo.inAmount, q.inAmount);
});

test('execute conserves tokens, moves real reserves and the protocol fee, and flips a full curve to Migrate', () => {
  let cases = 0;
  for (const aToB of [true, false]) {
    for (const mode of ['ExactIn', 'ExactOut'] as SwapMode[]) {
      const { fx, desc } = setup();
      const before = decodeLaunchlabPool(fx.accounts.get(fx.poolAddress)!);
      const amount = aToB ? (mode === 'ExactIn' ? 10_000_000_000_000n : 300_000_000n) : (mode === 'ExactIn' ? 1_000_000_000n : 10_000_000_000_000n);
      const r = adapter.execute(desc, fx.accounts, aToB, amount, mode, testClock());
      const q = r.quote as LaunchlabSwap;
      assert.equal(q.status, 'OK');
      const w = new Map(r.writes.map((x) => [x.address, x.data]));
      assert.equal(w.size, 5);
      const delta = (k: string): bigint => tokenAccountAmount(w.get(k)!) - tokenAccountAmount(fx.accounts.get(k)!);
      const dA = delta(before.vaultA);
      const dB = delta(before.vaultB);
      const dP = delta(fx.platformFeeVault);
      const dC = delta(fx.creatorFeeVault);
      // The user's side: A in/out and B out/in; every atom lands in exactly one pool-side account.
      const userA = aToB ? -q.inAmount : q.outAmount;
      const userB = aToB ? q.outAmount : -q.inAmount;
      assert.equal(userA + dA, 0n);
      assert.equal(userB + dB + dP + dC, 0n);
      assert.equal(dP, q.platformFee);
      assert.equal(dC, q.creatorFee);
      assert.ok(q.platformFee > 0n && q.creatorFee > 0n && q.protocolFee > 0n);
      const after = decodeLaunchlabPool(w.get(fx.poolAddress)!);
      assert.equal(after.realA - before.realA, aToB ? -q.curveA : q.curveA);
      assert.equal(after.realB - before.realB, aToB ? -q.curveB : q.curveB);
      assert.equal(after.protocolFee - before.protocolFee, q.protocolFee);
      // Vault B = real_b + protocol fees before and after.
      assert.equal(tokenAccountAmount(w.get(before.vaultB)!), after.realB + after.protocolFee);
      assert.equal(after.status, 0);
      cases++;
    }
  }
  assert.equal(cases, 4);
  const near = setup({ realA: 793_099_999_000_000n, realB: 84_000_000_000n });
  const full = adapter.execute(near.desc, near.fx.accounts, false, 10n ** 12n, 'ExactIn', testClock());
  const after = decodeLaunchlabPool(full.writes[0]!.data);
  assert.equal(after.realA, after.totalSellA);
  assert.equal(after.status, POOL_STATUS_MIGRATE);
  const migrated = setup({ status: 1 });
  const none = adapter.execute(migrated.desc, migrated.fx.accounts, false, 10n ** 9n, 'ExactIn', testClock());
  assert.equal(none.quote.status, 'INACTIVE');
  assert.deepEqual(none.writes, []);
});

test('swapInstruction equals the SDK builders (keys, flags, data) and decodes with the SDK layout', () => {
  const { fx, desc } = setup();
  const sdk = loadSdk();
  const disc = (n: string): Buffer => createHash('sha256').update(`global:${n}`).digest().subarray(0, 8);
  assert.deepEqual(Buffer.from(BUY_EXACT_IN_DISCRIMINATOR), disc('buy_exact_in'));
  assert.deepEqual(Buffer.from(BUY_EXACT_OUT_DISCRIMINATOR), disc('buy_exact_out'));
  assert.deepEqual(Buffer.from(SELL_EXACT_IN_DISCRIMINATOR), disc('sell_exact_in'));
  assert.deepEqual(Buffer.from(SELL_EXACT_OUT_DISCRIMINATOR), disc('sell_exact_out'));
  const { struct, u64 } = createRequire(import.meta.url)('@raydium-io/raydium-sdk-v2') as { struct: (f: unknown[]) => { decode(b: Buffer): Record<string, { toString(): string }> }; u64: (n: string) => unknown };
  const argLayout = struct([u64('amount'), u64('threshold'), u64('shareFeeRate')]);
  const user = testKey('user');
  const userA = testKey('userA');
  const userB = testKey('userB');
  const p = fx.poolFields;
  const pk = (s: string) => new PublicKey(s);
  const s = sdk as unknown as Record<string, (...a: unknown[]) => { publicKey: unknown }>;
  const prog = pk(LAUNCHLAB_PROGRAM_ID);
  for (const aToB of [true, false]) {
    for (const mode of ['ExactIn', 'ExactOut'] as SwapMode[]) {
      const ours = adapter.swapInstruction({
        pool: desc, accounts: fx.accounts, user, userSourceTokenAccount: aToB ? userA : userB,
        userDestinationTokenAccount: aToB ? userB : userA, aToB, mode, amount: 1_000_001n, otherAmountThreshold: 999n,
      });
      const build = aToB ? (mode === 'ExactIn' ? sdk.sellExactInInstruction : sdk.sellExactOut) : (mode === 'ExactIn' ? sdk.buyExactInInstruction : sdk.buyExactOutInstruction);
      const theirs = build(prog, pk(user), pk(launchlabAuthority()[0]), pk(p.globalConfig), pk(p.platformConfig), pk(fx.poolAddress),
        pk(userA), pk(userB), pk(p.vaultA), pk(p.vaultB), pk(p.mintA), pk(p.mintB),
        pk('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'), pk('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'),
        s.getPdaPlatformVault!(prog, pk(p.platformConfig), pk(p.mintB)).publicKey, s.getPdaCreatorVault!(prog, pk(p.creator), pk(p.mintB)).publicKey,
        bn(1_000_001n), bn(999n));
      assert.equal(ours.programId, theirs.programId.toBase58());
      assert.deepEqual(ours.keys, theirs.keys.map((k) => ({ pubkey: k.pubkey.toBase58(), isSigner: k.isSigner, isWritable: k.isWritable })));
      assert.deepEqual(Buffer.from(ours.data), Buffer.from(theirs.data));
      const args = argLayout.decode(Buffer.from(ours.data.subarray(8)));
      assert.deepEqual([args.amount!.toString(), args.threshold!.toString(), args.shareFeeRate!.toString()], ['1000001', '999', '0']);
    }
  }
});

test('capabilities: accountsPerSwap is the account count of the built swap instructions; exact-out both ways', () => {
  const s = setup();
  const counts = swapAccountCounts(adapter as DexAdapter, [{ desc: s.desc, accounts: s.fx.accounts }]);
  assert.ok(counts.every((n) => n === adapter.accountsPerSwap), `${counts.join(',')} vs ${adapter.accountsPerSwap}`);
  assert.deepEqual([adapter.exactOut, adapter.exactOutBToA, adapter.dynamicAccounts, adapter.unidirectional], [true, true, false, false]);
});
