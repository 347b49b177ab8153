import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { TOKEN_PROGRAM_ID, tokenAccountAmount } from '../common/spl-layouts.js';
import { PARAM_F64_WORDS, PARAM_U64_WORDS, type PoolDescriptor, type RecordFields, type SwapMode } from '../types.js';
import { raydiumAmmV4Adapter as adapter } from './adapter.js';
import { AMM_STATUS, AMM_V4_PROGRAM_ID, decodeAmmInfo } from './layout.js';
import type { AmmV4Swap } from './math.js';
import { portSwapBaseIn, portSwapBaseOut } from './testing/program-port.js';
import { bn, loadAmmV4Sdk } from './testing/sdk-oracle.js';
import {
  AMM_V4_STATUS_BAD_FEE,
  AMM_V4_STATUS_NOT_OPEN,
  AMM_V4_STATUS_OK,
  AMM_V4_STATUS_PNL_EXCEEDS_VAULT,
  AMM_V4_STATUS_SWAP_DISABLED,
} from './state.js';
import { type AmmV4FixtureOptions, ammV4Fixture, testClock, testKey } from './testing/test-fixture.js';
import { emptyRecord } from '../testing/record-helpers.js';
import { swapAccountCounts } from '../testing/swap-account-counts.js';
import type { DexAdapter } from '../types.js';

// The SDK builds instructions from web3.js (CommonJS) PublicKey instances; load the same copy it uses.
const { PublicKey } = createRequire(import.meta.url)('@solana/web3.js') as typeof import('@solana/web3.js');

function setup(o: AmmV4FixtureOptions = {}, clock = testClock()) {
  const fx = ammV4Fixture(o);
  const poolData = fx.accounts.get(fx.poolAddress)!;
  const desc = adapter.decodePool(fx.poolAddress, poolData);
  assert.ok(desc);
  const state = adapter.buildState(desc, poolData, fx.accounts, clock);
  assert.ok(state);
  return { fx, poolData, desc, state };
}


const floatView = (rec: RecordFields) => ({ status: rec.status, reserveA: Number(rec.reserveA), reserveB: Number(rec.reserveB), f64: rec.f64 });

test('filters, isPool and decodePool', () => {
  const { fx, desc } = setup();
  assert.equal(adapter.programId, AMM_V4_PROGRAM_ID);
  assert.deepEqual(adapter.poolFilters, [{ name: 'raydium-amm-v4-pools', dataSize: 752 }]);
  assert.deepEqual(adapter.auxFilters, []);
  assert.equal(adapter.isPool(fx.accounts.get(fx.poolAddress)!), true);
  assert.equal(adapter.isPool(fx.accounts.get(fx.fields.coinVault)!), false);
  assert.equal(adapter.decodePool('x', new Uint8Array(2208)), null);
  const expected: PoolDescriptor = {
    address: fx.poolAddress, dex: 'raydium-amm-v4', programId: AMM_V4_PROGRAM_ID,
    mintA: fx.fields.coinVaultMint, mintB: fx.fields.pcVaultMint, decimalsA: 9, decimalsB: 6,
    dependencies: [fx.fields.coinVault, fx.fields.pcVault],
  };
  assert.deepEqual(desc, expected);
});

test('buildState: reserves net of need_take_pnl, the pool fee, statuses', () => {
  const { state } = setup({ needTakePnl: [1_000n, 2_000n], swapFeeNumerator: 30n });
  assert.equal(state.reserveCoin, 2_000_000_000_000n - 1_000n);
  assert.equal(state.reservePc, 300_000_000_000n - 2_000n);
  assert.equal(state.swapFeeNumerator, 30n);
  assert.equal(state.status, AMM_V4_STATUS_OK);
  for (const s of [1n, 6n]) assert.equal(setup({ status: s }).state.status, AMM_V4_STATUS_OK);
  for (const s of [0n, 2n, 3n, 4n, 5n, 8n]) assert.equal(setup({ status: s }).state.status, AMM_V4_STATUS_SWAP_DISABLED, `status ${s}`);
  assert.equal(setup({ status: 7n, poolOpenTime: 1_800_000_001n }).state.status, AMM_V4_STATUS_NOT_OPEN);
  assert.equal(setup({ status: 7n, poolOpenTime: 1_800_000_000n }).state.status, AMM_V4_STATUS_OK, 'open at exactly pool_open_time');
  assert.equal(setup({ status: 6n, poolOpenTime: 1_900_000_000n }).state.status, AMM_V4_STATUS_OK, 'open time matters for 7 only');
  assert.equal(setup({ needTakePnl: [2_000_000_000_001n, 0n] }).state.status, AMM_V4_STATUS_PNL_EXCEEDS_VAULT);
  assert.equal(setup({ swapFeeDenominator: 0n }).state.status, AMM_V4_STATUS_BAD_FEE);
  assert.equal(setup({ swapFeeNumerator: 10_000n }).state.status, AMM_V4_STATUS_BAD_FEE);
  const { fx, desc, poolData } = setup();
  const noVault = new Map(fx.accounts);
  noVault.delete(fx.fields.pcVault);
  assert.equal(adapter.buildState(desc, poolData, noVault, testClock()), null);
});

test('decode -> buildState -> toRecord -> fromRecord round trip; quotes from the record equal quotes from the state', () => {
  for (const o of [{}, { needTakePnl: [5n, 7n] as const, swapFeeNumerator: 0n }, { status: 7n, poolOpenTime: 1_900_000_000n }, { swapFeeNumerator: 3n, swapFeeDenominator: 1000n }]) {
    const { state } = setup(o);
    const rec = emptyRecord();
    adapter.toRecord(state, rec);
    assert.equal(rec.u64.length, PARAM_U64_WORDS);
    assert.equal(rec.f64.length, PARAM_F64_WORDS);
    const back = adapter.fromRecord(rec);
    assert.deepEqual(back, state);
    for (const x of rec.f64) assert.ok(Number.isFinite(x) && x >= 0);
    for (const aToB of [true, false]) {
      for (const mode of ['ExactIn', 'ExactOut'] as SwapMode[]) {
        for (const amount of [1n, 1_000n, 123_456_789n, 10n ** 11n, 10n ** 13n]) {
          assert.deepEqual(adapter.quote(back, aToB, amount, mode), adapter.quote(state, aToB, amount, mode));
        }
      }
    }
  }
});

test('marginalRate, estimateOut and feeBps read the float record', () => {
  const { state } = setup({ swapFeeNumerator: 30n });
  const rec = emptyRecord();
  adapter.toRecord(state, rec);
  const f = floatView(rec);
  const expected = (Number(state.reservePc) / Number(state.reserveCoin)) * (1 - 30 / 10_000);
  assert.ok(Math.abs(adapter.marginalRate(f, true) / expected - 1) < 1e-12);
  assert.equal(adapter.feeBps(f), 30);
  const exact = adapter.quote(state, true, 1_000_000_000n, 'ExactIn');
  assert.equal(adapter.estimateOut(f, true, 1e9), Number(exact.outAmount));
  assert.equal(adapter.marginalRate({ ...f, status: AMM_V4_STATUS_NOT_OPEN }, true), 0);
  assert.equal(adapter.feeBps(floatView((() => { const r = emptyRecord(); adapter.toRecord(setup().state, r); return r; })())), 25);
});

test('quote statuses', () => {
  const { state } = setup();
  assert.equal(adapter.quote(state, true, 0n, 'ExactIn').status, 'ZERO_AMOUNT');
  assert.equal(adapter.quote(state, true, 0n, 'ExactOut').status, 'ZERO_AMOUNT');
  assert.equal(adapter.quote(state, true, 1n, 'ExactIn').status, 'ZERO_AMOUNT', 'one atom pays the whole fee');
  assert.equal(adapter.quote(state, true, state.reservePc, 'ExactOut').status, 'INSUFFICIENT_LIQUIDITY');
  assert.equal(adapter.quote(state, true, 1n << 64n, 'ExactIn').status, 'INSUFFICIENT_LIQUIDITY');
  assert.equal(adapter.quote(setup({ status: 4n }).state, true, 10n ** 9n, 'ExactIn').status, 'INACTIVE');
  const q = adapter.quote(state, true, 10n ** 9n, 'ExactIn') as AmmV4Swap;
  assert.equal(q.status, 'OK');
  assert.equal(q.feeAmount, (10n ** 9n * 25n + 9_999n) / 10_000n);
});

test('execute moves tokens, flips WaitingTrade to SwapOnly and stamps recent_epoch, as the program does', () => {
  let cases = 0;
  for (const status of [6n, 7n]) {
    for (const aToB of [true, false]) {
      for (const mode of ['ExactIn', 'ExactOut'] as SwapMode[]) {
        const o = { status, needTakePnl: [11n, 13n] as const, swapFeeNumerator: 40n };
        const { fx, desc, state } = setup(o);
        const before = decodeAmmInfo(fx.accounts.get(fx.poolAddress)!);
        const amount = mode === 'ExactIn' ? 12_345_678_901n : 1_234_567_890n;
        const res = adapter.execute(desc, fx.accounts, aToB, amount, mode, testClock());
        const q = res.quote;
        assert.equal(q.status, 'OK');
        // The same amounts as the independent program port.
        const portIn = {
          status, poolOpenTime: before.poolOpenTime, needTakePnlCoin: 11n, needTakePnlPc: 13n, swapFeeNumerator: 40n,
          swapFeeDenominator: 10_000n, coinVaultAmount: 2_000_000_000_000n, pcVaultAmount: 300_000_000_000n, sameMint: false,
          unixTimestamp: testClock().unixTimestamp, coinToPc: aToB, userSourceAmount: 1n << 63n,
        };
        const p = mode === 'ExactIn' ? portSwapBaseIn(portIn, amount, 0n) : portSwapBaseOut(portIn, 1n << 63n, amount);
        assert.ok(p.ok);
        assert.equal(q.inAmount, p.amountIn);
        assert.equal(q.outAmount, p.amountOut);
        assert.equal(res.writes.length, 3);
        const w = new Map(res.writes.map((x) => [x.address, x.data]));
        const [inV, outV] = aToB ? [before.coinVault, before.pcVault] : [before.pcVault, before.coinVault];
        assert.equal(tokenAccountAmount(w.get(inV)!) - tokenAccountAmount(fx.accounts.get(inV)!), q.inAmount);
        assert.equal(tokenAccountAmount(fx.accounts.get(outV)!) - tokenAccountAmount(w.get(outV)!), q.outAmount);
        const after = decodeAmmInfo(w.get(fx.poolAddress)!);
        assert.equal(after.status, p.newStatus);
        assert.equal(after.status, AMM_STATUS.SwapOnly);
        assert.equal(after.recentEpoch, 700n);
        // Nothing else of the AmmInfo changes (the swap statistics are deprecated in the current program).
        assert.deepEqual({ ...after, status: 0n, recentEpoch: 0n }, { ...before, status: 0n, recentEpoch: 0n });
        // The constant product of the quotable reserves never decreases.
        const next = new Map(fx.accounts);
        for (const x of res.writes) next.set(x.address, x.data);
        const s2 = adapter.buildState(desc, next.get(fx.poolAddress)!, next, testClock())!;
        assert.ok(s2.reserveCoin * s2.reservePc >= state.reserveCoin * state.reservePc);
        // Tokens are conserved: the input side gains exactly what the user pays, the output side loses what it gets.
        assert.equal(s2.reserveCoin - state.reserveCoin, aToB ? q.inAmount : -q.outAmount);
        assert.equal(s2.reservePc - state.reservePc, aToB ? -q.outAmount : q.inAmount);
        cases++;
      }
    }
  }
  assert.equal(cases, 8);
});

test('execute writes nothing unless the quote is OK, and never changes the accounts it is given', () => {
  const { fx, desc, state } = setup({ status: 7n, poolOpenTime: 1_900_000_000n });
  const r = adapter.execute(desc, fx.accounts, true, 1_000_000n, 'ExactIn', testClock());
  assert.equal(r.quote.status, 'INACTIVE');
  assert.deepEqual(r.writes, []);
  const r2 = adapter.execute(desc, fx.accounts, true, state.reservePc, 'ExactOut', testClock(2_000_000_000n));
  assert.equal(r2.quote.status, 'INSUFFICIENT_LIQUIDITY');
  assert.deepEqual(r2.writes, []);
  const accounts = new Map<string, Uint8Array>([...fx.accounts].map(([k, v]) => [k, Buffer.from(v)]));
  const before = new Map([...accounts].map(([k, v]) => [k, Buffer.from(v)]));
  const r3 = adapter.execute(desc, accounts, false, 1_000_000n, 'ExactIn', testClock(2_000_000_000n));
  assert.ok(r3.writes.length > 0);
  for (const [k, v] of accounts) assert.ok(Buffer.from(v).equals(before.get(k)!), `${k} changed in place`);
  const noVault = new Map(fx.accounts);
  noVault.delete(fx.fields.coinVault);
  assert.throws(() => adapter.execute(desc, noVault, true, 1n, 'ExactIn', testClock()), { name: 'EngineError', code: 'AMM_V4_MISSING_ACCOUNT' });
});

test('swapInstruction equals the SDK v2 builders (keys, flags, data)', () => {
  const { fx, desc } = setup();
  const sdk = loadAmmV4Sdk();
  const user = testKey('user');
  const src = testKey('src');
  const dst = testKey('dst');
  const pk = (s: string) => new PublicKey(s);
  const authority = '5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1';
  const norm = (ix: { programId: { toBase58(): string }; keys: readonly { pubkey: { toBase58(): string }; isSigner: boolean; isWritable: boolean }[]; data: Uint8Array }) => ({
    programId: ix.programId.toBase58(),
    keys: ix.keys.map((k) => ({ pubkey: k.pubkey.toBase58(), isSigner: k.isSigner, isWritable: k.isWritable })),
    data: Buffer.from(ix.data),
  });
  for (const aToB of [true, false]) {
    for (const mode of ['ExactIn', 'ExactOut'] as SwapMode[]) {
      const ours = adapter.swapInstruction({
        pool: desc, accounts: fx.accounts, user, userSourceTokenAccount: src, userDestinationTokenAccount: dst,
        aToB, mode, amount: 1_000_001n, otherAmountThreshold: 999n,
      });
      const [arg1, arg2] = mode === 'ExactIn' ? [1_000_001n, 999n] : [999n, 1_000_001n];
      const build = mode === 'ExactIn' ? sdk.swapBaseInV2Instruction : sdk.swapBaseOutV2Instruction;
      const theirs = build(pk(AMM_V4_PROGRAM_ID), pk(fx.poolAddress), pk(authority), pk(fx.fields.coinVault), pk(fx.fields.pcVault),
        pk(src), pk(dst), pk(user), bn(arg1), bn(arg2));
      const mine = { programId: ours.programId, keys: ours.keys, data: Buffer.from(ours.data) };
      assert.deepEqual(mine, norm(theirs));
      // The SDK's high-level v2 builder (what its swap flow uses) gives the same instruction.
      const viaPoolKeys = sdk.makeAMMSwapV2Instruction({
        version: 4, fixedSide: mode === 'ExactIn' ? 'in' : 'out', amountIn: arg1, amountOut: arg2,
        poolKeys: { programId: AMM_V4_PROGRAM_ID, id: fx.poolAddress, authority, vault: { A: fx.fields.coinVault, B: fx.fields.pcVault } },
        userKeys: { tokenAccountIn: pk(src), tokenAccountOut: pk(dst), owner: pk(user) },
      });
      assert.deepEqual(mine, norm(viaPoolKeys));
      assert.equal(ours.keys[0]!.pubkey, TOKEN_PROGRAM_ID);
      assert.equal(ours.data[0], mode === 'ExactIn' ? 16 : 17);
    }
  }
});

test('capabilities: accountsPerSwap is the account count of the built swap instructions; exact-out both ways', () => {
  const s = setup();
  const counts = swapAccountCounts(adapter as DexAdapter, [{ desc: s.desc, accounts: s.fx.accounts }]);
  assert.ok(counts.every((n) => n === adapter.accountsPerSwap), `${counts.join(',')} vs ${adapter.accountsPerSwap}`);
  assert.deepEqual([adapter.exactOut, adapter.exactOutBToA, adapter.dynamicAccounts, adapter.unidirectional], [true, true, false, false]);
});
