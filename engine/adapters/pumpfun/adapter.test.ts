import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import bs58 from 'bs58';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID, encodeMint } from '../common/spl-layouts.js';
import { type SwapMode } from '../types.js';
import { pumpfunAdapter as adapter } from './adapter.js';
import { encodeFeeConfig } from './fee-config.js';
import { BUY_DISCRIMINATOR, BUY_EXACT_SOL_IN_DISCRIMINATOR, SELL_DISCRIMINATOR } from './instruction.js';
import { NATIVE_MINT, PUMPFUN_PROGRAM_ID, decodeBondingCurve, encodeBondingCurve } from './layout.js';
import type { PumpSwap } from './math.js';
import { associatedTokenAddress, creatorVaultAddress, feeConfigAddress, globalAddress } from './pda.js';
import { bn, loadPumpSdk, pk } from './testing/sdk-oracle.js';
import { PUMPFUN_STATUS_BAD_FEE_CONFIG, PUMPFUN_STATUS_COMPLETE, PUMPFUN_STATUS_MIGRATED, PUMPFUN_STATUS_NON_SOL_QUOTE, PUMPFUN_STATUS_OK } from './state.js';
import { pumpfunFixture, testClock, testFeeConfig, testKey } from './testing/test-fixture.js';
import { emptyRecord } from '../testing/record-helpers.js';
import { swapAccountCounts } from '../testing/swap-account-counts.js';
import type { DexAdapter } from '../types.js';

const require = createRequire(import.meta.url);

function setup(o: Parameters<typeof pumpfunFixture>[0] = {}) {
  const fx = pumpfunFixture(o);
  const data = fx.accounts.get(fx.curveAddress)!;
  const desc = adapter.decodePool(fx.curveAddress, data, undefined, fx.inputs);
  assert.ok(desc);
  const state = adapter.buildState(desc, data, fx.accounts, testClock());
  assert.ok(state);
  return { fx, data, desc, state };
}


test('filters, isPool and decodePool (the mint from the token account the curve owns)', () => {
  const { fx, desc } = setup();
  assert.equal(adapter.programId, PUMPFUN_PROGRAM_ID);
  assert.deepEqual(adapter.poolFilters.map((f) => f.dataSize), [49, 81, 82, 83, 115, 124, 125, 151]);
  assert.equal(adapter.isPool(fx.accounts.get(fx.curveAddress)!), true);
  assert.equal(adapter.isPool(fx.accounts.get(globalAddress())!), false);
  assert.deepEqual(desc, {
    address: fx.curveAddress, dex: 'pumpfun', programId: PUMPFUN_PROGRAM_ID, mintA: fx.mint, mintB: NATIVE_MINT,
    decimalsA: 6, decimalsB: 9, dependencies: [globalAddress(), feeConfigAddress(), associatedTokenAddress(fx.curveAddress, fx.mint, TOKEN_PROGRAM_ID)],
  });
  assert.equal(adapter.describedByOwnedTokenAccounts, true);
  assert.equal(adapter.decodePool(fx.curveAddress, fx.accounts.get(fx.curveAddress)!), null, 'without its token account the curve has no mint');
  assert.equal(adapter.decodePool(testKey('other'), fx.accounts.get(fx.curveAddress)!, undefined, fx.inputs), null, 'a token account owned by another curve');
  // A token account someone created with the curve as owner, for a mint whose curve this is not: refused.
  const [ataKey, input] = [...fx.inputs][0]!;
  const forged = new Uint8Array(input.data);
  forged.set(bs58.decode(testKey('forged-mint')), 0);
  assert.equal(adapter.decodePool(fx.curveAddress, fx.accounts.get(fx.curveAddress)!, undefined, new Map([[ataKey, { ...input, data: forged }]])), null);
  const mayhem = pumpfunFixture({ label: 'mayhem', curve: { isMayhemMode: true } });
  assert.deepEqual(adapter.decodePool(mayhem.curveAddress, mayhem.accounts.get(mayhem.curveAddress)!, undefined, mayhem.inputs)!.dependencies, [globalAddress(), feeConfigAddress(), mayhem.mint, associatedTokenAddress(mayhem.curveAddress, mayhem.mint, TOKEN_PROGRAM_ID)]);
});

test('buildState: tiers, creator rules, statuses, missing dependencies', () => {
  // The fixture sold 200M tokens: a market cap of ~42 SOL, the first tier; 700M sold: ~231 SOL, above 150.
  assert.deepEqual([setup().state.protocolFeeBps, setup().state.creatorFeeBps], [95n, 30n]);
  const late = setup({ sold: 700_000_000_000_000n }).state;
  assert.equal(late.protocolFeeBps, 93n, 'market cap above 150 SOL');
  assert.equal(setup({ curve: { creator: '11111111111111111111111111111111' } }).state.creatorFeeBps, 0n, 'no creator, no creator fee');
  assert.equal(setup({ curve: { creatorFeeBps: 50n } }).state.creatorFeeBps, 50n, 'the curve overrides the creator rate');
  assert.equal(setup({ curve: { creatorFeeBps: 50n }, global: { creatorFeeConfigurable: false } }).state.creatorFeeBps, 30n);
  assert.equal(setup({ curve: { complete: true } }).state.status, PUMPFUN_STATUS_COMPLETE);
  assert.equal(setup({ curve: { virtualTokenReserves: 0n } }).state.status, PUMPFUN_STATUS_MIGRATED);
  assert.equal(setup({ curve: { quoteMint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' } }).state.status, PUMPFUN_STATUS_NON_SOL_QUOTE);
  assert.equal(setup({ curve: { quoteMint: NATIVE_MINT } }).state.status, PUMPFUN_STATUS_OK, 'wrapped SOL is SOL-like');
  const legacy = setup({ curveSize: 81, curve: { creatorFeeBps: 0n } });
  assert.equal(legacy.state.status, PUMPFUN_STATUS_OK);
  // An empty tier vector: no schedule.
  const { fx, desc, data } = setup();
  const noTiers = new Map(fx.accounts);
  noTiers.set(feeConfigAddress(), encodeFeeConfig({ ...testFeeConfig(), feeTiers: [] }));
  assert.equal(adapter.buildState(desc, data, noTiers, testClock())!.status, PUMPFUN_STATUS_BAD_FEE_CONFIG);
  for (const k of desc.dependencies) {
    const m = new Map(fx.accounts);
    m.delete(k);
    assert.equal(adapter.buildState(desc, data, m, testClock()), null);
  }
  // Mayhem mode: the market cap uses the real supply; without the mint there is no state.
  const m2 = pumpfunFixture({ label: 'mayhem3', curve: { isMayhemMode: true } });
  const d2 = adapter.decodePool(m2.curveAddress, m2.accounts.get(m2.curveAddress)!, undefined, m2.inputs)!;
  assert.equal(adapter.buildState(d2, m2.accounts.get(m2.curveAddress)!, m2.accounts, testClock()), null);
  const mintData = encodeMint({ mintAuthority: null, supply: 10n ** 16n, decimals: 6, isInitialized: true, freezeAuthority: null });
  m2.accounts.set(m2.mint, mintData);
  assert.equal(adapter.buildState(d2, m2.accounts.get(m2.curveAddress)!, m2.accounts, testClock())!.protocolFeeBps, 5n, '10x supply: top tier');
});

test('decode -> buildState -> toRecord -> fromRecord round trip; quotes from the record equal quotes from the state', () => {
  for (const o of [{}, { sold: 0n }, { sold: 790_000_000_000_000n }, { curve: { complete: true } }, { curveSize: 81 }, { curve: { creatorFeeBps: 75n } }]) {
    const { state } = setup(o);
    const rec = emptyRecord();
    adapter.toRecord(state, rec);
    const back = adapter.fromRecord(rec);
    assert.deepEqual(back, state);
    for (const x of rec.f64) assert.ok(Number.isFinite(x) && x >= 0);
    for (const aToB of [true, false]) {
      for (const mode of ['ExactIn', 'ExactOut'] as SwapMode[]) {
        for (const amount of [1n, 1_000_000n, 1_000_000_000n, 10n ** 14n]) {
          assert.deepEqual(adapter.quote(back, aToB, amount, mode), adapter.quote(state, aToB, amount, mode));
        }
      }
    }
  }
});

test('marginalRate, estimateOut and feeBps read the float record', () => {
  const { state } = setup();
  const rec = emptyRecord();
  adapter.toRecord(state, rec);
  const f = { status: rec.status, reserveA: Number(rec.reserveA), reserveB: Number(rec.reserveB), f64: rec.f64 };
  const sell = (Number(state.virtualQuoteReserves) / Number(state.virtualTokenReserves)) * (1 - 125 / 1e4);
  assert.ok(Math.abs(adapter.marginalRate(f, true) / sell - 1) < 1e-12);
  const buy = (Number(state.virtualTokenReserves) / Number(state.virtualQuoteReserves)) * (1e4 / 10_125);
  assert.ok(Math.abs(adapter.marginalRate(f, false) / buy - 1) < 1e-12);
  assert.equal(adapter.feeBps(f), 125);
  assert.equal(adapter.estimateOut(f, false, 1e9), Number(adapter.quote(state, false, 1_000_000_000n, 'ExactIn').outAmount));
  assert.equal(adapter.estimateOut(f, true, 1e12), Number(adapter.quote(state, true, 1_000_000_000_000n, 'ExactIn').outAmount));
  assert.equal(adapter.marginalRate({ ...f, status: PUMPFUN_STATUS_COMPLETE }, true), 0);
});

test('quote statuses', () => {
  const { state } = setup({ sold: 790_000_000_000_000n });
  assert.equal(adapter.quote(state, true, 0n, 'ExactIn').status, 'ZERO_AMOUNT');
  assert.equal(adapter.quote(state, false, 0n, 'ExactOut').status, 'ZERO_AMOUNT');
  assert.equal(adapter.quote(state, false, 1n, 'ExactIn').status, 'ZERO_AMOUNT');
  const capped = adapter.quote(state, false, state.realTokenReserves * 2n, 'ExactOut');
  assert.equal(capped.status, 'OK');
  assert.equal(capped.outAmount, state.realTokenReserves, 'a buy beyond the curve is capped at the real reserves');
  assert.equal(adapter.quote(state, true, state.realQuoteReserves * 2n, 'ExactOut').status, 'INSUFFICIENT_LIQUIDITY');
  assert.equal(adapter.quote(setup({ curve: { complete: true } }).state, false, 10n ** 9n, 'ExactIn').status, 'INACTIVE');
});

test('execute moves the curve reserves exactly by the quote and conserves tokens and lamports', () => {
  for (const sold of [0n, 300_000_000_000_000n, 792_000_000_000_000n]) {
    const { fx, desc, data } = setup({ sold, label: `exec${sold}` });
    const before = decodeBondingCurve(data);
    const cases: [boolean, SwapMode, bigint][] = [[false, 'ExactIn', 2_000_000_000n], [false, 'ExactOut', 50_000_000_000_000n], [true, 'ExactIn', 5_000_000_000_000n], [true, 'ExactOut', 100_000_000n]];
    for (const [aToB, mode, amount] of cases) {
      const r = adapter.execute(desc, fx.accounts, aToB, amount, mode, testClock());
      const q = r.quote as PumpSwap;
      if (q.status !== 'OK') { assert.equal(r.writes.length, 0); assert.ok(sold === 0n && aToB); continue; }
      assert.equal(r.writes.length, 1);
      const after = decodeBondingCurve(r.writes[0]!.data);
      assert.equal(r.writes[0]!.data.length, data.length, 'the account keeps its layout version');
      const dT = after.realTokenReserves - before.realTokenReserves;
      const dQ = after.realQuoteReserves - before.realQuoteReserves;
      assert.equal(after.virtualTokenReserves - before.virtualTokenReserves, dT);
      assert.equal(after.virtualQuoteReserves - before.virtualQuoteReserves, dQ);
      if (aToB) {
        // Tokens in = curve tokens up; SOL out of the curve = user + fee recipient + creator vault.
        assert.equal(dT, q.inAmount);
        assert.equal(-dQ, q.outAmount + q.protocolFee + q.creatorFee);
      } else {
        // SOL from the user = curve + fee recipient + creator vault; tokens out = curve tokens down.
        assert.equal(q.inAmount, dQ + q.protocolFee + q.creatorFee);
        assert.equal(-dT, q.outAmount);
        assert.equal(after.complete, after.realTokenReserves === 0n);
      }
    }
  }
  // Buying the last tokens completes the curve.
  const { fx, desc, state } = setup({ sold: 793_000_000_000_000n, label: 'last' });
  const r = adapter.execute(desc, fx.accounts, false, state.realTokenReserves, 'ExactOut', testClock());
  assert.equal(decodeBondingCurve(r.writes[0]!.data).complete, true);
  const done = new Map(fx.accounts);
  done.set(fx.curveAddress, r.writes[0]!.data);
  assert.equal(adapter.execute(desc, done, false, 1_000n, 'ExactIn', testClock()).quote.status, 'INACTIVE');
  assert.equal(adapter.execute(desc, done, false, 1_000n, 'ExactIn', testClock()).writes.length, 0);
  const noGlobal = new Map(fx.accounts);
  noGlobal.delete(globalAddress());
  assert.throws(() => adapter.execute(desc, noGlobal, true, 1n, 'ExactIn', testClock()), { name: 'EngineError', code: 'PUMPFUN_MISSING_ACCOUNT' });
});

test('swapInstruction: Anchor decodes our data; the account metas equal the SDK builders', async () => {
  const { sdk } = loadPumpSdk();
  const { BorshInstructionCoder } = require('@coral-xyz/anchor') as { BorshInstructionCoder: new (idl: unknown) => { decode(d: Buffer): { name: string; data: Record<string, unknown> } | null } };
  const coder = new BorshInstructionCoder(sdk.pumpIdl);
  const disc = (n: string): Buffer => createHash('sha256').update(`global:${n}`).digest().subarray(0, 8);
  assert.deepEqual(Buffer.from(BUY_DISCRIMINATOR), disc('buy'));
  assert.deepEqual(Buffer.from(BUY_EXACT_SOL_IN_DISCRIMINATOR), disc('buy_exact_sol_in'));
  assert.deepEqual(Buffer.from(SELL_DISCRIMINATOR), disc('sell'));
  const program = (sdk.PUMP_SDK as unknown as { offlinePumpProgram: { methods: Record<string, (...a: unknown[]) => { accountsPartial(a: unknown): { remainingAccounts(r: unknown): { instruction(): Promise<{ keys: { pubkey: { toBase58(): string }; isSigner: boolean; isWritable: boolean }[] }> } } }> } }).offlinePumpProgram;
  for (const tokenProgram of [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID]) {
    const { fx, desc, state } = setup({ label: `ix-${tokenProgram}`, tokenProgram });
    const user = testKey('user');
    const userAta = associatedTokenAddress(user, fx.mint, tokenProgram);
    const keysOf = (ix: { keys: readonly { pubkey: { toBase58(): string } | string; isSigner: boolean; isWritable: boolean }[] }) =>
      ix.keys.map((k) => ({ pubkey: typeof k.pubkey === 'string' ? k.pubkey : k.pubkey.toBase58(), isSigner: k.isSigner, isWritable: k.isWritable }));
    const common = { user: pk(user), mint: pk(fx.mint), creator: pk(fx.curve.creator), feeRecipient: pk(fx.global.feeRecipient), buybackFeeRecipient: pk(fx.global.buybackFeeRecipients[0]!), tokenProgram: pk(tokenProgram) };
    for (const [aToB, mode] of [[false, 'ExactOut'], [false, 'ExactIn'], [true, 'ExactIn'], [true, 'ExactOut']] as [boolean, SwapMode][]) {
      const amount = aToB && mode === 'ExactOut' ? 1_000_000_000n : aToB ? 10_000_000_000_000n : mode === 'ExactIn' ? 2_000_000_000n : 10_000_000_000_000n;
      const ours = adapter.swapInstruction({ pool: desc, accounts: fx.accounts, user, userSourceTokenAccount: aToB ? userAta : testKey('wsol'), userDestinationTokenAccount: aToB ? testKey('wsol') : userAta, aToB, mode, amount, otherAmountThreshold: aToB && mode === 'ExactOut' ? 10n ** 18n : 777n });
      assert.equal(ours.programId, PUMPFUN_PROGRAM_ID);
      const decoded = coder.decode(Buffer.from(ours.data));
      assert.ok(decoded);
      const arg = (k: string): bigint => BigInt(String(decoded.data[k]));
      if (!aToB) {
        const theirs = await sdk.PUMP_SDK.getBuyInstructionRaw({ ...common, amount: bn(amount), solAmount: bn(777n) });
        assert.deepEqual(keysOf(ours), keysOf(theirs));
        if (mode === 'ExactOut') {
          assert.equal(decoded.name, 'buy');
          assert.deepEqual([arg('amount'), arg('max_sol_cost')], [amount, 777n]);
        } else {
          assert.equal(decoded.name, 'buy_exact_sol_in');
          assert.deepEqual([arg('spendable_sol_in'), arg('min_tokens_out')], [amount, 777n]);
          const viaAnchor = await program.methods['buyExactSolIn']!(bn(amount), bn(777n), { 0: false })
            .accountsPartial({ feeRecipient: pk(fx.global.feeRecipient), mint: pk(fx.mint), associatedUser: pk(userAta), user: pk(user), creatorVault: pk(creatorVaultAddress(fx.curve.creator)), tokenProgram: pk(tokenProgram) })
            .remainingAccounts(theirs.keys.slice(16)).instruction();
          assert.deepEqual(keysOf(ours), keysOf(viaAnchor));
        }
        assert.deepEqual(decoded.data['track_volume'], { 0: false });
      } else {
        assert.equal(decoded.name, 'sell');
        const tokens = mode === 'ExactIn' ? amount : adapter.quote(state, true, amount, 'ExactOut').inAmount;
        assert.deepEqual([arg('amount'), arg('min_sol_output')], mode === 'ExactIn' ? [amount, 777n] : [tokens, amount]);
        const theirs = await sdk.PUMP_SDK.getSellInstructionRaw({ ...common, amount: bn(tokens), solAmount: bn(777n) });
        assert.deepEqual(keysOf(ours), keysOf(theirs));
      }
    }
  }
});

test('swapInstruction refuses what it cannot build', () => {
  const usdc = setup({ label: 'usdc', curve: { quoteMint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' } });
  const base = { user: testKey('u'), userSourceTokenAccount: testKey('s'), userDestinationTokenAccount: testKey('d'), aToB: false, mode: 'ExactIn' as const, amount: 1n, otherAmountThreshold: 0n };
  assert.throws(() => adapter.swapInstruction({ ...base, pool: usdc.desc, accounts: usdc.fx.accounts }), { code: 'PUMPFUN_UNSUPPORTED_QUOTE' });
  const { fx, desc } = setup();
  const missing = new Map(fx.accounts);
  missing.delete(globalAddress());
  assert.throws(() => adapter.swapInstruction({ ...base, pool: desc, accounts: missing }), { code: 'PUMPFUN_MISSING_ACCOUNT' });
  const foreign = { ...desc, address: testKey('foreign') };
  const acc = new Map(fx.accounts);
  acc.set(foreign.address, encodeBondingCurve(fx.curve, 151));
  assert.throws(() => adapter.swapInstruction({ ...base, pool: foreign, accounts: acc }), { code: 'PUMPFUN_MINT_NOT_REGISTERED' });
});

test('execute never changes the accounts it is given, also when they are Node Buffers', () => {
  const { fx, desc } = setup();
  const accounts = new Map<string, Uint8Array>([...fx.accounts].map(([k, v]) => [k, Buffer.from(v)]));
  const before = new Map([...accounts].map(([k, v]) => [k, Buffer.from(v)]));
  const r = adapter.execute(desc, accounts, true, 1_000_000_000n, 'ExactIn', testClock());
  assert.ok(r.writes.length > 0);
  for (const [k, v] of accounts) assert.ok(Buffer.from(v).equals(before.get(k)!), `${k} changed in place`);
});

test('capabilities: accountsPerSwap is the most accounts a built swap references (a buy); exact-out buys only', () => {
  const s = setup();
  const t22 = setup({ tokenProgram: TOKEN_2022_PROGRAM_ID, label: 'cap-t22' });
  const counts = swapAccountCounts(adapter as DexAdapter, [s, t22].map((v) => ({ desc: v.desc, accounts: v.fx.accounts })));
  assert.equal(Math.max(...counts), adapter.accountsPerSwap, counts.join(','));
  assert.equal(Math.min(...counts), 16, 'a sell');
  assert.deepEqual([adapter.exactOut, adapter.exactOutBToA, adapter.dynamicAccounts, adapter.unidirectional], [false, true, false, false]);
});
